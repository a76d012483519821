"""The chart and statistics screens (screens/chart.py, screens/stats.py) on both boards, in every language.

* in the simulator on the 128x64 board and on the Display Pack, in all four
  languages: reached from the menu, from game over (held OK) and from the chart
  (OK), BACK returns; the chart draws both lines (the team colours on the Pack);
* in-process on the unix port (tests/mp/chart_stats.py) with kept games in the
  archive: the statistics shown equal coinche.stats over the same games, a
  redraw of either screen allocates nothing after the first, and every row
  fits with the widest values 21 kept games can give (tests/text_fit_checks.py
  checks every text of both screens against its region, as on every screen).
"""
import json
import os

import pytest

import ui_corpus
from coinche import stats as ST
from coinche.game import Game
from coinche.rules import Rules
from conftest import ROOT, run_mp
from host_tools.common.paths import BENCH_DEVICE
from host_tools.calculator import keys as planner
from host_tools.sim import Sim
from screens.menu import Menu
from screens import settings as settings_screens

LANGS = ("fr", "en", "de", "it")
SCRIPT = os.path.join(ROOT, "tests", "mp", "chart_stats.py")


def _menu(item):
    return ["ok"] + ["down"] * Menu.ITEMS.index(item) + ["ok"]


def _language(code):
    """From home: settings > language > code (the picker cycles fr, en, de, it), back to the menu, home."""
    steps = (settings_screens.LANGS.index(code) - settings_screens.LANGS.index("fr")) % len(settings_screens.LANGS)
    return _menu("m_settings") + ["down"] * settings_screens.Settings.ITEMS.index("s_lang") + ["ok"] + ["up"] * steps + ["ok", "back", "back"]


def _game(cfg=1):
    _label, preset, options, records = ui_corpus.games(ui_corpus.SEED_TUNING, 1, [ui_corpus.CONFIGS[cfg]])[0]
    return preset, options, records


def _lit(frame, x0, x1, y0, y1):
    """Lit pixels of a 128x64 frame (MONO_VLSB) in a box."""
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            if frame.data[(y >> 3) * frame.w + x] >> (y & 7) & 1:
                n += 1
    return n


@pytest.mark.parametrize("board", ["sim", "pico_display_pack"])
@pytest.mark.parametrize("lang", LANGS)
def test_reachable_and_drawn_on_both_boards(board, lang):
    preset, options, records = _game()
    rules = Rules(preset, options)
    with Sim(board=board, rules=preset) as sim:
        if lang != "fr":
            sim.run_script(_language(lang))
        sim.run_script(planner.plan(rules, records[:5])[0])
        sim.run_script(_menu("m_chart"))
        chart = sim.current()
        assert chart.screen == "chart"
        sim.run_script(["ok"])
        assert sim.current().screen == "stats"
        sim.run_script(["ok", "down", "down", "up"])  # next page, scroll
        assert sim.current().screen == "stats"
        sim.run_script(["back"])
        assert sim.current().screen == "chart"
        sim.run_script(["back"])
        assert sim.current().screen == "menu"
        sim.run_script(["down", "ok"])  # the menu's next item: statistics
        assert sim.current().screen == "stats"
        sim.run_script(["back", "back"])
        assert sim.current().screen == "home"
        # from game over: held OK is the chart, BACK goes back to game over
        sim.run_script(_rest(rules, records, 5))
        assert sim.current().screen == "gameover"
        sim.run_script(["hold ok 800"])
        over = sim.current()
        assert over.screen == "chart"
        sim.run_script(["back"])
        assert sim.current().screen == "gameover"
        st = sim.state()
        assert st["over"] and len(st["deals"]) == len(records)
    if board == "sim":
        # both lines drawn in the plot area, the legend row written
        assert _lit(chart, 1, 107, 12, 52) > 40
        assert _lit(over, 1, 107, 12, 52) > _lit(chart, 1, 107, 12, 52)
        assert _lit(chart, 0, 128, 56, 64) > 20
    else:
        colours = _team_rgb565()
        for fr in (chart, over):
            pix = _rgb565_pixels(fr)
            plot = [pix[y * 240 + x] for y in range(26, 91) for x in range(5, 236)]
            assert plot.count(colours[0]) > 30 and plot.count(colours[1]) > 30
            legend = [pix[y * 240 + x] for y in range(95, 112) for x in range(0, 240)]
            assert legend.count(colours[0]) > 50 and legend.count(colours[1]) > 50


def _rest(rules, records, done):
    ev = []
    for i in range(done, len(records)):
        ev += planner.plan_deal(rules, Game(rules, records[:i]), records[i])
    return ev


def _team_rgb565():
    out = run_mp(code="from render import layout_240x135\n"
                 "print(layout_240x135.PALETTE[layout_240x135.TEAM[0]], layout_240x135.PALETTE[layout_240x135.TEAM[1]])").stdout
    rgb = [int(v) for v in out.split()[-2:]]
    return [((c >> 19) << 11) | (((c >> 10) & 0x3F) << 5) | ((c & 0xFF) >> 3) for c in rgb]


