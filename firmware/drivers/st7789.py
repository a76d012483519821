"""ST7789 colour LCD on SPI, as on the Pimoroni Pico Display Pack (240x135).

A full RGB565 frame would take 64.8 KB of the Pico's ~190 KB heap, so the
picture is kept as 4-bit colour indices (framebuf.GS4_HMSB, 16.2 KB) and a
16-entry palette.  show() expands the changed rows band by band into a small
RGB565 buffer (expand_gs4, viper: a table look-up per pixel, no allocation)
and streams each band to the panel.  The palette holds the colours
byte-swapped, so the little-endian RGB565 framebuf writes comes out
big-endian, as the ST7789 wants it on the wire.  (framebuf's palette blit
does the same expansion through three pixel calls per pixel: four times the
instructions, a quarter of what a press cost on the Display Pack.)

The Display Pack's 1.14" glass sits in the middle of the controller's
240x320 RAM: in landscape (MADCTL MV|MX) its window starts at column 40,
row 53 (Pimoroni's own driver uses the same values).  The IPS glass needs
inversion on (INVON) to show true colours.
"""
import time

import framebuf
import micropython
from coinche.compat import const

_SWRESET = const(0x01)
_SLPIN = const(0x10)
_SLPOUT = const(0x11)
_NORON = const(0x13)
_INVON = const(0x21)
_DISPOFF = const(0x28)
_DISPON = const(0x29)
_CASET = const(0x2A)
_RASET = const(0x2B)
_RAMWR = const(0x2C)
_MADCTL = const(0x36)
_COLMOD = const(0x3A)

MADCTL_MY = const(0x80)
MADCTL_MX = const(0x40)
MADCTL_MV = const(0x20)
MADCTL_ML = const(0x10)
MADCTL_BGR = const(0x08)
_COLMOD_16BIT = const(0x55)

# A default palette (0xRRGGBB); the renderer may set its own with palette().
PALETTE = (
    0x000000, 0xFFFFFF, 0x808080, 0x404040, 0xC0C0C0, 0xE02020, 0x20C040, 0x2060FF,
    0xFFD000, 0xFF8000, 0x00C0C0, 0xC040C0, 0x102040, 0x103010, 0x401010, 0x202020,
)


@micropython.viper
def sync_rows(buf: ptr32, shadow: ptr32, row_words: int, rows: int, flags: ptr8, force: int) -> int:
    """Copy buf into shadow, rows of row_words 32-bit words each; flags[row] = 1 where
    the row differed (every row when force), else 0; return how many rows are flagged.
    One call and a word at a time: a colour panel's rows are compared in a quarter of
    drivers/dirty.py sync_span's steps, without a call per row. Here, not in drivers/dirty.py: the
    monochrome panels' driver imports that module, and on the heap of `make deploy` this
    native code would be loaded for them too."""
    flagged = 0
    row = 0
    i = 0
    while row < rows:
        end = i + row_words
        changed = force
        while i < end:
            w = buf[i]
            if shadow[i] != w:
                shadow[i] = w
                changed = 1
            i += 1
        flags[row] = changed
        flagged += changed
        row += 1
    return flagged


@micropython.viper
def expand_gs4(pixels: ptr8, start: int, count: int, palette: ptr16, out: ptr32):
    """count bytes of GS4_HMSB pixels from pixels[start] (two a byte, the left one in
    the high nibble) into out as palette entries, two bytes each in the palette's byte
    order: one 32-bit store per byte (out is a bytearray: word-aligned)."""
    end = start + count
    i = start
    o = 0
    while i < end:
        b = pixels[i]
        out[o] = palette[b >> 4] | (palette[b & 15] << 16)
        i += 1
        o += 1


def color565(rgb):
    """0xRRGGBB -> RGB565."""
    return ((rgb >> 8) & 0xF800) | ((rgb >> 5) & 0x07E0) | ((rgb >> 3) & 0x001F)


