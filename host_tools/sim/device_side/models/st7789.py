"""ST7789 controller model with the Pimoroni Pico Display Pack's glass.

SPI bytes are commands while the D/C wire is low and parameters or pixel
data while it is high; the model reads that wire (and chip select) on the
fake machine, as the chip does.  RAMWR data lands at the write pointer,
which walks the CASET/RASET window and is mapped to the 240x320 RAM by
MADCTL (MV exchanges the axes, MX mirrors columns, MY mirrors rows).

The glass: 135x240 pixels on RAM columns 52..186, rows 40..279.  "Upright
landscape" is defined as Pimoroni's default orientation (MADCTL MV|MX with
the window at column 40, row 53), so glass pixel (vx, vy) shows RAM row
40 + vx, column 186 - vy.  Only the visible part of RAM is stored: the
rest cannot be seen whatever MADCTL says later.

The panel is IPS: it shows true colours only with inversion on (INVON).
Backlight brightness is read from the backlight pin (PWM duty or level).
"""
import fake_machine

RAM_COLS = 240
RAM_ROWS = 320
GLASS_COL0 = 52
GLASS_ROW0 = 40
W = 240  # landscape glass
H = 135

_PARAMS = {  # parameter counts, for the commands this model acts on
    0x2A: 4, 0x2B: 4, 0x36: 1, 0x3A: 1,
}
_KNOWN = (
    0x00, 0x01, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x26, 0x28, 0x29, 0x2A, 0x2B,
    0x2C, 0x30, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3C, 0x44, 0x51,
    0x53, 0x55, 0x5E, 0xB0, 0xB1, 0xB2, 0xB3, 0xB7, 0xBB, 0xC0, 0xC2, 0xC3, 0xC4,
    0xC5, 0xC6, 0xC7, 0xCC, 0xD0, 0xD2, 0xD6, 0xE0, 0xE1, 0xE4, 0xE7, 0xE8, 0xE9,
)


