"""The scoreboard in a web page (make web): the one-file UF2 on the emulated RP2040 in
a Web Worker, driven through real headless Chromium as a player drives it.

One build and one browser for the module; the page is served from 127.0.0.1 by the
test.  Each game is checked against the simulator (the same script gives the same
state document) and the host calculator.  Skipped, with the reason, without
Chromium and chromedriver, or without the UF2s (the rp2 source in ../shared).
"""
import os
import time

import pytest

from device_games import calculator_totals, corpus_game
from host_tools.calculator import keys as planner
from host_tools.sim import Sim
from host_tools.web import build as web_build
from host_tools.web.page_driver import Page
from home_pictures import sim_home_frames
from host_tools.web.serve import chromium, chromium_missing, serving


def _missing():
    why = chromium_missing()
    if why:
        return why
    stale = [board for board in web_build.WEB_BOARDS if not web_build.uf2_is_current(board)]
    if stale:
        source = os.environ.get("MICROPYTHON_SRC") or web_build.DEFAULT_SOURCE
        why = web_build.uf2.problem(source)
        if why:
            return "no current UF2 for %s and none can be built: %s" % (", ".join(stale), why)
    return None


REASON = _missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="web page: %s" % REASON)]  # boots the emulated RP2040 (the device tier)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("web") / "web")
    try:
        web_build.build(out=out, log=lambda line: None)
    except web_build.PackagesMissing as e:
        pytest.skip("web page: %s" % e)
    with serving(out) as server:
        yield server


@pytest.fixture(scope="module")
def page(site):
    with chromium() as browser:
        yield Page(browser, site.url)


def _sim_state(board, lines):
    with Sim(board=board) as sim:
        sim.run_script(lines)
        return sim.state()


def _sim_frame(board, lines):
    with Sim(board=board) as sim:
        sim.run_script(lines)
        sim.wait(500)
        return sim.frame()


def _choose(page, select_id, value):
    """A chooser of the page picked as a player picks it (a click on it, then on the option)."""
    from selenium.webdriver.support.select import Select

    Select(page.browser.find_element("id", select_id)).select_by_value(value)


@pytest.mark.parametrize("board", web_build.WEB_BOARDS)
def test_home_screen_is_the_simulators_pixel_for_pixel(page, board):
    page.open(board, fresh=True)
    page.idle()
    fmt, w, h, data = page.frame()
    homes = sim_home_frames(board)
    assert (fmt, w, h) == (homes[0].fmt, homes[0].w, homes[0].h)
    assert data in [home.data for home in homes]


MENU_PRESSES = 5


@pytest.mark.parametrize("board", web_build.WEB_BOARDS)
def test_each_press_draws_one_whole_picture(page, board):
    """DOWN in the menu, one press at a time: the canvas draws one picture per press
    (the whole one, never a part of it on the way), pressToPixels has one entry per
    press, and the last picture is the simulator's after the same presses."""
    page.open(board, fresh=True)
    page.play(["ok"])
    for _ in range(MENU_PRESSES):
        before = page.stats()
        page.press("DOWN", by_key=True)
        page.idle()
        after = page.stats()
        assert after["framesDrawn"] - before["framesDrawn"] == 1
        assert len(after["pressToPixels"]) - len(before["pressToPixels"]) == 1
        # the speed's figures count this press: its answer, the chip awake, its cycles
        assert after["answers"] - before["answers"] == 1
        assert after["answerSimulatedMs"] > before["answerSimulatedMs"] and after["answerMs"] > before["answerMs"]
        assert after["awakeSimulatedMs"] > before["awakeSimulatedMs"] and after["cyclesMs"] > before["cyclesMs"]
    fmt, w, h, data = page.frame()
    want = _sim_frame(board, ["ok"] + ["down"] * MENU_PRESSES)
    assert (fmt, w, h, data) == (want.fmt, want.w, want.h, want.data)


STILL_WAKES_PER_SECOND = 5  # the app polled every 10 ms before: 100 and more