def _rgb565_pixels(frame):
    d = frame.data
    return [(d[i] << 8) | d[i + 1] for i in range(0, len(d), 2)]


# ---------------------------------------------------------------- in-process: figures, allocation, fit

GAMES = [(p, o, r) for _l, p, o, r in ui_corpus.games(ui_corpus.SEED_TUNING, 1)[:3]]
CURRENT = _game(0)


def _expected():
    every = ST.Tally()
    for preset, options, records in GAMES:
        every.add_game(Game(Rules(preset, options), records))
    current = Game(Rules(CURRENT[0], CURRENT[1]), CURRENT[2][:6])
    game = ST.Tally()
    game.add_game(current)
    every.add_game(current)
    return game, every


@pytest.fixture(scope="module", params=["128x64", "240x135"])
def inproc(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("chart") / "games.json"
    games = [list(g) for g in GAMES] + [[CURRENT[0], CURRENT[1], CURRENT[2][:6]]]
    path.write_text(json.dumps(games))
    out = run_mp(script=SCRIPT, args=[request.param, str(path)], heapsize="4M").stdout
    return request.param, json.loads(out.strip().splitlines()[-1])


def test_statistics_shown_equal_the_core(inproc):
    _layout, doc = inproc
    assert doc["archive"] == len(GAMES) and doc["deals"] == 6
    game, every = _expected()
    for _lang, row in doc["langs"].items():
        for k, page in enumerate(row["pages"]):
            tally = game if k < 2 else every
            team = ("NS", "EW")[k & 1]
            c = tally.as_dict(team)
            v = page["values"]
            assert v[0] == str(c["taken"])
            assert v[1] == ("%d %d%%" % (c["made"], c["made_percent"]) if c["taken"] else "0")
            assert v[2:6] == [str(c["coinche_won"]), str(c["surcoinche_won"]), str(c["capots"]), str(c["belotes"])]
            assert v[6] == str(c["average"])
            assert v[7] == "%d/%d" % (c["won"], c["games"])
        assert row["chart_legend"][0].endswith(" %d" % Game(Rules(CURRENT[0]), CURRENT[2][:6]).total["NS"])
    # over the kept games each team won some and the counts are not all zero: the check above means something
    e = every.as_dict("NS"), every.as_dict("EW")
    assert e[0]["games"] == 3 and e[0]["won"] + e[1]["won"] == 3
    assert e[0]["taken"] and e[1]["coinche_won"] + e[0]["coinche_won"]


def test_redraws_allocate_nothing(inproc):
    layout, doc = inproc
    assert doc["control"]  # the measurement sees an allocation
    for lang, row in doc["langs"].items():
        assert row["chart_alloc"] == 0, (layout, lang, row["chart_alloc"])
        assert row["stats_alloc"] == [0] * 8, (layout, lang, row["stats_alloc"])


def test_every_string_fits_in_every_language(inproc):
    layout, doc = inproc
    w = 128 if layout == "128x64" else 240
    # the widest values the rows can show over 21 kept games: 3-digit counts, "210 55%", "21/21"
    worst = [24, 56, 16, 16, 16, 16, 24, 40]
    for lang, row in doc["langs"].items():
        wd = row["widths"]
        for k, (label, value) in enumerate(zip(wd["labels"], worst)):
            # label from x=1 (4 on the Pack), a gap of one character, the value ends 4 px from the edge
            assert (1 if w == 128 else 4) + label + 8 + value <= w - 4, (lang, row["labels"][k])
        for t in wd["titles"]:
            assert t <= w - 2, (lang, wd["titles"])
        if w == 128:
            assert max(wd["legend"]) <= 63, (lang, row["chart_legend"])
            assert wd["chart"] + wd["target"] + 10 <= w, (lang, row["chart_target"])


def test_budgets_harness_reaches_both_screens():
    """make bench measures allocation per press on both screens (host_tools/bench/device_side/bench_ui.py ROUTES)."""
    with open(os.path.join(BENCH_DEVICE, "bench_ui.py")) as f:
        src = f.read()
    assert '("chart",' in src and '("stats",' in src


def test_chart_and_history_have_distinct_menu_labels_in_every_language():
    """Two menu entries with the same name cannot be told apart (German had "Verlauf" twice)."""
    lang_dir = os.path.join(ROOT, "firmware", "render", "lang")
    for name in sorted(os.listdir(lang_dir)):
        if not name.endswith(".txt"):
            continue
        labels = {}
        with open(os.path.join(lang_dir, name), encoding="utf-8") as f:
            for line in f:
                key, _, value = line.partition("=")
                if key.strip() in ("m_history", "m_chart"):
                    labels[key.strip()] = value.strip()
        assert set(labels) == {"m_history", "m_chart"}, (name, labels)
        assert labels["m_history"] != labels["m_chart"], (name, labels)
