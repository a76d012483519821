"""A board for driving the real App inside one MicroPython process (fuzz, power
cuts, bench): a plain 128x64 framebuffer, buttons read from a byte array, and a
clock that only moves when told. The simulator's board (boards/sim.py) is the
same idea talking to a host process; this one is for tests that stay in-process.
"""
import framebuf


class Display(framebuf.FrameBuffer):
    def __init__(self):
        self.buf = bytearray(128 * 64 // 8)
        self.buffer = self.buf
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)
        self.width = 128
        self.height = 64
        self.shows = 0

    def show(self):
        self.shows += 1

    def contrast(self, v):
        pass

    def poweroff(self):
        pass

    def poweron(self):
        pass


class Board:
    """pressed[i] != 0 while button i (UP, DOWN, OK, BACK) is down; now is the clock."""

    NAME = "fake"
    LAYOUT = "128x64"

    def __init__(self, storage="/flash/data", now=1000):
        self.STORAGE = storage
        self.display = Display()
        self.pressed = bytearray(4)
        p = self.pressed
        self.buttons = (lambda: p[0] != 0, lambda: p[1] != 0, lambda: p[2] != 0, lambda: p[3] != 0)
        self.now = now
        self.app = None

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms

    def click(self):
        pass


class ColourDisplay(framebuf.FrameBuffer):
    """The Display Pack's 240x135 screen as the colour layout draws on it: 4-bit colour
    indices (GS4_HMSB); the palette it sets is accepted and not kept."""

    def __init__(self):
        self.buf = bytearray(240 * 135 // 2)
        super().__init__(self.buf, 240, 135, framebuf.GS4_HMSB)
        self.width = 240
        self.height = 135

    def show(self):
        pass

    def contrast(self, v):
        pass

    def palette(self, i, rgb):
        pass


class ColourBoard(Board):
    """The same board with the colour screen, drawn by the 240x135 layout."""

    LAYOUT = "240x135"

    def __init__(self, storage="/flash/data", now=1000):
        Board.__init__(self, storage, now)
        self.display = ColourDisplay()
