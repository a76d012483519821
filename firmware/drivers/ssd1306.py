"""SSD1306 and SH1106 128x64 monochrome OLEDs on I2C.

Both controllers hold the picture in pages of 8 rows, one byte per column
(bit 0 = top row), which is exactly framebuf.MONO_VLSB: the FrameBuffer's
bytes go to the panel unchanged.  show() sends, of each page that changed
since the last show(), only the columns from its first to its last changed
one: a key press that changes one word costs tens of bytes on the bus, not
129 for every page of 8 rows the word touches (a full frame is ~1 KB).

The SH1106 differs in two ways that matter here: it has no horizontal
addressing mode (every page is addressed on its own), and its RAM is 132
columns wide with the 128-pixel glass centred on it (columns 2..129).

Written for this project in the style of micropython-lib's ssd1306.py
(FrameBuffer subclass, bus passed in, buffers allocated once).
"""
import framebuf
from coinche.compat import const

from drivers.dirty import SPAN_LAST, SPAN_SHIFT, sync_span

ADDR = const(0x3C)

_CTRL_CMD = const(0x00)  # Co=0, D/C#=0: the rest of the transfer is commands
_CTRL_DATA = const(0x40)  # Co=0, D/C#=1: the rest is display data

_SET_CONTRAST = const(0x81)
_DISPLAY_RAM = const(0xA4)  # A5 would light every pixel
_NORMAL = const(0xA6)  # A7 = inverse
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_SEG_REMAP = const(0xA1)  # column 0 on the left of the usual modules
_COM_REMAP = const(0xC8)  # COM scan reversed: row 0 at the top
_SET_MUX = const(0xA8)
_SET_OFFSET = const(0xD3)
_SET_START_LINE = const(0x40)
_SET_COM_PINS = const(0xDA)
_SET_CLOCK = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOMH = const(0xDB)
_PAGE = const(0xB0)

# SSD1306 only
_ADDR_MODE = const(0x20)
_HORIZONTAL = const(0x00)
_COL_RANGE = const(0x21)
_PAGE_RANGE = const(0x22)
_CHARGE_PUMP = const(0x8D)
_WINDOW_BYTES = const(7)  # control byte, 0x21 first last, 0x22 first last

# SH1106 only
_DCDC = const(0xAD)
_SH1106_COL_OFFSET = const(2)


class _OLED(framebuf.FrameBuffer):
    """What both controllers share: buffers, commands, power, dirty pages."""

    def __init__(self, i2c, addr, width, height):
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        # What the panel holds; only meaningful while _synced is True.
        self._shadow = bytearray(len(self.buffer))
        self._synced = False
        self._reinit = False
        self.bytes_sent = 0  # payload bytes written on the bus (address byte excluded)
        self.errors = 0  # failed transfers (display unplugged, bus noise)
        self._on = True
        self._contrast = 0xCF
        self._inverted = 0
        self._cmd = bytearray(8)  # a control byte and up to 7 command bytes
        # Every transfer: a control byte, then commands or the changed columns of a
        # page.  Its length changes with every transfer, its capacity never does, so
        # resizing it inside the capacity allocates nothing (a memoryview slice would).
        self._transfer = bytearray(width + 1)
        buf = memoryview(self.buffer)
        self._rows = [buf[p * width:(p + 1) * width] for p in range(self.pages)]
        self.init_display()

    # -- bus --------------------------------------------------------------
    def _send_cmd(self, length):
        """Send self._cmd[1:length] as commands (the transfer puts the control byte first)."""
        transfer = self._transfer
        transfer[:] = self._cmd
        transfer[0] = _CTRL_CMD
        transfer[length:] = b""
        self.i2c.writeto(self.addr, transfer)
        self.bytes_sent += length

    def _cmd1(self, command):
        self._cmd[1] = command
        self._send_cmd(2)

    def _cmd2(self, command, arg):
        self._cmd[1] = command
        self._cmd[2] = arg
        self._send_cmd(3)

    def _send_columns(self, page, first, last):
        """Send columns first..last of a page as data, wherever the controller's
        pointer stands."""
        transfer = self._transfer
        transfer[1:] = self._rows[page]  # the whole page, inside the capacity
        transfer[0] = _CTRL_DATA
        transfer[1:first + 1] = b""  # then drop the columns before the span
        transfer[last - first + 2:] = b""  # and after it
        self.i2c.writeto(self.addr, transfer)
        self.bytes_sent += last - first + 2

    def _setup(self):
        """Controller-specific part of the set-up."""
        raise NotImplementedError

    def _show(self):
        """Controller-specific way of sending the changed pages."""
        raise NotImplementedError

    # -- the board interface ----------------------------------------------
    def init_display(self):
        """Send the whole set-up and mark the panel's RAM as unknown."""
        self._synced = False
        self._reinit = False
        self._cmd1(_DISPLAY_OFF)
        self._setup()
        self._cmd2(_SET_CONTRAST, self._contrast)
        self._cmd1(_DISPLAY_RAM)
        self._cmd1(_NORMAL | self._inverted)
        if self._on:
            self._cmd1(_DISPLAY_ON)

    def _common_setup(self):
        self._cmd2(_SET_CLOCK, 0x80)
        self._cmd2(_SET_MUX, self.height - 1)
        self._cmd2(_SET_OFFSET, 0)
        self._cmd1(_SET_START_LINE | 0)
        self._cmd1(_SEG_REMAP)
        self._cmd1(_COM_REMAP)
        self._cmd2(_SET_COM_PINS, 0x12 if self.height == 64 else 0x02)

    def contrast(self, value):
        self._contrast = max(0, min(255, value))
        self._send_setting(_SET_CONTRAST, self._contrast)

    def invert(self, flag):
        self._inverted = 1 if flag else 0
        self._send_setting(_NORMAL | self._inverted)

    def poweroff(self):
        self._on = False
        self._send_setting(_DISPLAY_OFF)

    def poweron(self):
        self._on = True
        self._send_setting(_DISPLAY_ON)

    def _send_setting(self, command, argument=-1):
        """A command (with its argument byte, if any) sent outside show(); the setting is
        already kept, so a failed transfer is only counted, and init_display() sends it
        again at the next show()."""
        try:
            if argument < 0:
                self._cmd1(command)
            else:
                self._cmd2(command, argument)
        except OSError:
            self._fail()

    def show(self):
        """Send the pages that differ from what the panel holds.

        A failed transfer (loose wire, display swapped while running) is
        counted, not raised: the game must go on, and the next show()
        re-initialises the panel and sends every page."""
        try:
            if self._reinit:
                self.init_display()
            self._show()
        except OSError:
            self._fail()

    def _fail(self):
        self.errors += 1
        self._reinit = True  # the panel may have lost power: start over

    def _span(self, page):
        """The page's changed columns as first << SPAN_SHIFT | last, -1 if none; when
        the panel is unknown every column of every page has changed."""
        w = self.width
        span = sync_span(self.buffer, self._shadow, page * w, w)
        if not self._synced:
            return w - 1  # first 0, last w - 1
        return span


