"""The real port in the loop: the stock rp2 MicroPython UF2 on an emulated RP2040.

host_tools/rp2emu boots $MICROPYTHON_UF2 (with the boot ROM $RP2040_BOOTROM) in
rp2040js, serves its USB CDC on a local port (mpremote connects unchanged), keeps
the flash in an image file through a NOR flash model, presses buttons on the
board's GPIO pins and decodes the display bus through the controller models.

`make deploy` puts the firmware on it exactly as on a Pico (once per run of the suite,
tests/deployed_images.py); then a game is played
with presses, the power is cycled and cut in the middle of flash writes, and the
device must say what the host calculator says.  Skipped, with the reason, where
the UF2, the boot ROM, node or rp2040js is missing (.ci/run provides them).
The 40-deal game at 30/30 ms has its file (tests/test_rp2emu_presses.py): the two files
run side by side on two test workers.
"""
import ast
import shutil
import time

import pytest

import deployed_images
from device_games import calculator_totals as _calculator_totals  # one copy for the emulator tests
from device_games import corpus_game as _game
from host_tools.calculator import keys as planner
from host_tools import rp2emu
from host_tools.common.script import parse_script
from home_pictures import sim_homes

REASON = rp2emu.missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="emulated Pico: %s" % REASON)]  # boots the emulated RP2040 (the device tier)

TIMINGS = {}  # test -> seconds of real time, printed at the end (pytest -s)


@pytest.fixture(autouse=True)
def _timed(request):
    start = time.monotonic()
    yield
    TIMINGS[request.node.name] = time.monotonic() - start


def teardown_module(module):
    total = sum(TIMINGS.values())
    print("\nemulated Pico tests: %.0f s (%s)" % (total, ", ".join("%s %.0f s" % kv for kv in TIMINGS.items())))


@pytest.fixture(scope="module")
def oled_image():
    """A flash image with the firmware deployed by `make deploy` (and its first boot done),
    made once per run of the suite (tests/deployed_images.py): copy it before booting it."""
    path, frame, reboots = deployed_images.deployed("pico_oled")
    assert reboots == 1, "make deploy ends with a reset"
    return path, frame


def test_make_deploy_then_home_on_the_oled(oled_image):
    """make deploy into the emulated Pico running the stock UF2; after its reset the
    decoded OLED shows the home screen, pixel for pixel what the simulator shows."""
    _, frame = oled_image
    assert (frame.fmt, frame.w, frame.h) == ("mono", 128, 64)
    assert frame.data in sim_homes("pico_oled")


def test_game_through_gpio_then_power_cycle(oled_image, tmp_path):
    """Twelve deals typed on the buttons at 30 ms presses and 30 ms gaps (the key
    planner's script, so every press counts: one lost or swapped shows); the power is
    cycled on the flash image: the state after boot is the state before, and its
    totals are the host calculator's."""
    image = str(tmp_path / "flash.img")
    shutil.copy(oled_image[0], image)
    records = _game(12)
    rules = planner.Rules("classic2000")
    lines, _ = planner.plan(rules, records)
    with rp2emu.Pico("pico_oled", image) as pico:
        pico.wait_for_frame()
        pico.play(parse_script(lines), press_ms=30, gap_ms=30)
        before = pico.state()
    with rp2emu.Pico("pico_oled", image, uf2=None) as pico:  # the image alone boots
        pico.wait_for_frame()
        after = pico.state()
    assert before == after
    assert len(after["deals"]) == 12
    assert after["deals"] == [planner.canonical(rules, r) for r in records]
    assert after["total"] == _calculator_totals(records, "classic2000")


def test_display_pack_boots_over_spi(tmp_path):
    """The Display Pack's ST7789 on SPI: after make deploy, home, as the simulator draws it."""
    image = str(tmp_path / "flash.img")
    with rp2emu.Pico("pico_display_pack", image) as pico:
        deployed_images.make_deploy("pico_display_pack", pico.url)
        frame = pico.wait_for_frame()
    assert (frame.fmt, frame.w, frame.h) == ("rgb565", 240, 135)
    assert frame.data in sim_homes("pico_display_pack")


# On the device, from the raw REPL (main.py interrupted): the app's own inputs module on
# the board's pins; after the host's sync press (UP, released), WINDOWS times: interrupts
# off for 45 ms as a sector erase keeps them, each window PHASE_US later against the
# host's millisecond grid, then polls as the app does; the events of each window.
LATCHED_TOGETHER = """
import machine, time, board
from events.inputs import Inputs
sync = board.button_pins[0]
while sync.value():
    pass
while not sync.value():
    pass
first = time.ticks_add(time.ticks_us(), %(first_us)d)
inputs = Inputs(board.buttons, board.ticks_ms, board.button_pins)
windows = []
for k in range(%(windows)d):
    start = time.ticks_add(first, k * (%(period_us)d + %(phase_us)d))
    while time.ticks_diff(start, time.ticks_us()) > 0:
        pass
    state = machine.disable_irq()
    while time.ticks_diff(time.ticks_add(start, 45000), time.ticks_us()) > 0:
        pass
    machine.enable_irq(state)
    events = []
    while time.ticks_diff(time.ticks_add(start, 250000), time.ticks_us()) > 0:
        inputs.poll()
        event = inputs.pop()
        while event >= 0:
            events.append(event)
            event = inputs.pop()
        time.sleep_ms(10)
    windows.append(events)
"""


