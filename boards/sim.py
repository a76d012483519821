"""The simulator board: the Pico OLED board as the unix port can host it.

Nothing here talks to hardware or to the host directly; the launcher
(host_tools/sim/device_side/sim_main.py) binds its virtual clock and frame sink with
bind(), and sets buttons with set_button(). Keeping the board this thin
means the firmware under test sees exactly the board interface.
"""
import framebuf
from micropython import const

NAME = "sim"
LAYOUT = "128x64"
STORAGE = "/data_a"  # one copy of the journal, for simple apps; the app takes both from store.partitions

WIDTH = const(128)
HEIGHT = const(64)

app = None  # set by the App; the launcher reads app.screen and app.state_json()


class _Unbound:
    """Stands in for the clock until the launcher binds one: a clear error, not None."""

    def ticks_ms(self):
        raise RuntimeError("boards/sim.py runs under host_tools/sim/device_side/sim_main.py")

    def sleep_ms(self, ms):
        self.ticks_ms()


_clock = _Unbound()  # launcher clock: .ticks_ms(), .sleep_ms(ms)
_sink = None  # called with the frame buffer on every show()
_pressed = bytearray(4)  # UP, DOWN, OK, BACK: 1 while held


class Display(framebuf.FrameBuffer):
    """128x64 MONO_VLSB, like an SSD1306/SH1106 page layout."""

    def __init__(self):
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.width = WIDTH
        self.height = HEIGHT
        self.level = 255  # last contrast()
        self.on = True  # False after poweroff()
        self.shows = 0

    def show(self):
        self.shows += 1
        if _sink is not None:
            _sink(self.buffer)

    def contrast(self, level):
        self.level = 0 if level < 0 else 255 if level > 255 else level

    def poweroff(self):
        self.on = False

    def poweron(self):
        self.on = True


display = Display()

buttons = (
    lambda: _pressed[0] != 0,
    lambda: _pressed[1] != 0,
    lambda: _pressed[2] != 0,
    lambda: _pressed[3] != 0,
)

clicks = 0


def click():
    global clicks
    clicks += 1


def ticks_ms():
    return _clock.ticks_ms()


def sleep_ms(ms):
    _clock.sleep_ms(ms)


def bind(clock, sink):
    global _clock, _sink
    _clock = clock
    _sink = sink


def set_button(index, down):
    _pressed[index] = 1 if down else 0