class ST7789Model:
    def __init__(self, dc, cs=None, backlight=None):
        self.dc = dc
        self.cs = cs
        self.backlight = backlight
        self.glass = bytearray(W * H * 2)  # big-endian RGB565, as received
        self.problems = []
        self.commands = 0
        self.pixels_written = 0
        self.version = 0
        self._cache_key = None
        self._cache = b""
        self.reset()

    def reset(self):
        """Hardware or software reset: registers to defaults, RAM kept."""
        self.sleeping = True
        self.display_on = False
        self.inverted = False
        self.madctl = 0
        self.colmod = 0x66  # 18 bits per pixel after reset
        self.xs, self.xe = 0, RAM_COLS - 1
        self.ys, self.ye = 0, RAM_ROWS - 1
        self.x, self.y = 0, 0
        self._op = None
        self._params = bytearray(0)
        self._writing = False
        self._half = -1  # first byte of a pixel whose second byte is pending
        self.version += 1

    # -- the bus ----------------------------------------------------------
    def spi_write(self, buf, bus):
        if bus.polarity != bus.phase:
            self._note("SPI mode %d: the ST7789 samples in mode 0 or 3" % (bus.polarity * 2 + bus.phase))
        if fake_machine.level(self.dc) == 0:
            for i in range(len(buf)):
                self._command(buf[i])
        elif self._writing:
            self._ram_data(buf)
        else:
            for i in range(len(buf)):
                self._param(buf[i])
        self.version += 1

    def _note(self, text):
        if text not in self.problems:
            self.problems.append(text)

    def _command(self, op):
        self.commands += 1
        self._op = op
        self._params = bytearray(0)
        self._writing = False
        self._half = -1
        if op not in _KNOWN:
            self._note("unknown ST7789 command 0x%02x" % op)
        elif op == 0x01:
            self.reset()
        elif op == 0x10:
            self.sleeping = True
        elif op == 0x11:
            self.sleeping = False
        elif op == 0x20:
            self.inverted = False
        elif op == 0x21:
            self.inverted = True
        elif op == 0x28:
            self.display_on = False
        elif op == 0x29:
            self.display_on = True
        elif op == 0x2C:
            self.x, self.y = self.xs, self.ys
            self._writing = True
        elif op == 0x3C:
            self._writing = True  # memory write continue: pointer kept

    def _param(self, b):
        op = self._op
        if op is None:
            return
        self._params.append(b)
        p = self._params
        if len(p) != _PARAMS.get(op, -1):
            return
        if op == 0x2A:
            self.xs, self.xe = (p[0] << 8) | p[1], (p[2] << 8) | p[3]
        elif op == 0x2B:
            self.ys, self.ye = (p[0] << 8) | p[1], (p[2] << 8) | p[3]
        elif op == 0x36:
            self.madctl = p[0]
        elif op == 0x3A:
            self.colmod = p[0]

    # -- RAM --------------------------------------------------------------
    def _glass_index(self, x, y):
        """Byte offset in `glass` of logical pointer (x, y), or -1 if unseen."""
        m = self.madctl
        if m & 0x20:
            c, r = y, x
        else:
            c, r = x, y
        if m & 0x40:
            c = RAM_COLS - 1 - c
        if m & 0x80:
            r = RAM_ROWS - 1 - r
        vx = r - GLASS_ROW0
        vy = GLASS_COL0 + H - 1 - c
        if 0 <= vx < W and 0 <= vy < H:
            return (vy * W + vx) * 2
        return -1

    def _ram_data(self, buf):
        if self.colmod & 0x07 != 0x05:
            self._note("COLMOD 0x%02x: only 16-bit pixels are modelled" % self.colmod)
            return
        n = len(buf)
        i = 0
        if self._half >= 0 and n:
            self._put(self._half, buf[0])
            self._half = -1
            i = 1
        glass = self.glass
        while n - i >= 2:
            # A run along x inside the window, copied at once when it maps to
            # consecutive glass pixels (the usual landscape set-up).
            run = min((n - i) // 2, self.xe - self.x + 1)
            if run <= 0:
                run = 1
            a = self._glass_index(self.x, self.y)
            b = self._glass_index(self.x + run - 1, self.y) if run > 1 else a
            if a >= 0 and b == a + (run - 1) * 2:
                glass[a:a + run * 2] = buf[i:i + run * 2]
                self.pixels_written += run
                self.x += run - 1
                self._advance()
                i += run * 2
            else:
                self._put(buf[i], buf[i + 1])
                i += 2
        if i < n:
            self._half = buf[i]

    def _put(self, hi, lo):
        o = self._glass_index(self.x, self.y)
        if o >= 0:
            self.glass[o] = hi
            self.glass[o + 1] = lo
        self.pixels_written += 1
        self._advance()

    def _advance(self):
        if self.x < self.xe:
            self.x += 1
            return
        self.x = self.xs
        self.y = self.y + 1 if self.y < self.ye else self.ys

    # -- what the eye sees --------------------------------------------------
    def brightness(self):
        """Backlight, 0..65535."""
        if self.backlight is None:
            return 65535
        d = fake_machine.pwm_duty(self.backlight)
        if d is None:
            return 65535 if fake_machine.level(self.backlight) else 0
        return d

    def frame(self):
        """The glass as big-endian RGB565 bytes, 240x135, landscape."""
        key = (self.version, self.brightness())
        if key != self._cache_key:
            self._cache = bytes(self._render())
            self._cache_key = key
        return self._cache

    def _render(self):
        light = self.brightness()
        if self.sleeping or not self.display_on or light == 0:
            return bytes(len(self.glass))
        if self.inverted and not self.madctl & 0x08 and light == 65535:
            return self.glass
        out = bytearray(self.glass)
        flip = 0 if self.inverted else 0xFFFF  # IPS glass: INVOFF inverts
        bgr = self.madctl & 0x08
        for i in range(0, len(out), 2):
            c = ((out[i] << 8) | out[i + 1]) ^ flip
            r, g, b = c >> 11, (c >> 5) & 0x3F, c & 0x1F
            if bgr:
                r, b = b, r
            if light != 65535:
                r = r * light // 65535
                g = g * light // 65535
                b = b * light // 65535
            c = (r << 11) | (g << 5) | b
            out[i] = c >> 8
            out[i + 1] = c & 0xFF
        return out

    def pixel(self, x, y, frame=None):
        f = frame if frame is not None else self.frame()
        o = (y * W + x) * 2
        return (f[o] << 8) | f[o + 1]
