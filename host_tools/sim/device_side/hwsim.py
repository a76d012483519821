"""Run a real board file, with its real drivers, on fake hardware.

The simulator (sim_main.py) calls load() for every board except "sim": the
board file imports host_tools/sim/device_side/fake_machine.py as `machine`, its display
driver talks to a controller model over a fake bus, and what the simulator
shows is what that model says the glass shows.  So the simulator exercises
the init sequence, the dirty-page logic and the pin map that go to the Pico.

Tests use the same hooks to check rendering through a real driver:

    import hwsim
    d = hwsim.display("sh1106")        # driver + model on a fresh fake bus
    d.text("12", 0, 0, 1); d.show()
    fmt, w, h, data = hwsim.frame(d)   # the glass, after the bus
    hwsim.problems(d)                  # [] unless the driver did something odd

Models are found by the object they serve (a board module or a driver),
one bench at a time: load() and display() start from unpowered hardware.
"""
import math
import sys

import fake_machine
from models.ssd1306 import SH1106Model, SSD1306Model
from models.st7789 import H as ST7789_H
from models.st7789 import W as ST7789_W
from models.st7789 import ST7789Model


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else ("/" if i == 0 else ".")


_HERE = _dirname(__file__)
ROOT = _HERE + "/../../.."
BOARDS = ROOT + "/boards"
FIRMWARE = ROOT + "/firmware"

_I2C_ADDRS = (0x3C, 0x3D)  # where 128x64 OLED modules answer
_OLED_MODELS = {"ssd1306": SSD1306Model, "sh1106": SH1106Model}

_panels = {}  # id(board module or driver) -> controller model


class _Unresolved:
    """An OLED module whose controller is not known until the board says.

    The board file creates its display while it is imported, and only then
    does its CONTROLLER tell which chip the builder has.  Until then the
    module's transfers are kept, then replayed into the right model: the
    model sees the very byte stream the driver sent."""

    def __init__(self):
        self.transfers = []

    def i2c_start(self):
        self.transfers.append(bytearray())

    def i2c_write(self, chunk):
        self.transfers[-1].extend(chunk)

    def i2c_read(self, n):
        return bytes(n)


def _install_machine():
    fake_machine.reset_hardware()
    sys.modules["machine"] = fake_machine
    if FIRMWARE not in sys.path:
        sys.path.append(FIRMWARE)


def _bench_display_pack():
    """Pimoroni Pico Display Pack: ST7789 on SPI0, D/C GP16, CS GP17, backlight GP20."""
    return fake_machine.attach_spi(0, ST7789Model(dc=16, cs=17, backlight=20))


# Boards whose panel is soldered to fixed pins: the model goes on before import.
BENCHES = {"pico_display_pack": _bench_display_pack, "pico_w_display_pack": _bench_display_pack}


def load(name, clock=None, boards=None):
    """Import boards/<name>.py on fake hardware and return the module.

    clock: an object with ticks_ms() and sleep_ms(ms) that replace the
    board's own (the simulator's virtual clock), or None to keep them.
    boards: another folder to take the board file from (tests use a copy
    with other options)."""
    boards = boards or BOARDS
    _install_machine()
    bench = BENCHES.get(name)
    panel = bench() if bench else None
    pending = []
    if panel is None:
        for bus in (0, 1):
            for addr in _I2C_ADDRS:
                u = _Unresolved()
                fake_machine.attach_i2c(bus, addr, u)
                pending.append((bus, addr, u))
    for module in [m for m in sys.modules if m == name or m.startswith("pico_")]:
        sys.modules.pop(module)  # the board afresh, and the Pico board a Pico W board builds on
    sys.path.insert(0, boards)
    try:
        __import__(name)
    finally:
        sys.path.remove(boards)
    board = sys.modules[name]
    for bus, addr, u in pending:
        fake_machine.detach_i2c(bus, addr)
        if u.transfers:
            kind = getattr(board, "CONTROLLER", "ssd1306")
            panel = fake_machine.attach_i2c(bus, addr, _OLED_MODELS[kind]())
            for t in u.transfers:
                panel.i2c_start()
                panel.i2c_write(t)
    if panel is None:
        raise ValueError("hwsim: board %r drove no display it knows" % name)
    _panels[id(board)] = panel
    _panels[id(board.display)] = panel
    if clock is not None:
        board.ticks_ms = clock.ticks_ms
        board.sleep_ms = clock.sleep_ms
    return board


def display(kind):
    """A real driver on a fresh fake bus with its controller model."""
    _install_machine()
    if kind in _OLED_MODELS:
        from drivers.ssd1306 import SH1106, SSD1306

        panel = fake_machine.attach_i2c(0, 0x3C, _OLED_MODELS[kind]())
        i2c = fake_machine.I2C(0, sda=4, scl=5, freq=400_000)
        d = SSD1306(i2c) if kind == "ssd1306" else SH1106(i2c)
    elif kind == "st7789":
        from drivers.st7789 import ST7789

        panel = _bench_display_pack()
        Pin = fake_machine.Pin
        spi = fake_machine.SPI(0, 62_500_000, sck=18, mosi=19)
        bl = fake_machine.PWM(Pin(20), freq=1000)
        d = ST7789(spi, dc=Pin(16, Pin.OUT), cs=Pin(17, Pin.OUT), backlight=bl)
    else:
        raise ValueError("hwsim: no display %r" % kind)
    _panels[id(d)] = panel
    return d


def model(obj):
    """The controller model behind a board module or a driver."""
    return _panels[id(obj)]


def problems(obj):
    """What the model could not show faithfully ([] when all is well)."""
    return model(obj).problems


def frame(obj):
    """(fmt, w, h, bytes) of what the glass shows.

    'mono': MONO_VLSB 128x64; 'rgb565': big-endian RGB565, w*h*2 bytes."""
    p = model(obj)
    if isinstance(p, ST7789Model):
        return ("rgb565", ST7789_W, ST7789_H, p.frame())
    return ("mono", p.WIDTH, p.HEIGHT, p.frame())


def display_state(board):
    """(level 0..255, on) as the eye sees it: contrast register or backlight."""
    p = model(board)
    if isinstance(p, ST7789Model):
        on = p.display_on and not p.sleeping
        # Back from the square law the driver applies to the backlight.
        duty = p.brightness()
        level = min(255, int(math.sqrt(duty * 65025 / 65535) + 0.5))
        return (level, on and duty > 0)
    return (p.contrast, p.display_on)


def set_button(board, index, down):
    """Press (down=True) or release button index (0..3 = UP, DOWN, OK, BACK)."""
    fake_machine.drive(board.BUTTON_PINS[index], 0 if down else None)
