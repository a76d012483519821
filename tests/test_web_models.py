"""The page's display controllers (host_tools/rp2emu/ssd1306.js, st7789.js) against the
simulator's (host_tools/sim/device_side/models/): the same bus bytes give the same glass, byte for
byte, in the settings the home screens do not use (inverse, other addressing modes,
the SH1106's columns, other MADCTL orientations, a dimmed backlight).  Run in node."""
import json
import os
import subprocess
import sys
import types

import pytest

from conftest import ROOT
from host_tools.rp2emu import node_path

pytestmark = pytest.mark.skipif(node_path() is None, reason="no node")

RP2EMU = os.path.join(ROOT, "host_tools", "rp2emu")

NODE_DECODER = r"""
const { OledModel } = require(process.argv[1] + '/ssd1306.js');
const { St7789Model } = require(process.argv[1] + '/st7789.js');
let text = '';
process.stdin.on('data', (chunk) => { text += chunk; });
process.stdin.on('end', () => {
  const job = JSON.parse(text);
  const model = job.kind === 'st7789' ? new St7789Model() : new OledModel(job.kind);
  for (const [level, duty, hex] of job.writes) {
    const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
    if (job.kind === 'st7789') model.write(level, duty, bytes); else model.write(bytes);
  }
  process.stdout.write(Buffer.from(model.frame()).toString('hex'));
});
"""


def _js_frame(kind, writes):
    job = json.dumps({"kind": kind, "writes": [[level, duty, data.hex()] for level, duty, data in writes]})
    proc = subprocess.run([node_path(), "-e", NODE_DECODER, RP2EMU], input=job, capture_output=True,
                          text=True, timeout=60, check=True)
    return bytes.fromhex(proc.stdout)


def _oled_frame(kind, writes):
    from host_tools.sim.device_side.models.ssd1306 import SH1106Model, SSD1306Model

    model = SH1106Model() if kind == "sh1106" else SSD1306Model()
    for _level, _duty, data in writes:
        model.i2c_start()
        model.i2c_write(data)
    return model.frame()


def _st7789_frame(writes):
    """The simulator's model, reading the D/C level and the backlight's duty of each write."""
    levels = types.SimpleNamespace(dc=1, duty=None)
    fake = types.ModuleType("fake_machine")
    fake.level = lambda ident: levels.dc if ident == "DC" else 1
    fake.pwm_duty = lambda ident: levels.duty
    saved = sys.modules.get("fake_machine")
    sys.modules["fake_machine"] = fake  # what the model imports (a MicroPython-only module)
    try:
        from host_tools.sim.device_side.models import st7789
    finally:
        if saved is not None:
            sys.modules["fake_machine"] = saved
        else:
            sys.modules.pop("fake_machine", None)
    previous = st7789.fake_machine
    st7789.fake_machine = fake  # this call's levels, whichever fake imported the module first
    try:
        model = st7789.ST7789Model(dc="DC", backlight="BL")
        bus = types.SimpleNamespace(polarity=0, phase=0)
        for level, duty, data in writes:
            levels.dc = level
            levels.duty = duty if duty >= 0 else None
            model.spi_write(data, bus)
        return model.frame()
    finally:
        st7789.fake_machine = previous


def _pattern(count, seed):
    return bytes((i * 37 + seed * 11 + (i >> 3)) & 0xFF for i in range(count))


def _oled_writes(setup):
    """Commands (Co=0, D/C=0: 0x00 then the bytes), then a screenful of data (0x40 ...)."""
    return [(0, -1, b"\x00" + bytes(setup)), (0, -1, b"\x40" + _pattern(1100, 3))]


OLED_CASES = {
    "ssd1306 upright, inverse": ("ssd1306", [0xAE, 0x8D, 0x14, 0xA1, 0xC8, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7,
                                             0xA7, 0xAF]),
    "ssd1306 vertical addressing, a window": ("ssd1306", [0x8D, 0x14, 0x20, 0x01, 0x21, 10, 90, 0x22, 2, 5, 0xAF]),
    "ssd1306 page addressing, offset and start line": ("ssd1306", [0x8D, 0x14, 0xB3, 0x05, 0x12, 0xD3, 9, 0x47,
                                                                    0xAF]),
    "ssd1306 no charge pump: dark": ("ssd1306", [0xA1, 0xC8, 0xAF]),
    "sh1106 columns 2..129, remapped": ("sh1106", [0xA1, 0xC8, 0xB0, 0x02, 0x10, 0xAF]),
}


@pytest.mark.parametrize("case", sorted(OLED_CASES))
def test_oled_glass_is_the_simulators(case):
    kind, setup = OLED_CASES[case]
    writes = _oled_writes(setup)
    assert _js_frame(kind, writes) == _oled_frame(kind, writes)


def _st7789_writes(madctl, inversion, duty, window):
    x0, x1, y0, y1 = window
    return [
        (0, duty, bytes([0x01, 0x11])),  # reset, sleep out
        (0, duty, bytes([0x3A])), (1, duty, bytes([0x55])),  # 16-bit pixels
        (0, duty, bytes([0x36])), (1, duty, bytes([madctl])),
        (0, duty, bytes([0x21 if inversion else 0x20, 0x29])),
        (0, duty, bytes([0x2A])), (1, duty, bytes([x0 >> 8, x0 & 255, x1 >> 8, x1 & 255])),
        (0, duty, bytes([0x2B])), (1, duty, bytes([y0 >> 8, y0 & 255, y1 >> 8, y1 & 255])),
        (0, duty, bytes([0x2C])), (1, duty, _pattern(9001, 5)), (1, duty, _pattern(4000, 7)),
    ]


ST7789_CASES = {
    "pimoroni landscape, inverted, full light": (0x60, True, -1, (40, 279, 53, 187)),
    "portrait, not inverted, dimmed": (0x00, False, 20000, (52, 186, 40, 279)),
    "mirrored rows, BGR, half light": (0xA8, True, 32768, (0, 239, 60, 200)),
    "backlight off": (0x60, True, 0, (40, 279, 53, 187)),
}


@pytest.mark.parametrize("case", sorted(ST7789_CASES))
def test_st7789_glass_is_the_simulators(case):
    writes = _st7789_writes(*ST7789_CASES[case])
    assert _js_frame("st7789", writes) == _st7789_frame(writes)