@pytest.mark.parametrize("board", web_build.WEB_BOARDS)
def test_a_still_screen_lets_the_chip_sleep(page, board):
    """Home, then the menu, with nothing pressed: the emulated core wakes a few times per
    simulated second (the hint line's turn, the loop's longest sleep), not at every
    10 ms poll; each wake-up is the Worker's work, so this is what a still tab costs.
    Home runs the boot's loop (app.run), the menu the page's own after a state()
    (RESUME). Counted in the chip's own sleeps, never in wall-clock time; then a press
    still answers at once."""
    page.open(board, fresh=True)
    for lines in ([], ["ok"]):
        page.play(lines)
        if lines:
            page.state()  # the REPL stops the app's loop, and the page starts it again
        page.idle()
        before = page.stats()
        time.sleep(2)
        after = page.stats()
        seconds = (after["simulatedMs"] - before["simulatedMs"]) / 1000
        assert seconds > 0.5, "simulated time stood still: %r" % ((before, after),)
        assert (after["sleeps"] - before["sleeps"]) / seconds <= STILL_WAKES_PER_SECOND
    before = page.stats()
    page.press("DOWN", by_key=True)
    page.idle()
    assert len(page.stats()["pressToPixels"]) - len(before["pressToPixels"]) == 1


def test_keys_reach_the_device_after_a_click_on_the_chooser(page):
    """The board picked with the mouse: UP and Enter go to the device, not to the
    chooser (which would switch the board back, or swallow Enter)."""
    page.open("pico_oled", fresh=True)
    _choose(page, "board", "pico_display_pack")
    page.ready()
    page.play(["up", "down", "ok"], by_key=lambda index: True)
    assert page.call("window.scoreboard.board()") == "pico_display_pack"
    assert page.state()["screen"] == _sim_state("pico_display_pack", ["up", "down", "ok"])["screen"]


def test_the_devices_language_changes_without_a_reset(page):
    """The Language chooser changes the device's language at once, as its Settings
    screen does: the game in progress and its screen stay."""
    page.open("pico_oled", fresh=True)
    page.play(["up", "ok"])  # a deal entry started
    before = page.state()
    _choose(page, "lang", "de")
    after = page.state()
    assert after["settings"]["lang"] == "de"
    assert (after["deals"], after["screen"]) == (before["deals"], before["screen"])


def test_everything_the_page_loads_comes_from_its_folder(page, site):
    page.open("pico_oled")
    loaded = page.browser.execute_script(
        "return performance.getEntriesByType('resource').map((entry) => entry.name)")
    assert {"config.json", "coinche-pico_oled.uf2", "rp2040-bootrom.bin", "worker.js", "page.js"} <= {
        name.rsplit("/", 1)[-1] for name in loaded}
    assert [name for name in loaded if not name.startswith(site.url)] == []


def test_after_a_visit_the_page_opens_with_no_server(page, site):
    """The service worker kept the folder (the board's UF2 once used): a second server
    for the folder, one visit, the server stopped, the page reloaded, the device plays."""
    with serving(site.folder) as server:
        page.browser.get(server.url + "?board=pico_oled")
        page.ready()
        page.call("caches.keys().then(async (names) => { for (;;) { for (const name of await caches.keys())"
                  " if (await (await caches.open(name)).match('coinche-pico_oled.uf2')) return true;"
                  " await new Promise((r) => setTimeout(r, 100)); } })")
    page.browser.refresh()
    page.ready()
    assert page.state()["screen"] == "home"


def test_a_board_never_opened_opens_offline(page, site):
    """One visit with the OLED board; with no server, the Display Pack (never opened)
    boots from the service worker's cache."""
    with serving(site.folder) as server:
        page.browser.get(server.url + "?board=pico_oled")
        page.ready()
        page.call("caches.keys().then(async (names) => { for (;;) { for (const name of await caches.keys())"
                  " if (await (await caches.open(name)).match('coinche-pico_display_pack.uf2')) return true;"
                  " await new Promise((r) => setTimeout(r, 100)); } })")
    _choose(page, "board", "pico_display_pack")
    page.ready()
    assert page.call("window.scoreboard.board()") == "pico_display_pack"
    assert page.state()["screen"] == "home"


def test_on_a_phone_in_french_the_page_is_french_with_fingertip_buttons(site):
    """A French phone: the page in French, no keyboard help, every button at least
    48 CSS px wide and high, on both boards."""
    with chromium(width=360, height=740, mobile=True, language="fr") as browser:
        phone = Page(browser, site.url)
        for board in web_build.WEB_BOARDS:
            phone.open(board)
            assert browser.execute_script("return document.documentElement.lang") == "fr"
            assert browser.find_element("css selector", "h1").text == "Marqueur de coinche"
            assert not browser.find_element("css selector", ".keys").is_displayed()
            sizes = browser.execute_script(
                "return [...document.querySelectorAll('[data-button]')].map((b) => b.getBoundingClientRect())"
                ".map((r) => [r.width, r.height])")
            assert len(sizes) == 4 and min(min(size) for size in sizes) >= 48, sizes


