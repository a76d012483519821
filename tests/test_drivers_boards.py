"""Board files on fake hardware (hwsim), and the fake `machine` they run on."""
import json
import os

import pytest

from conftest import BOARDS

BOARD_NAMES = ("pico_oled", "pico_display_pack", "pico_w_oled", "pico_w_display_pack")
WIFI_BOARD_NAMES = ("pico_w_oled", "pico_w_display_pack")
CYW43_PINS = {23, 24, 25, 29}  # the Pico W's WiFi chip: power, data, chip select, clock
PRELUDE = """
import json
import hwsim, fake_machine

class Clock:
    now = 1000
    def ticks_ms(self):
        return self.now
    def sleep_ms(self, ms):
        self.now += ms
"""


def run(mp, code):
    out = mp(code=PRELUDE + code).stdout.strip().splitlines()
    return json.loads(out[-1])


@pytest.mark.parametrize("name", BOARD_NAMES)
def test_board_follows_the_interface(mp, name):
    res = run(mp, """
clock = Clock()
b = hwsim.load(%r, clock)
d = b.display
out = {"NAME": b.NAME, "LAYOUT": b.LAYOUT, "STORAGE": b.STORAGE, "DRIVERS": list(b.DRIVERS),
       "size": [d.width, d.height], "n_buttons": len(b.buttons)}
out["idle"] = [f() for f in b.buttons]
presses = []
for i in range(4):
    hwsim.set_button(b, i, True)
    presses.append([f() for f in b.buttons])
    hwsim.set_button(b, i, False)
out["presses"] = presses
out["released"] = [f() for f in b.buttons]
clock.now = 5000
out["ticks"] = b.ticks_ms()
b.sleep_ms(25)
out["slept"] = clock.now
b.click()
for m in ("show", "contrast", "poweroff", "poweron", "fill", "text"):
    out[m] = callable(getattr(d, m))
d.fill(0)
d.text("Eux 80", 0, 0, 1)
d.show()
fmt, w, h, data = hwsim.frame(b)
out["frame"] = [fmt, w, h, len(data), any(data)]
out["problems"] = hwsim.problems(b)
print(json.dumps(out))
""" % name)
    assert res["NAME"] == name
    assert res["LAYOUT"] == "%dx%d" % tuple(res["size"])
    assert res["STORAGE"] == ["/data_a", "/data_b"]
    assert res["n_buttons"] == 4
    assert res["idle"] == [False] * 4 and res["released"] == [False] * 4
    assert res["presses"] == [[i == j for j in range(4)] for i in range(4)]
    assert res["ticks"] == 5000 and res["slept"] == 5025
    assert all(res[m] for m in ("show", "contrast", "poweroff", "poweron", "fill", "text"))
    fmt = "mono" if res["LAYOUT"] == "128x64" else "rgb565"
    w, h = res["size"]
    assert res["frame"] == [fmt, w, h, w * h // 8 if fmt == "mono" else w * h * 2, True]
    assert res["problems"] == []
    for drv in res["DRIVERS"]:
        assert os.path.exists(os.path.join(BOARDS, "..", "firmware", "drivers", drv + ".py"))


def _board_pins(name):
    """Every GPIO number the board's constants name (a Pico W board's own over its Pico board's)."""
    from host_tools.common.boards import board_constants

    pins = set()
    for key, value in board_constants(name, BOARDS).items():
        if key in ("SDA", "SCL", "BUZZER", "SCK", "MOSI", "CS", "DC", "BACKLIGHT", "BUTTON_PINS", "LED_PINS"):
            pins |= set(value) if isinstance(value, tuple) else ({value} if value is not None else set())
    return pins


@pytest.mark.parametrize("name", WIFI_BOARD_NAMES)
def test_pico_w_boards_have_wifi_and_keep_off_its_pins(mp, name):
    res = run(mp, """
b = hwsim.load(%r, Clock())
print(json.dumps({"WIFI": b.WIFI, "PORT_BOARD": b.PORT_BOARD}))
""" % name)
    assert res == {"WIFI": True, "PORT_BOARD": "RPI_PICO_W"}
    pins = _board_pins(name)
    assert len(pins) >= 6 and not (pins & CYW43_PINS)


@pytest.mark.parametrize("name", ("pico_oled", "pico_display_pack"))
def test_pico_boards_have_no_wifi(mp, name):
    res = run(mp, """
b = hwsim.load(%r, Clock())
print(json.dumps({"WIFI": getattr(b, "WIFI", False)}))
""" % name)
    assert res == {"WIFI": False}


def _board_copy(tmp_path, name, **options):
    """boards/<name>.py with some of its option lines changed."""
    with open(os.path.join(BOARDS, name + ".py")) as f:
        lines = f.read().split("\n")
    for key, value in options.items():
        hits = [i for i, line in enumerate(lines) if line.startswith(key + " = ")]
        assert len(hits) == 1, key
        lines[hits[0]] = "%s = %r" % (key, value)
    (tmp_path / (name + ".py")).write_text("\n".join(lines))
    return str(tmp_path)


def test_pico_oled_controller_switch(mp, tmp_path):
    boards = _board_copy(tmp_path, "pico_oled", CONTROLLER="sh1106", BUZZER=15)
    res = run(mp, """
b = hwsim.load("pico_oled", Clock(), boards=%r)
m = hwsim.model(b)
b.display.fill(0)
b.display.fill_rect(0, 0, 10, 10, 1)
b.display.show()
buzz = fake_machine.pwm_duty(15)
print(json.dumps({"driver": type(b.display).__name__, "model": type(m).__name__,
                  "same": hwsim.frame(b)[3] == bytes(b.display.buffer), "problems": m.problems,
                  "buzzer_idle": buzz}))
""" % boards)
    assert res == {"driver": "SH1106", "model": "SH1106Model", "same": True, "problems": [], "buzzer_idle": 0}


def test_pico_oled_on_another_bus(mp, tmp_path):
    boards = _board_copy(tmp_path, "pico_oled", I2C_ID=1, SDA=26, SCL=27, OLED_ADDR=0x3D)
    res = run(mp, """
b = hwsim.load("pico_oled", Clock(), boards=%r)
b.display.fill(1)
b.display.show()
print(json.dumps([fake_machine.i2c_bus(1).devices[0x3D] is hwsim.model(b), hwsim.frame(b)[3] == bytes([255]) * 1024]))
""" % boards)
    assert res == [True, True]


def test_display_pack_pins(mp):
    """Buttons by their silk-screen letters, the LED active low, the backlight on GP20."""
    res = run(mp, """
b = hwsim.load("pico_display_pack", Clock())
out = {}
for letter, gp in (("A", 12), ("B", 13), ("X", 14), ("Y", 15)):
    fake_machine.drive(gp, 0)
    out[letter] = [f() for f in b.buttons].index(True)
    fake_machine.drive(gp, None)
b.led(0, 65535, 0)
out["led"] = [fake_machine.pwm_duty(p) for p in (6, 7, 8)]
b.led(0, 0, 0)
out["led_off"] = [fake_machine.level(p) for p in (6, 7, 8)]
out["backlight"] = fake_machine.pwm_duty(20)
print(json.dumps(out))
""")
    assert [res[k] for k in "ABXY"] == [0, 1, 2, 3]  # UP, DOWN, OK, BACK
    assert res["led"] == [65535, 0, 65535]  # green lit = its cathode pin held low
    assert res["led_off"] == [1, 1, 1]
    assert res["backlight"] == 65535


def test_fake_machine_checks_pins_like_the_rp2040(mp):
    res = run(mp, """
from fake_machine import I2C, SPI, Pin
out = []
for make in (lambda: I2C(0, sda=Pin(5), scl=Pin(4)), lambda: I2C(1, sda=4, scl=5), lambda: I2C(2),
             lambda: SPI(0, sck=10, mosi=11), lambda: SPI(1, sck=10, mosi=19), lambda: Pin(48)):
    try:
        make()
        out.append("ok")
    except ValueError as e:
        out.append(str(e))
I2C(1, sda=Pin(2), scl=Pin(3))
SPI(1, sck=Pin(14), mosi=Pin(15))
print(json.dumps(out))
""")
    assert "ok" not in res
    assert res[0] == "bad SDA pin" and res[3] == "bad SCK pin"


def test_fake_pins_pulls_drive_and_interrupts(mp):
    res = run(mp, """
from fake_machine import Pin, PWM, drive, level
fake_machine.reset_hardware()
seen = []
p = Pin(10, Pin.IN, Pin.PULL_UP)
p.irq(lambda pin: seen.append(pin.value()), Pin.IRQ_FALLING)
out = [p.value()]
drive(10, 0); out.append(p.value())
drive(10, None); out.append(p.value())
q = Pin(11, Pin.IN)  # no pull: floats low here
out.append(q.value())
o = Pin(12, Pin.OUT, value=1); out.append(level(12))
o.off(); out.append(Pin(12).value())
od = Pin(13, Pin.OPEN_DRAIN, Pin.PULL_UP, value=1); out.append(level(13))
drive(13, 0); out.append(od.value())
pwm = PWM(Pin(14), freq=2000, duty_u16=1000)
out.append(fake_machine.pwm_duty(14))
pwm.deinit(); out.append(fake_machine.pwm_duty(14))
print(json.dumps({"levels": out, "irq": seen}))
""")
    assert res == {"levels": [1, 0, 1, 0, 1, 0, 1, 0, 1000, None], "irq": [0]}


def test_i2c_without_device_raises_like_a_nak(mp):
    res = run(mp, """
from fake_machine import I2C
fake_machine.reset_hardware()
i2c = I2C(0, sda=4, scl=5)
try:
    i2c.writeto(0x3C, b"\\x00\\xaf")
    print(json.dumps("no error"))
except OSError as e:
    print(json.dumps([e.args[0], i2c.scan()]))
""")
    assert res == [5, []]


@pytest.mark.parametrize("name, base", [("pico_w_oled", "pico_oled"), ("pico_w_display_pack", "pico_display_pack")])
def test_a_pico_w_board_is_its_pico_board_plus_what_differs(name, base):
    """The W board file builds on the Pico's (`from pico_oled import *`): the same pins,
    display and buttons, its own port board, name and WiFi; nothing else of its own."""
    from host_tools.common.boards import board_bases, board_constants

    assert board_bases(name, BOARDS) == [base]
    own, pico = board_constants(name, BOARDS), board_constants(base, BOARDS)
    assert {key for key in own if own[key] != pico.get(key)} == {"PORT_BOARD", "NAME", "WIFI"}
    assert own["NAME"] == name and own["WIFI"] is True


def test_a_pico_w_board_loads_after_its_pico_board_with_its_own_display(mp):
    """In one process (the simulator's, a test's), the W board loaded after its Pico board
    gets a Pico board of its own, on the fake hardware of its own load."""
    res = run(mp, """
a = hwsim.load("pico_oled", Clock())
b = hwsim.load("pico_w_oled", Clock())
print(json.dumps({"a": a.NAME, "b": b.NAME, "same_display": a.display is b.display, "wifi": b.WIFI}))
""")
    assert res == {"a": "pico_oled", "b": "pico_w_oled", "same_display": False, "wifi": True}
