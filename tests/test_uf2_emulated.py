"""The one-file install on the emulated Pico: build/coinche-<board>.uf2 (MicroPython
v1.28.0 with the scoreboard frozen in, host_tools/device/uf2.py) booted by rp2040js
(host_tools/rp2emu) on a flash image, with no deploy step.

The UF2 boots on an empty flash to the home screen (as the simulator draws it); a
game of 12 deals is typed on the GPIO buttons; the power is cycled; a newer UF2
flashed over the older one keeps the games (they live in the data partitions);
the Display Pack's UF2 boots and draws over SPI; a UF2 dragged over a stock
MicroPython that ran `make deploy` keeps that install's game.  Two tests of the harness
itself: the picture of a reboot is found whether it was drawn before or after the wait
began.  Skipped with the reason where the rp2 source, the Arm toolchain, the emulator
or its boot ROM is missing.
"""
import os
import shutil
import time

import pytest

import deployed_images
from home_pictures import sim_homes
from device_games import calculator_totals, corpus_game
from host_tools.calculator import keys as planner
from host_tools.common.script import parse_script

try:
    from host_tools import rp2emu
except ImportError:  # the emulator is not in this tree
    rp2emu = None



def _emulator_missing():
    """Why the emulated Pico cannot run here (one line), or None."""
    if rp2emu is None:
        return "no emulated Pico (host_tools/rp2emu)"
    if not os.path.exists(rp2emu.bootrom_path()):
        return "no RP2040 boot ROM (RP2040_BOOTROM=%s)" % rp2emu.bootrom_path()
    if not rp2emu.node_path():
        return "no node (make venv installs it)"
    if not os.path.isdir(os.path.join(rp2emu.NODE_MODULES, "rp2040js")):
        return "rp2040js not installed (host_tools/rp2emu)"
    return None


REASON = _emulator_missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="UF2 on the emulated Pico: %s" % REASON)]  # boots the emulated RP2040 (the device tier)

PRESS_MS = 100  # presses as a player makes them (the stock inputs are polled)
GAP_MS = 150
TIMINGS = {}


@pytest.fixture(autouse=True)
def _timed(request):
    start = time.monotonic()
    yield
    TIMINGS[request.node.name] = time.monotonic() - start


def teardown_module(module):
    total = sum(TIMINGS.values())
    print("\nUF2 on the emulated Pico: %.0f s (%s)" % (total, ", ".join("%s %.0f s" % kv for kv in TIMINGS.items())))


@pytest.fixture(scope="module")
def older_and_newer(uf2_images, tmp_path_factory):
    """Two pico_oled UF2s of this tree told apart by firmware_build.LABEL."""
    from host_tools.device import uf2

    source = os.environ.get("MICROPYTHON_SRC", "")
    folder = tmp_path_factory.mktemp("uf2")
    older, _ = uf2.build_firmware("pico_oled", source, out=str(folder / "older.uf2"), label="older")
    newer, _ = uf2.build_firmware("pico_oled", source, out=str(folder / "newer.uf2"), label="newer")
    uf2.build_firmware("pico_oled", source)  # build/ holds the unlabelled image again
    return older, newer


@pytest.fixture(scope="module")
def played(older_and_newer, tmp_path_factory):
    """An empty flash, the older UF2: its first frame, then 12 deals on the buttons."""
    older, _newer = older_and_newer
    image = str(tmp_path_factory.mktemp("pico") / "flash.img")
    records = corpus_game(12)
    rules = planner.Rules("classic2000")
    lines, _ = planner.plan(rules, records)
    with rp2emu.Pico("pico_oled", image, uf2=older) as pico:
        home = pico.wait_for_frame()
        layout = pico.exec("import flash_report, firmware_build\n"
                           "print(flash_report.LAYOUT, firmware_build.LABEL, len(flash_report.NOTES))\n").split()
        pico.reset()
        pico.wait_for_frame()
        pico.play(parse_script(lines), press_ms=PRESS_MS, gap_ms=GAP_MS)
        state = pico.state()
    return {"image": image, "home": home, "layout": layout, "records": records, "rules": rules, "state": state}


def test_uf2_boots_on_an_empty_flash_to_the_home_screen(played):
    frame = played["home"]
    assert (frame.fmt, frame.w, frame.h) == ("mono", 128, 64)
    assert frame.data in sim_homes("pico_oled")
    # our boot made the three partitions, nothing to report
    assert played["layout"] == ["partitions", "older", "0"]


def test_game_of_twelve_deals_through_gpio(played):
    records, rules, state = played["records"], played["rules"], played["state"]
    assert state["deals"] == [planner.canonical(rules, r) for r in records]
    assert state["total"] == calculator_totals(records, "classic2000")