class ST7789(framebuf.FrameBuffer):
    def __init__(self, spi, dc, cs, backlight=None, width=240, height=135,
                 xoff=40, yoff=53, madctl=MADCTL_MX | MADCTL_MV | MADCTL_ML, band=8):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.backlight = backlight  # a machine.PWM, or None
        self.width = width
        self.height = height
        self.xoff = xoff
        self.yoff = yoff
        self.madctl = madctl
        self._row_bytes = width // 2
        if self._row_bytes % 4:
            raise ValueError("width: a multiple of 8 pixels (rows compared a word at a time)")
        self.buffer = bytearray(self._row_bytes * height)
        super().__init__(self.buffer, width, height, framebuf.GS4_HMSB)
        self._shadow = bytearray(len(self.buffer))  # what the panel shows
        self._changed_rows = bytearray(height)  # 1 for each row show() sends
        self._synced = False
        self._pal = bytearray(32)
        self._pal_fb = framebuf.FrameBuffer(self._pal, 16, 1, framebuf.RGB565)
        for i in range(16):
            self._set_entry(i, PALETTE[i])
        self._band = band
        line = bytearray(width * 2 * band)
        self._line = line
        mv = memoryview(line)
        # One view per band height, made now so show() allocates nothing.
        self._line_rows = [mv[:width * 2 * n] for n in range(band + 1)]
        self._c1 = bytearray(1)
        self._a4 = bytearray(4)
        self._a1 = bytearray(1)
        self.bytes_sent = 0  # bytes clocked out on SPI (commands + data)
        self._level = 255
        self._on = True
        self.cs(1)
        self.dc(1)
        self.init_display()

    # -- bus --------------------------------------------------------------
    def _command(self, command, args=None):
        self._c1[0] = command
        self.cs(0)
        self.dc(0)
        self.spi.write(self._c1)
        n = 1
        if args is not None:
            self.dc(1)
            self.spi.write(args)
            n += len(args)
        self.cs(1)
        self.bytes_sent += n

    def _command1(self, command, argument):
        self._a1[0] = argument
        self._command(command, self._a1)

    def _range(self, command, start, end):
        a = self._a4
        a[0] = start >> 8
        a[1] = start & 0xFF
        a[2] = end >> 8
        a[3] = end & 0xFF
        self._command(command, a)

    # -- set-up and power -------------------------------------------------
    def init_display(self):
        self._command(_SWRESET)
        time.sleep_ms(120)  # datasheet: 120 ms before SLPOUT after a reset
        self._command(_SLPOUT)
        time.sleep_ms(5)  # 5 ms before the next command
        self._command1(_COLMOD, _COLMOD_16BIT)
        self._command1(_MADCTL, self.madctl)
        self._command(_INVON)
        self._command(_NORON)
        self._synced = False
        self.show()  # the RAM holds noise after reset: send the picture first
        self._command(_DISPON)
        self._apply_backlight()

    def _apply_backlight(self):
        bl = self.backlight
        if bl is None:
            return
        v = self._level if self._on else 0
        # Square law: equal steps of contrast() look like equal steps of light.
        bl.duty_u16(v * v * 65535 // 65025)

    def contrast(self, value):
        """0..255 -> backlight brightness."""
        self._level = max(0, min(255, value))
        self._apply_backlight()

    def poweroff(self):
        self._on = False
        self._apply_backlight()
        self._command(_DISPOFF)
        self._command(_SLPIN)

    def poweron(self):
        self._command(_SLPOUT)
        time.sleep_ms(5)
        self._command(_DISPON)
        self._on = True
        self._apply_backlight()

    # -- colours ----------------------------------------------------------
    def _set_entry(self, i, rgb):
        c = color565(rgb)
        self._pal_fb.pixel(i, 0, ((c & 0xFF) << 8) | (c >> 8))

    def palette(self, index, rgb):
        """Set colour index (0..15) to 0xRRGGBB; the whole screen is resent."""
        self._set_entry(index, rgb)
        self._synced = False

    # -- picture ----------------------------------------------------------
    def show(self):
        """Send the runs of rows that changed since the last show()."""
        h = self.height
        changed = self._changed_rows
        if sync_rows(self.buffer, self._shadow, self._row_bytes >> 2, h, changed, 0 if self._synced else 1):
            y = 0
            while y < h:
                if not changed[y]:
                    y += 1
                    continue
                end = y + 1
                while end < h and changed[end]:
                    end += 1
                self._send_rows(y, end)
                y = end
        self._synced = True

    def _send_rows(self, y0, y1):
        x = self.xoff
        self._range(_CASET, x, x + self.width - 1)
        self._range(_RASET, self.yoff + y0, self.yoff + y1 - 1)
        self._c1[0] = _RAMWR
        self.cs(0)
        self.dc(0)
        self.spi.write(self._c1)
        self.dc(1)
        band = self._band
        rb = self._row_bytes
        y = y0
        while y < y1:
            n = min(band, y1 - y)
            expand_gs4(self.buffer, y * rb, n * rb, self._pal, self._line)
            buf = self._line_rows[n]
            self.spi.write(buf)
            self.bytes_sent += len(buf)
            y += n
        self.cs(1)
        self.bytes_sent += 1