def test_edges_latched_in_one_erase_keep_a_fingers_order_on_the_rp2_port(oled_image, tmp_path):
    """The stock rp2 port's interrupts: OK released, then UP pressed 30 ms later, both
    while interrupts are off (45 ms, as in a sector erase).  When they come back, rp2's
    gpio_irq runs UP's handler (GP10), then OK's (GP12), about 0.1 ms of Python each;
    the windows' ends sweep a whole millisecond, so in some the ms ticks between the
    two handlers.  Every window gives OK, then UP (stamped 1 ms apart, UP came first
    in about 1 window in 10 and went to the screen before OK's action: the press lost
    right after a save in the 40-deal game)."""
    from events.inputs import OK, PRESS, UP, event

    windows, period_ms, phase_us = 20, 300, 53
    image = str(tmp_path / "flash.img")
    shutil.copy(oled_image[0], image)
    # the host's script: the sync press, then per window OK held from 25 ms before its
    # start to 5 ms in, UP from 35 ms in to 65 ms in (30 ms presses, 30 ms gaps)
    lines = ["hold up 30", "wait 215"]
    for _ in range(windows):
        lines += ["hold ok 30", "hold up 30", "wait %d" % (period_ms - 120)]
    with rp2emu.Pico("pico_oled", image) as pico:
        pico.wait_for_frame()
        # the first window starts 300 ms after the sync press, 270 ms after its release
        pico.start(LATCHED_TOGETHER % {"first_us": 270_000, "windows": windows, "period_us": period_ms * 1000,
                                       "phase_us": phase_us})
        time.sleep(1.0)  # the device is in its sync loop (the script starts in the future anyway)
        pico.play(parse_script(lines), press_ms=30, gap_ms=30)
        got = ast.literal_eval(pico.exec("print(repr(windows))").strip())
    want = [event(PRESS, OK), event(PRESS, UP)]
    assert len(got) == windows
    wrong = [(k, events) for k, events in enumerate(got) if events != want]
    assert not wrong, "windows whose events were not OK then UP: %r" % wrong


def _deal_scripts(rules, records):
    """The planner's script cut into one list of lines per deal."""
    return planner.deal_scripts(planner.plan(rules, records)[0])[1]


def test_power_cut_in_the_middle_of_flash_writes(oled_image, tmp_path):
    """Three deals saved; the fourth is typed and the power is cut in the middle of a
    page program or of a sector erase of its save (the NOR model has done half of
    it).  The device boots on what the flash holds, on its home screen, with the
    game as after the last confirmed action (three deals, or four when the cut
    came after the save's commit), then goes on: the next deals give the
    calculator's totals."""
    rules = planner.Rules("classic2000")
    records = _game(6)
    deals = _deal_scripts(rules, records)
    base = str(tmp_path / "base.img")
    shutil.copy(oled_image[0], base)
    with rp2emu.Pico("pico_oled", base) as pico:
        pico.wait_for_frame()
        pico.play(parse_script(sum(deals[:3], [])))
    measure = str(tmp_path / "measure.img")
    shutil.copy(base, measure)
    with rp2emu.Pico("pico_oled", measure) as pico:
        pico.wait_for_frame()
        pico.flash_operations()
        pico.play(parse_script(deals[3]))
        programs, erases, _ = pico.flash_operations()  # what saving one deal takes
    assert programs >= 2, "a save programs the flash"
    points = [("program", 0), ("program", programs // 2), ("program", programs - 1)]
    if erases:
        points += [("erase", 0), ("erase", erases - 1)]
    seen = set()
    for kind, index in points:
        image = str(tmp_path / ("cut-%s-%d.img" % (kind, index)))
        shutil.copy(base, image)
        with rp2emu.Pico("pico_oled", image) as pico:
            pico.wait_for_frame()
            pico.cut_during(index, kind)
            with pytest.raises(rp2emu.EmulatorError, match="power went"):
                pico.play(parse_script(deals[3]))
            assert pico.wait_for_cut().startswith(kind)
        with rp2emu.Pico("pico_oled", image, uf2=None) as pico:
            pico.wait_for_frame()
            state = pico.state()
            kept = len(state["deals"])
            assert kept in (3, 4), (kind, index, state)
            assert state["deals"] == [planner.canonical(rules, r) for r in records[:kept]]
            assert state["screen"] == "home"
            seen.add(kept)
            pico.reset()
            pico.wait_for_frame()
            pico.play(parse_script(sum(deals[kept:6], [])))
            state = pico.state()
        assert state["deals"] == [planner.canonical(rules, r) for r in records], (kind, index)
        assert state["total"] == _calculator_totals(records, "classic2000")
    assert 3 in seen, "some cut must hit the save before its commit"