def test_power_cycle_keeps_the_game(played, tmp_path):
    image = str(tmp_path / "flash.img")
    with open(played["image"], "rb") as f, open(image, "wb") as g:
        g.write(f.read())
    with rp2emu.Pico("pico_oled", image, uf2=None) as pico:  # the image alone boots
        pico.wait_for_frame()
        after = pico.state()
    assert after == played["state"]


def test_newer_uf2_over_the_older_keeps_the_games(played, older_and_newer, tmp_path):
    image = str(tmp_path / "flash.img")
    with open(played["image"], "rb") as f, open(image, "wb") as g:
        g.write(f.read())
    _older, newer = older_and_newer
    with rp2emu.Pico("pico_oled", image, uf2=newer) as pico:  # as dragged onto RPI-RP2
        pico.wait_for_frame()
        label = pico.exec("import firmware_build\nprint(firmware_build.LABEL)\n").strip()
        after = pico.state()
    assert label == "newer"
    assert after == played["state"]


def test_uf2_over_a_stock_install_keeps_its_games(uf2_images, tmp_path):
    """`make deploy` on the stock MicroPython (one littlefs over the whole flash),
    a few deals; then the UF2 dragged over it: its boot uses that filesystem as
    it is (nothing formatted) and the game is the one that was there."""
    image = str(tmp_path / "flash.img")
    records = corpus_game(3)
    rules = planner.Rules("classic2000")
    lines, _ = planner.plan(rules, records)
    # make deploy's image (its first game is classic2000), shared with the other emulated
    # tests (tests/deployed_images.py), on the stock UF2 ($MICROPYTHON_UF2)
    shutil.copy(deployed_images.deployed("pico_oled")[0], image)
    with rp2emu.Pico("pico_oled", image) as pico:
        pico.wait_for_frame()
        pico.play(parse_script(lines), press_ms=PRESS_MS, gap_ms=GAP_MS)
        before = pico.state()
    with rp2emu.Pico("pico_oled", image, uf2=uf2_images["pico_oled"]) as pico:
        pico.wait_for_frame()
        layout = pico.exec("import flash_report\nprint(flash_report.LAYOUT, len(flash_report.NOTES))\n").split()
        after = pico.state()
    assert layout == ["whole", "0"]
    assert len(before["deals"]) == 3
    assert after == before


def test_display_pack_uf2_boots_and_draws(uf2_images, tmp_path):
    image = str(tmp_path / "flash.img")
    with rp2emu.Pico("pico_display_pack", image, uf2=uf2_images["pico_display_pack"]) as pico:
        frame = pico.wait_for_frame()
    assert (frame.fmt, frame.w, frame.h) == ("rgb565", 240, 135)
    assert frame.data in sim_homes("pico_display_pack")


def test_picture_of_a_reboot_drawn_before_the_wait_is_found(uf2_images, tmp_path):
    """The frozen image draws its home screen about 0.1 s (simulated) after a reboot,
    often before reset() is back (pyserial's socket close sleeps 0.3 s of real time).
    wait_for_frame takes the picture from the boot, in the emulator's order: here the
    drawing is surely over before the call.  Counted from the call (as it was), no
    picture came, and the four tests of the played game failed with "no picture
    within 4 s" whenever the emulator ran ahead of the host."""
    image = str(tmp_path / "flash.img")
    with rp2emu.Pico("pico_oled", image, uf2=uf2_images["pico_oled"]) as pico:
        home = pico.wait_for_frame()
        pico.reset()
        pico.run_ms(1000)  # the app booted and drew meanwhile
        frame = pico.wait_for_frame()
        assert pico.reboots == 1
    homes = sim_homes("pico_oled")
    assert home.data in homes and frame.data in homes  # home again, whichever text its hint line shows


def test_a_reboot_during_the_wait_for_a_picture_is_followed(uf2_images, tmp_path):
    """A reboot that comes while wait_for_frame runs (mpremote's `reset` waits 100 ms
    first, as the export does; here the device is busy for 1 s of simulated time):
    the wait outlives it (the emulator keeps its marks across the reboot, though the
    chip's clock starts again at zero) and the picture is the new boot's."""
    image = str(tmp_path / "flash.img")
    with rp2emu.Pico("pico_oled", image, uf2=uf2_images["pico_oled"]) as pico:
        home = pico.wait_for_frame()
        pico.start("import time, machine\nstarted = time.ticks_ms()\n"
                   "while time.ticks_diff(time.ticks_ms(), started) < 1000:\n    pass\nmachine.reset()\n")
        frame = pico.wait_for_frame()
        assert pico.reboots == 1
    homes = sim_homes("pico_oled")
    assert home.data in homes and frame.data in homes  # home again, whichever text its hint line shows