GAME_DEALS = 4


LONG_HOLD_MS = 900  # OK and BACK held: the long press from 600 ms on, whatever the length past it


def steady_script(lines):
    """The key planner's script with each repeating hold of UP or DOWN (k steps by its
    length, to within 40 ms) as k presses, and the long holds of OK and BACK well past
    the threshold: the same steps on the device, none hanging on how exactly a browser
    driven from another process times a key on a loaded machine."""
    steps = {planner.hold_for(k): k for k in range(2, 200)}
    out = []
    for line in lines:
        words = line.split("#", 1)[0].split()
        if words[:1] == ["hold"] and words[1] in ("up", "down"):
            out += [words[1]] * steps[int(words[2])]
        elif words[:1] == ["hold"]:
            out.append("hold %s %d" % (words[1], LONG_HOLD_MS))
        else:
            out.append(line)
    return out


@pytest.fixture(scope="module")
def played(page):
    """A game of GAME_DEALS deals typed on the OLED board's page: on-screen buttons and
    keys in turn, long holds included (the key planner's script, made steady)."""
    records = corpus_game(GAME_DEALS)
    lines = steady_script(planner.plan(planner.Rules("classic2000"), records)[0])
    page.open("pico_oled", fresh=True)
    page.play(lines)
    return records, lines, page.state()


def test_a_game_through_buttons_and_keys_is_the_calculators(played):
    records, _, state = played
    assert state["deals"] == [planner.canonical(planner.Rules("classic2000"), r) for r in records]
    assert state["total"] == calculator_totals(records, "classic2000")


def test_the_state_is_the_simulators_state_out(played):
    _, lines, state = played
    assert state == _sim_state("pico_oled", lines)


def test_a_reload_brings_the_same_game_back(page, played):
    _, _, state = played
    page.saved()
    page.reload()
    assert page.state() == state


def test_the_board_chooser_keeps_each_boards_game(page, played):
    from selenium.webdriver.support.select import Select

    _, _, state = played
    chooser = Select(page.browser.find_element("id", "board"))
    chooser.select_by_value("pico_display_pack")
    page.ready()
    assert page.call("window.scoreboard.board()") == "pico_display_pack"
    assert page.state()["deals"] == []  # its own flash: the new device of its home screen test
    chooser.select_by_value("pico_oled")
    page.ready()
    assert page.state() == state


def test_a_held_button_is_a_long_press(page):
    """OK held on the Display Pack's X (pointer) and Enter held on the keyboard: the
    long press the simulator's `hold ok 800` is, not the short one."""
    page.open("pico_display_pack", fresh=True)
    page.hold("OK", 800)
    held = page.state()["screen"]
    assert held == _sim_state("pico_display_pack", ["hold ok 800"])["screen"]
    page.play(["back"])
    page.hold("OK", 800, by_key=True)
    assert page.state()["screen"] == held
    page.play(["back", "ok"])
    assert page.state()["screen"] != held  # a short OK is another screen


def test_reset_asks_then_starts_the_chosen_new_game(page):
    from selenium.webdriver.support.select import Select

    browser = page.browser
    page.open("pico_oled", fresh=True)
    page.play(["up", "ok"])  # a deal entry started: the game is not new
    before = page.state()
    browser.find_element("css selector", "#new-game summary").click()
    browser.find_element("css selector", "#reset").click()
    browser.switch_to.alert.dismiss()
    assert page.state() == before
    Select(browser.find_element("id", "lang")).select_by_value("en")
    Select(browser.find_element("id", "preset")).select_by_value("federation")
    Select(browser.find_element("id", "target")).select_by_value("1500")
    browser.find_element("css selector", "#reset").click()
    browser.switch_to.alert.accept()
    page.ready()
    after = page.state()
    assert after["deals"] == []
    assert after["settings"]["lang"] == "en"
    assert after["rules"] == {"preset": "federation", "options": {"target": 1500}}
    assert after["screen"] == "home"
