"""The page of the link's device-time bench (host_tools/bench/link_time.py): what a run's
figures become in docs/bench_link_time.md, on CPython (the run itself needs the
emulated Pico W and minutes; its figures here are a run's shape, not its values)."""
from host_tools.bench import link_time


def run_figures(**changes):
    figures = {"deals_kept": 40, "deals_wanted": 40, "deals_match": True, "gap_max": 388170, "gap_screen": "home",
               "edges_dropped": 0, "boot_free": 166288, "free_min": 119696, "live_max": 54368, "layer": 1264,
               "repl_before": {"largest_free": 126352}, "after_game": {"largest_free": 119440},
               "latency_ms": [50.8, 295.0], "presses": 2, "link": None, "standin": None}
    figures.update(changes)
    return figures


def figures(offline=None, standin=None):
    return {"board": "pico_w_oled", "preset": "federation", "install": "frozen UF2",
            "offline": offline or run_figures(),
            "standin": standin or run_figures(link={"state": 2, "connects": 3, "published": 41, "pending": 0},
                                              standin={"connects": 3, "publishes": 41, "acks": 41, "drops": 1,
                                                       "ignored": 5})}


def test_the_page_gives_the_largest_free_block_and_the_live_peak():
    page = link_time.page(figures())
    assert "126,352 B / 119,440 B" in page
    assert "53,104 B" in page  # the live peak less the measuring layer


def test_the_page_says_which_deal_a_game_holds_otherwise():
    standin = run_figures(deals_match=False, first_difference=(7, {"bid": 80}, {"bid": 90}),
                          link={"state": 1}, standin={})
    page = link_time.page(figures(standin=standin))
    assert "link standin differs from the one typed: deal 7" in page
    assert "differs" not in page.split("link standin differs")[0]  # the offline game matched: nothing said


def test_the_page_names_a_crash_by_its_last_line():
    standin = run_figures(crash="Traceback:\n  File \"app.py\"\nMemoryError: memory allocation failed\n",
                          link={"state": 1}, standin={})
    assert "ended in a crash: `MemoryError: memory allocation failed`" in link_time.page(figures(standin=standin))
