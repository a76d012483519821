"""SSD1306 / SH1106 drivers, checked at the glass through a controller model.

The driver runs on the MicroPython unix port and talks to the fake I2C bus
of host_tools/sim/device_side/fake_machine.py; the model behind the bus decodes the bytes
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


def windows(kind, spans):
    """The windows the driver should open, spans = {page: (first, last) changed column}:
    SH1106 one per page with its own span; SSD1306 one per run of consecutive pages
    with the union of their spans, a page starting a window of its own when that costs
    fewer bytes than widening the run's.  Each is (pages, first, last)."""
    if kind == "sh1106":
        return [([p], first, last) for p, (first, last) in sorted(spans.items())]
    out = []
    for p in sorted(spans):
        first, last = spans[p]
        if out and p - 1 == out[-1][0][-1]:
            pages, run_first, run_last = out[-1]
            wider = (min(run_first, first), max(run_last, last))
            widening = (len(pages) + 1) * (wider[1] - wider[0] + 2) - len(pages) * (run_last - run_first + 2)
            if widening <= 7 + last - first + 2:
                out[-1] = (pages + [p],) + wider
                continue
        out.append(([p], first, last))
    return out


def window_cost(kind, spans):
    """Bytes on the bus: the window's commands (SH1106: page, column low, column high;
    SSD1306: 0x21 and 0x22 with their arguments), then per page a control byte and
    the window's columns."""
    command = 4 if kind == "sh1106" else 7
    return sum(command + len(pages) * (1 + last - first + 1) for pages, first, last in windows(kind, spans))


def ram_writes(kind, spans):
    return sum(len(pages) * (last - first + 1) for pages, first, last in windows(kind, spans))


def full_frame(kind):
    return window_cost(kind, {p: (0, 127) for p in range(8)})


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
    assert res["full"] == full_frame(kind)
    for pages, (sent, on_bus, ram, ok) in zip(cases, res["out"]):
        spans = {p: ((p * 37) % 128, (p * 37) % 128) for p in pages}
        assert ok
        assert sent == window_cost(kind, spans), pages
        assert on_bus == sent  # the driver's own count is what crossed the bus
        assert ram == ram_writes(kind, spans)


STEP = """
def step(d, m, draw):
    \"\"\"Draw, show, and say what it cost and whether the glass is the framebuffer.\"\"\"
    bus = fake_machine.i2c_bus(0)
    before = bytes(d.buffer)
    draw(d)
    spans = {}
    for p in range(8):
        cols = [x for x in range(128) if d.buffer[p * 128 + x] != before[p * 128 + x]]
        if cols:
            spans[p] = (cols[0], cols[-1])
    b, w, n = d.bytes_sent, bus.bytes_written, m.data_bytes
    d.show()
    return {"spans": spans, "sent": d.bytes_sent - b, "bus": bus.bytes_written - w,
            "ram": m.data_bytes - n, "glass": hwsim.frame(d)[3] == bytes(d.buffer)}
d = hwsim.display(%r)
m = hwsim.model(d)
d.fill(0)
d.text("Nous 162", 8, 16, 1)
d.show()
"""


def steps(mp, kind, draws):
    """Run the draws one show() each; the spans are read from the framebuffer itself."""
    res = run(mp, STEP % kind + "out = []\n" + "".join(
        "out.append(step(d, m, lambda d: %s))\n" % draw for draw in draws) + "print(json.dumps(out))\n")
    for r in res:
        r["spans"] = {int(p): tuple(span) for p, span in r["spans"].items()}
    return res


@pytest.mark.parametrize("kind", KINDS)
def test_one_changed_character_sends_only_its_columns(mp, kind):
    # "162" becomes "163": the last digit's cell is columns 64..71 of page 2
    (res,) = steps(mp, kind, ['(d.fill_rect(64, 16, 8, 8, 0), d.text("3", 64, 16, 1))'])
    assert list(res["spans"]) == [2]
    first, last = res["spans"][2]
    assert 64 <= first <= last <= 71
    assert res["sent"] == window_cost(kind, res["spans"]) < 20
    assert res["bus"] == res["sent"]
    assert res["ram"] == last - first + 1
    assert res["glass"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_change_at_column_0_then_at_column_127(mp, kind):
    res = steps(mp, kind, ["d.pixel(0, 30, 1)", "d.pixel(127, 50, 1)"])
    assert [r["spans"] for r in res] == [{3: (0, 0)}, {6: (127, 127)}]
    for r in res:
        assert r["sent"] == window_cost(kind, r["spans"])
        assert r["ram"] == 1
        assert r["glass"]


@pytest.mark.parametrize("kind", KINDS)
def test_two_pages_with_close_spans(mp, kind):
    # a word across pages 4 and 5: SSD1306 one window, columns 40..52 of both pages
    (res,) = steps(mp, kind, ["(d.hline(40, 38, 11, 1), d.hline(41, 41, 12, 1))"])
    assert res["spans"] == {4: (40, 50), 5: (41, 52)}
    expected = 7 + 2 * (1 + 13) if kind == "ssd1306" else (4 + 1 + 11) + (4 + 1 + 12)
    assert res["sent"] == window_cost(kind, res["spans"]) == expected
    assert res["ram"] == (2 * 13 if kind == "ssd1306" else 11 + 12)
    assert res["glass"]


@pytest.mark.parametrize("kind", KINDS)
def test_two_pages_with_distant_spans(mp, kind):
    # column 10 on page 1, columns 95..100 on page 2: widening one window to 10..100
    # would cost 180 bytes more; SSD1306 opens a second window (7 bytes) instead
    (res,) = steps(mp, kind, ["(d.pixel(10, 12, 1), d.vline(95, 17, 3, 1), d.pixel(100, 20, 1))"])
    assert res["spans"] == {1: (10, 10), 2: (95, 100)}
    expected = (7 + 1 + 1) + (7 + 1 + 6) if kind == "ssd1306" else (4 + 1 + 1) + (4 + 1 + 6)
    assert res["sent"] == window_cost(kind, res["spans"]) == expected
    assert res["ram"] == 1 + 6
    assert res["glass"]


@pytest.mark.parametrize("kind", KINDS)
def test_after_a_failed_transfer_every_column_is_sent_again(mp, kind):
    res = run(mp, STEP % kind + """
fake_machine.detach_i2c(0, 0x3C)
d.pixel(5, 5, 1)
d.show()  # fails: counted, the next show starts over
m = fake_machine.attach_i2c(0, 0x3C, type(m)())
hwsim._panels[id(d)] = m
d.show()
print(json.dumps({"errors": d.errors, "ram": m.data_bytes, "glass": hwsim.frame(d)[3] == bytes(d.buffer)}))
""")
    assert res == {"errors": 1, "ram": 1024, "glass": True}


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