class SSD1306(_OLED):
    """SSD1306: horizontal addressing, one window per run of changed pages."""

    def __init__(self, i2c, addr=ADDR, width=128, height=64, external_vcc=False):
        self.external_vcc = external_vcc
        super().__init__(i2c, addr, width, height)

    def _setup(self):
        self._cmd2(_ADDR_MODE, _HORIZONTAL)
        self._common_setup()
        self._cmd2(_SET_PRECHARGE, 0x22 if self.external_vcc else 0xF1)
        self._cmd2(_SET_VCOMH, 0x30)
        self._cmd2(_CHARGE_PUMP, 0x10 if self.external_vcc else 0x14)

    def _window(self, p0, p1, first, last):
        c = self._cmd
        c[1] = _COL_RANGE
        c[2] = first
        c[3] = last
        c[4] = _PAGE_RANGE
        c[5] = p0
        c[6] = p1
        self._send_cmd(7)

    def _show(self):
        n = self.pages
        p = 0
        span = self._span(0)
        while p < n:
            if span < 0:
                p += 1
                if p < n:
                    span = self._span(p)
                continue
            # Extend the run over the following changed pages: one window, the
            # union of their changed columns, the controller stepping from page
            # to page on its own -- unless a window of its own costs the next
            # page fewer bytes than widening this one (a digit at the left under
            # a word at the right).
            first = span >> SPAN_SHIFT
            last = span & SPAN_LAST
            q = p + 1
            while q < n:
                span = self._span(q)
                if span < 0:
                    break
                wider_first = min(first, span >> SPAN_SHIFT)
                wider_last = max(last, span & SPAN_LAST)
                widened = (q - p + 1) * (wider_last - wider_first + 2) - (q - p) * (last - first + 2)
                if widened > _WINDOW_BYTES + (span & SPAN_LAST) - (span >> SPAN_SHIFT) + 2:
                    break  # page q opens the next window, its span in hand
                first = wider_first
                last = wider_last
                q += 1
            self._window(p, q - 1, first, last)
            for i in range(p, q):
                self._send_columns(i, first, last)
            p = q
        self._synced = True


class SH1106(_OLED):
    """SH1106: page addressing only, 132-column RAM, glass on columns 2..129."""

    def __init__(self, i2c, addr=ADDR, width=128, height=64, col_offset=_SH1106_COL_OFFSET):
        self.col_offset = col_offset
        super().__init__(i2c, addr, width, height)

    def _setup(self):
        self._common_setup()
        self._cmd2(_DCDC, 0x8B)  # built-in DC-DC on
        self._cmd2(_SET_PRECHARGE, 0x22)
        self._cmd2(_SET_VCOMH, 0x35)

    def _show(self):
        c = self._cmd
        for p in range(self.pages):
            span = self._span(p)
            if span >= 0:
                first = span >> SPAN_SHIFT
                col = self.col_offset + first
                c[1] = _PAGE | p
                c[2] = col & 0x0F  # column address, low nibble
                c[3] = 0x10 | (col >> 4)  # column address, high nibble
                self._send_cmd(4)
                self._send_columns(p, first, span & SPAN_LAST)
        self._synced = True
