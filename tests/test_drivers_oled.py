"""SSD1306 / SH1106 drivers, checked at the glass through a controller model.

The driver runs on the MicroPython unix port and talks to the fake I2C bus
of host_tools/mp/fake_machine.py; the model behind the bus decodes the bytes
like the chip does.  What the tests compare is what the panel would show.
"""
import json
import random

import pytest

KINDS = ("ssd1306", "sh1106")
PRELUDE = """
import json, micropython
from binascii import hexlify, unhexlify
import hwsim, fake_machine
from models.ssd1306 import SSD1306Model, SH1106Model
"""


def run(mp, code):
    out = mp(code=PRELUDE + code).stdout.strip().splitlines()
    return json.loads(out[-1])


def window_cost(kind, pages):
    """Bytes on the bus to update these pages: commands + control + data."""
    if kind == "sh1106":
        return len(pages) * (4 + 129)  # page, column low, column high, then data
    runs = sum(1 for p in pages if p - 1 not in pages)
    return runs * 7 + len(pages) * 129  # one 0x21/0x22 window per run of pages


@pytest.mark.parametrize("kind", KINDS)
def test_random_pictures_reach_the_glass(mp, kind):
    rnd = random.Random(kind)
    frames = [bytes(rnd.getrandbits(8) for _ in range(1024)) for _ in range(4)]
    res = run(mp, """
d = hwsim.display(%r)
out = []
for h in %r:
    d.buffer[:] = unhexlify(h)
    d.show()
    out.append(hexlify(hwsim.frame(d)[3]).decode())
# and once more drawn with framebuf, compared pixel by pixel
d.fill(0)
d.text("Nous 162", 3, 5, 1)
d.line(0, 63, 127, 0, 1)
d.fill_rect(90, 40, 30, 20, 1)
d.rect(0, 0, 128, 64, 1)
d.show()
f = hwsim.frame(d)[3]
m = hwsim.model(d)
bad = [(x, y) for y in range(64) for x in range(128) if m.pixel(x, y, f) != d.pixel(x, y)]
print(json.dumps({"glass": out, "bad": bad[:5], "lit": sum(d.pixel(x, y) for y in range(64) for x in range(128)),
                  "problems": hwsim.problems(d)}))
""" % (kind, [f.hex() for f in frames]))
    assert [bytes.fromhex(g) for g in res["glass"]] == frames
    assert res["bad"] == []
    assert res["lit"] > 500  # the drawing did put pixels there
    assert res["problems"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_only_changed_pages_are_sent(mp, kind):
    rnd = random.Random(1 + KINDS.index(kind))
    cases = [sorted(rnd.sample(range(8), rnd.randint(0, 8))) for _ in range(30)]
    cases += [[], [0], [7], [3, 4], [0, 2, 4, 6], list(range(8))]
    res = run(mp, """
d = hwsim.display(%r)
bus = fake_machine.i2c_bus(0)
m = hwsim.model(d)
full = d.bytes_sent
d.show()
full = d.bytes_sent - full
out = []
for pages in %r:
    for p in pages:
        x = (p * 37) %% 128
        d.pixel(x, p * 8 + 3, 1 - d.pixel(x, p * 8 + 3))
    b, w, n = d.bytes_sent, bus.bytes_written, m.data_bytes
    d.show()
    ok = hwsim.frame(d)[3] == bytes(d.buffer)
    out.append([d.bytes_sent - b, bus.bytes_written - w, m.data_bytes - n, ok])
print(json.dumps({"full": full, "out": out}))
""" % (kind, cases))
    assert res["full"] == window_cost(kind, list(range(8)))
    for pages, (sent, on_bus, ram, ok) in zip(cases, res["out"]):
        assert ok
        assert sent == window_cost(kind, pages), pages
        assert on_bus == sent  # the driver's own count is what crossed the bus
        assert ram == 128 * len(pages)


def test_sh1106_writes_columns_2_to_129(mp):
    res = run(mp, """
from drivers.ssd1306 import SH1106
d = hwsim.display("sh1106")
d.fill(1)
d.show()
m = hwsim.model(d)
edges = [m.ram[p * 132 + c] for p in range(8) for c in (0, 1, 130, 131)]
inside = [m.ram[p * 132 + c] for p in range(8) for c in range(2, 130)]
# The same module driven without the offset: the picture lands 2 columns off.
fake_machine.reset_hardware()
m2 = fake_machine.attach_i2c(0, 0x3C, SH1106Model())
d2 = SH1106(fake_machine.I2C(0, sda=4, scl=5), col_offset=0)
d2.fill(0)
d2.vline(0, 0, 64, 1)
d2.show()
f = m2.frame()
print(json.dumps({"edges": edges, "inside": sorted(set(inside)),
                  "col0": m2.pixel(0, 10, f), "ram_col0": m2.ram[132]}))
""")
    assert set(res["edges"]) == {0}
    assert res["inside"] == [255]
    assert res["col0"] == 0  # a driver without the offset loses its left edge
    assert res["ram_col0"] == 0xFF  # ... into RAM the glass does not show


@pytest.mark.parametrize("kind", KINDS)
def test_init_leaves_the_panel_on_and_upright(mp, kind):
    res = run(mp, """
d = hwsim.display(%r)
m = hwsim.model(d)
print(json.dumps({"on": m.display_on, "seg": m.seg_remap, "com": m.com_remap, "mux": m.mux,
                  "pins": m.com_pins, "pump": getattr(m, "charge_pump", getattr(m, "dcdc", None)),
                  "inverse": m.inverse, "problems": m.problems, "init_bytes": d.bytes_sent}))
""" % kind)
    assert res["on"] and res["seg"] and res["com"] and not res["inverse"]
    assert res["mux"] == 64 and res["pins"] == 0x12
    assert res["pump"] is True
    assert res["problems"] == []
    assert res["init_bytes"] < 60  # a few commands, no picture yet


@pytest.mark.parametrize("kind", KINDS)
def test_contrast_invert_and_power(mp, kind):
    res = run(mp, """
d = hwsim.display(%r)
m = hwsim.model(d)
d.fill(0)
d.text("AB", 0, 0, 1)
d.show()
buf = bytes(d.buffer)
d.contrast(17)
c = m.contrast
d.invert(True)
inv = hwsim.frame(d)[3] == bytes(b ^ 0xFF for b in buf)
d.invert(False)
d.poweroff()
dark = hwsim.frame(d)[3] == bytes(1024)
state_off = hwsim.display_state(d)
d.poweron()
back = hwsim.frame(d)[3] == buf
print(json.dumps({"c": c, "inv": inv, "dark": dark, "back": back, "off": state_off}))
""" % kind)
    assert res == {"c": 17, "inv": True, "dark": True, "back": True, "off": [17, False]}


@pytest.mark.parametrize("kind", KINDS)
def test_survives_a_lost_display(mp, kind):
    res = run(mp, """
d = hwsim.display(%r)
d.fill(0)
d.text("12", 0, 0, 1)
d.show()
fake_machine.detach_i2c(0, 0x3C)  # wire pulled
d.text("34", 0, 20, 1)
d.show()
d.contrast(40)
errors = d.errors
# plugged back in: a power-cycled module, RAM cleared, display off
m = fake_machine.attach_i2c(0, 0x3C, type(hwsim.model(d))())
hwsim._panels[id(d)] = m
d.show()
print(json.dumps({"errors": errors, "on": m.display_on, "contrast": m.contrast,
                  "same": hwsim.frame(d)[3] == bytes(d.buffer)}))
""" % kind)
    assert res == {"errors": 2, "on": True, "contrast": 40, "same": True}


@pytest.mark.parametrize("kind", KINDS)
def test_show_allocates_nothing(mp, kind):
    res = run(mp, """
class Sink:  # a device that accepts bytes without keeping them
    def i2c_start(self):
        pass
    def i2c_write(self, buf):
        pass
d = hwsim.display(%r)
fake_machine.attach_i2c(0, 0x3C, Sink())
d.show()
d.fill_rect(10, 10, 50, 30, 1)
b = d.bytes_sent
micropython.heap_lock()
try:
    d.show()
    d.pixel(0, 63, 1)
    d.show()
finally:
    micropython.heap_unlock()
print(json.dumps({"sent": d.bytes_sent - b}))
""" % kind)
    assert res["sent"] > 0


def test_ssd1306_model_decodes_every_addressing_mode(mp):
    """The model itself, fed by hand: if it were wrong, the driver tests would prove nothing."""
    res = run(mp, """
m = SSD1306Model()
def cmd(*b):
    m.i2c_start(); m.i2c_write(bytes((0x00,) + b))
def data(b):
    m.i2c_start(); m.i2c_write(b"\\x40" + bytes(b))
out = {}
# page mode (reset default), columns set by nibbles, Co=1 single commands
m.i2c_start(); m.i2c_write(bytes((0x80, 0xB3, 0x80, 0x05, 0x80, 0x12)))
data([1, 2, 3])
out["page"] = list(m.ram[3 * 128 + 0x25:3 * 128 + 0x28])
# page mode wraps within the page
m.i2c_start(); m.i2c_write(bytes((0x80, 0xB5, 0x80, 0x0E, 0x80, 0x17)))
data([7, 8, 9])
out["wrap"] = [m.ram[5 * 128 + 126], m.ram[5 * 128 + 127], m.ram[5 * 128 + 0]]
# horizontal: window columns 10..11, pages 1..2, then wraps to the window start
cmd(0x20, 0x00, 0x21, 10, 11, 0x22, 1, 2)
data([11, 12, 13, 14, 15])
out["horiz"] = [m.ram[128 + 10], m.ram[128 + 11], m.ram[256 + 10], m.ram[256 + 11], m.ram[128 + 10]]
# vertical: pages first
cmd(0x20, 0x01, 0x21, 20, 21, 0x22, 6, 7)
data([21, 22, 23, 24])
out["vert"] = [m.ram[6 * 128 + 20], m.ram[7 * 128 + 20], m.ram[6 * 128 + 21], m.ram[7 * 128 + 21]]
# B0..B7 are ignored outside page mode
cmd(0xB4)
out["page_ignored"] = m.page
# a command split over two transfers still gets its argument
cmd(0x81)
cmd(0x42)
out["contrast"] = m.contrast
cmd(0xFE)
out["problems"] = m.problems
print(json.dumps(out))
""")
    assert res["page"] == [1, 2, 3]
    assert res["wrap"] == [7, 8, 9]
    assert res["horiz"] == [15, 12, 13, 14, 15]
    assert res["vert"] == [21, 22, 23, 24]
    assert res["page_ignored"] == 6
    assert res["contrast"] == 0x42
    assert res["problems"] == ["unknown SSD1306 command 0xfe"]


def test_glass_is_dark_without_charge_pump(mp):
    res = run(mp, """
m = SSD1306Model()
m.i2c_start(); m.i2c_write(bytes((0x00, 0xA1, 0xC8, 0xAF, 0xA5)))  # on, all pixels lit, no pump
before = m.frame() == bytes(1024)
m.i2c_start(); m.i2c_write(bytes((0x00, 0x8D, 0x14)))
after = m.frame() == bytes([255]) * 1024
print(json.dumps([before, after]))
""")
    assert res == [True, True]
