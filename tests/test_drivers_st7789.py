"""ST7789 driver (Pico Display Pack), checked at the glass through a controller model.

The reference picture is computed here in CPython from the 4-bit buffer and
the palette, independently of the driver's palette blit, and compared with
what the ST7789 model says the 240x135 glass shows.
"""
import json
import random

W, H = 240, 135
PRELUDE = """
import json, micropython
from binascii import hexlify, unhexlify
import hwsim, fake_machine
"""


def run(mp, code):
    out = mp(code=PRELUDE + code).stdout.strip().splitlines()
    return json.loads(out[-1])


def rgb565(rgb):
    r, g, b = rgb >> 16, (rgb >> 8) & 0xFF, rgb & 0xFF
    return ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3)


def reference(buf, palette):
    """Big-endian RGB565 of a GS4_HMSB 240x135 buffer (left pixel in the high nibble)."""
    out = bytearray(W * H * 2)
    for y in range(H):
        for x in range(W):
            b = buf[(y * W + x) // 2]
            idx = b >> 4 if x % 2 == 0 else b & 0x0F
            c = rgb565(palette[idx])
            o = (y * W + x) * 2
            out[o] = c >> 8
            out[o + 1] = c & 0xFF
    return bytes(out)


def random_picture(seed):
    rnd = random.Random(seed)
    buf = bytes(rnd.getrandbits(8) for _ in range(W * H // 2))
    palette = [rnd.getrandbits(24) for _ in range(16)]
    return buf, palette


def test_palette_expansion_reaches_the_glass(mp):
    buf, palette = random_picture(7)
    res = run(mp, """
d = hwsim.display("st7789")
for i, rgb in enumerate(%r):
    d.palette(i, rgb)
d.buffer[:] = unhexlify(%r)
d.show()
m = hwsim.model(d)
fmt, w, h, data = hwsim.frame(d)
print(json.dumps({"fmt": fmt, "w": w, "h": h, "glass": hexlify(data).decode(), "problems": m.problems,
                  "caset": [m.xs, m.xe], "raset": [m.ys, m.ye], "madctl": m.madctl, "inv": m.inverted}))
""" % (palette, buf.hex()))
    assert (res["fmt"], res["w"], res["h"]) == ("rgb565", W, H)
    assert bytes.fromhex(res["glass"]) == reference(buf, palette)
    assert res["problems"] == []
    assert res["caset"] == [40, 279] and res["raset"] == [53, 187]  # the Display Pack's window
    assert res["madctl"] & 0x60 == 0x60 and res["inv"]


def test_other_rotation_lands_rotated(mp):
    """MADCTL MV|MY with rows from 52 is Pimoroni's 180-degree set-up: the model agrees."""
    buf, palette = random_picture(8)
    res = run(mp, """
from drivers.st7789 import ST7789
d0 = hwsim.display("st7789")
Pin = fake_machine.Pin
d = ST7789(d0.spi, dc=Pin(16, Pin.OUT), cs=Pin(17, Pin.OUT), backlight=d0.backlight,
           yoff=52, madctl=0xA0)
hwsim._panels[id(d)] = hwsim.model(d0)
for i, rgb in enumerate(%r):
    d.palette(i, rgb)
d.buffer[:] = unhexlify(%r)
d.show()
print(json.dumps(hexlify(hwsim.frame(d)[3]).decode()))
""" % (palette, buf.hex()))
    ref = reference(buf, palette)
    rotated = b"".join(ref[i:i + 2] for i in range(len(ref) - 2, -2, -2))
    assert bytes.fromhex(res) == rotated


def test_wrong_window_offset_shows(mp):
    buf, palette = random_picture(9)
    res = run(mp, """
from drivers.st7789 import ST7789
d0 = hwsim.display("st7789")
Pin = fake_machine.Pin
d = ST7789(d0.spi, dc=Pin(16, Pin.OUT), cs=Pin(17, Pin.OUT), backlight=d0.backlight, xoff=0, yoff=0)
for i, rgb in enumerate(%r):
    d.palette(i, rgb)
d.buffer[:] = unhexlify(%r)
d.show()
print(json.dumps(hexlify(hwsim.model(d0).frame()).decode()))
""" % (palette, buf.hex()))
    assert bytes.fromhex(res) != reference(buf, palette)


def test_only_changed_rows_are_sent(mp):
    rnd = random.Random(3)
    cases = [sorted(rnd.sample(range(H), rnd.randint(0, 12))) for _ in range(20)]
    cases += [[], [0], [134], [10, 11], list(range(30, 50)), [5, 7, 9]]
    res = run(mp, """
d = hwsim.display("st7789")
m = hwsim.model(d)
bus = fake_machine.spi_bus(0)
d.show()
out = []
for k, rows in enumerate(%r):
    for y in rows:
        d.pixel((y * 7 + k) %% 240, y, (d.pixel((y * 7 + k) %% 240, y) + 1) %% 16)
    b, w, px = d.bytes_sent, bus.bytes_written, m.pixels_written
    d.show()
    out.append([d.bytes_sent - b, bus.bytes_written - w, m.pixels_written - px])
d.palette(3, 0x123456)
b = d.bytes_sent
d.show()
print(json.dumps({"out": out, "palette": d.bytes_sent - b}))
""" % (cases,))
    for rows, (sent, on_bus, px) in zip(cases, res["out"]):
        runs = sum(1 for y in rows if y - 1 not in rows)
        assert sent == runs * (5 + 5 + 1) + len(rows) * W * 2, rows  # CASET, RASET, RAMWR + pixels
        assert on_bus == sent
        assert px == len(rows) * W
    assert res["palette"] == 11 + W * H * 2  # a new palette repaints everything, in one window


def test_backlight_contrast_and_power(mp):
    res = run(mp, """
d = hwsim.display("st7789")
m = hwsim.model(d)
d.fill(1)  # default palette entry 1 is white
d.show()
full = hwsim.frame(d)[3][:2]
d.contrast(128)
duty = fake_machine.pwm_duty(20)
half = hwsim.frame(d)[3][:2]
level = hwsim.display_state(d)
d.poweroff()
off = hwsim.frame(d)[3] == bytes(240 * 135 * 2), m.sleeping, fake_machine.pwm_duty(20)
d.poweron()
on = hwsim.frame(d)[3][:2], m.sleeping, hwsim.display_state(d)
print(json.dumps({"full": hexlify(full).decode(), "duty": duty, "half": hexlify(half).decode(),
                  "level": level, "off": off, "on": [hexlify(on[0]).decode(), on[1], on[2]]}))
""")
    assert res["full"] == "ffff"
    assert res["duty"] == 128 * 128 * 65535 // 65025
    white_dimmed = (31 * res["duty"] // 65535 << 11) | (63 * res["duty"] // 65535 << 5) | (31 * res["duty"] // 65535)
    assert int(res["half"], 16) == white_dimmed
    assert res["level"] == [128, True]
    assert res["off"] == [True, True, 0]
    assert res["on"] == [res["half"], False, [128, True]]  # back as it was, still dimmed


def test_glass_needs_inversion_on(mp):
    """The IPS glass shows true colours only with INVON: the model insists, so the driver must send it."""
    res = run(mp, """
d = hwsim.display("st7789")
d.fill(0)  # black
d.show()
a = hexlify(hwsim.frame(d)[3][:2]).decode()
d._command(0x20)  # INVOFF
b = hexlify(hwsim.frame(d)[3][:2]).decode()
print(json.dumps([a, b]))
""")
    assert res == ["0000", "ffff"]


def test_show_allocates_nothing(mp):
    res = run(mp, """
class Sink:
    cs = 17
    def spi_write(self, buf, bus):
        pass
d = hwsim.display("st7789")
fake_machine.spi_bus(0).devices[:] = [Sink()]
d.fill_rect(10, 20, 100, 30, 5)
b = d.bytes_sent
micropython.heap_lock()
try:
    d.show()
    d.text("162", 0, 0, 9)
    d.show()
finally:
    micropython.heap_unlock()
print(json.dumps(d.bytes_sent - b))
""")
    assert res > 30 * W * 2


def test_model_keeps_pixels_split_across_writes(mp):
    """A pixel's two bytes may arrive in separate SPI writes (the chip does not care)."""
    res = run(mp, """
from models.st7789 import ST7789Model
fake_machine.reset_hardware()
m = fake_machine.attach_spi(0, ST7789Model(dc=16, cs=17))
Pin = fake_machine.Pin
dc, cs = Pin(16, Pin.OUT), Pin(17, Pin.OUT, value=0)
spi = fake_machine.SPI(0, sck=18, mosi=19)
def cmd(c, args=b""):
    dc(0); spi.write(bytes([c])); dc(1)
    if args:
        spi.write(args)
cmd(0x11); cmd(0x29); cmd(0x21); cmd(0x3A, b"\\x55"); cmd(0x36, b"\\x60")
cmd(0x2A, bytes([0, 40, 0, 41])); cmd(0x2B, bytes([0, 53, 0, 53]))
cmd(0x2C)
spi.write(b"\\x12"); spi.write(b"\\x34\\x56"); spi.write(b"\\x78")
f = m.frame()
cs(1)
spi.write(b"\\xff\\xff")  # not selected: ignored
print(json.dumps([m.pixel(0, 0, f), m.pixel(1, 0, f), m.pixel(0, 0), m.problems]))
""")
    assert res == [0x1234, 0x5678, 0x1234, []]
