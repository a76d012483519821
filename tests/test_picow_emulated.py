"""The Pico W's one-file install on the emulated RP2040: build/coinche-pico_w_oled.uf2
(MicroPython's RPI_PICO_W port board, the CYW43 driver linked in) booted by rp2040js
(host_tools/rp2emu), which has no WiFi chip.  The table boots to home with the
link's mark saying offline (as the simulator draws that board), its data partitions
cut from the Pico W's smaller storage region, a WiFi interface that fails to start
does not stop it, and a game is played on the GPIO buttons.  Skipped with the reason
where the rp2 source, the wireless libraries, the toolchain, the emulator or its boot
ROM is missing."""
import os

import pytest

from device_games import calculator_totals, corpus_game
from host_tools.calculator import keys as planner
from host_tools.common.script import parse_script
from home_pictures import sim_homes

try:
    from host_tools import rp2emu
except ImportError:  # the emulator is not in this tree
    rp2emu = None


def _emulator_missing():
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
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="Pico W UF2 on the emulated Pico: %s" % REASON)]  # boots the emulated RP2040 (the device tier)

BOARD = "pico_w_oled"
PICO_W_STORAGE_BLOCKS = 212  # RPI_PICO_W keeps 848 KB of its 2 MB flash for the filesystem


@pytest.fixture(scope="module")
def played(uf2_wifi_image, tmp_path_factory):
    image = str(tmp_path_factory.mktemp("picow") / "flash.img")
    records = corpus_game(3)
    rules = planner.Rules("classic2000")
    lines, _ = planner.plan(rules, records)
    with rp2emu.Pico(BOARD, image, uf2=uf2_wifi_image) as pico:
        home = pico.wait_for_frame()
        found = pico.exec(
            "import os, flash_report\n"
            "print(flash_report.LAYOUT, len(flash_report.NOTES), os.statvfs('/')[2], os.statvfs('/data_a')[2],"
            " os.statvfs('/data_b')[2])\n").split()
        wifi = pico.exec(
            "import network\n"
            "wlan = network.WLAN(network.STA_IF)\n"
            "try:\n"
            "    wlan.active(True)\n"
            "except OSError as error:\n"
            "    print('raised', error)\n"
            "print('active', wlan.active())\n")
        pico.reset()
        pico.wait_for_frame()
        pico.play(parse_script(lines), press_ms=100, gap_ms=150)
        state = pico.state()
    return {"home": home, "found": found, "wifi": wifi, "state": state, "records": records, "rules": rules}


def test_pico_w_uf2_boots_to_home_with_the_offline_mark(played):
    frame = played["home"]
    assert (frame.fmt, frame.w, frame.h) == ("mono", 128, 64)
    assert frame.data in sim_homes(BOARD)  # the simulator's pico_w_oled home: the link's mark, offline


def test_pico_w_partitions_are_cut_from_its_storage_region(played):
    data = PICO_W_STORAGE_BLOCKS * 3 // 11  # store/partitions.py's proportions (57 blocks each)
    user = PICO_W_STORAGE_BLOCKS - 2 * data
    # littlefs reports its blocks in statvfs()[2]: each partition mounted at its size
    assert played["found"] == ["partitions", "0", str(user), str(data), str(data)]


def test_no_wifi_chip_leaves_the_table_playing(played):
    assert "active" in played["wifi"]  # the REPL answered after the failed start
    records, rules, state = played["records"], played["rules"], played["state"]
    assert state["deals"] == [planner.canonical(rules, r) for r in records]
    assert state["total"] == calculator_totals(records, "classic2000")
