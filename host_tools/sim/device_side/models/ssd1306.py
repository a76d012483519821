"""SSD1306 and SH1106 controller models: I2C bytes in, panel pixels out.

Each model decodes the byte stream the way the chip's datasheet describes
it (control bytes, commands and their arguments, the RAM write pointer and
its addressing modes) into a model of the controller's RAM and registers,
then maps RAM to the glass the way a common 128x64 module is wired.  So a
driver that forgets the segment remap, the charge pump or the SH1106 column
offset shows a wrong picture here, as on the bench.

Orientation convention (what "upright" means): the usual modules show the
picture upright with segment remap (A1) and reversed COM scan (C8), which
is what nearly every driver sends.

Anything the model cannot show faithfully (an unknown command, a setting
that would garble a real panel) is appended to `problems`.
"""

# Argument counts of the SSD1306 commands that take arguments.
_SSD1306_ARGS = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x23: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
    0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1, 0xD9: 1,
    0xDA: 1, 0xDB: 1,
}
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class _OledModel:
    """Control-byte parsing and RAM-to-glass mapping shared by both chips."""

    WIDTH = 128
    HEIGHT = 64

    def __init__(self, ram_width, args):
        self.ram_width = ram_width
        self.ram = bytearray(ram_width * 8)
        self._args = args
        self.problems = []
        self.commands = 0  # command bytes decoded (arguments included)
        self.data_bytes = 0  # RAM bytes written
        self.version = 0  # bumps on every change that may alter the picture
        self._cache_version = -1
        self._cache = b""
        self.power_on_reset()

    def power_on_reset(self):
        """Register values after power-up (datasheet reset column)."""
        self.display_on = False
        self.contrast = 0x7F
        self.inverse = False
        self.entire_on = False
        self.seg_remap = False
        self.com_remap = False
        self.mux = 64
        self.offset = 0
        self.start_line = 0
        self.com_pins = 0x12
        self.col = 0
        self.page = 0
        self._op = None  # command waiting for arguments
        self._argv = []
        self._ctrl = True  # next byte of a transfer is a control byte
        self._co = False
        self._dc = False
        self.version += 1

    # -- the bus ----------------------------------------------------------
    def i2c_start(self):
        """START + our address: the next byte is a control byte."""
        self._ctrl = True

    def i2c_write(self, chunk):
        """Bytes of the current write transfer."""
        n = len(chunk)
        i = 0
        while i < n:
            b = chunk[i]
            i += 1
            if self._ctrl:
                self._co = bool(b & 0x80)
                self._dc = bool(b & 0x40)
                if b & 0x3F:
                    self.problems.append("control byte 0x%02x has low bits set" % b)
                self._ctrl = False
                continue
            if self._dc:
                self._data(b)
            else:
                self._command_byte(b)
            if self._co:
                self._ctrl = True  # Co=1: one byte, then a new control byte
        self.version += 1

    def i2c_read(self, n):
        # Status read (D/C#=0): bit 6 = display off.
        return bytes([0x40 if not self.display_on else 0x00] * n)

    def _command_byte(self, b):
        self.commands += 1
        if self._op is not None:
            self._argv.append(b)
            if len(self._argv) == self._args[self._op]:
                op, argv = self._op, self._argv
                self._op = None
                self._argv = []
                self._command(op, argv)
            return
        if b in self._args:
            self._op = b
            self._argv = []
            return
        self._command(b, None)

    def _common(self, op, argv):
        """Commands both chips share; False if op is not one of them."""
        if op == 0x81:
            self.contrast = argv[0]
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverse = op == 0xA7
        elif op == 0xA8:
            self.mux = (argv[0] & 0x3F) + 1
            if self.mux < 16:
                self.problems.append("multiplex ratio %d is invalid" % self.mux)
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif 0xB0 <= op <= 0xB7:
            self._set_page(op & 0x07)
        elif op in (0xC0, 0xC8):
            self.com_remap = op == 0xC8
        elif op == 0xD3:
            self.offset = argv[0] & 0x3F
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op == 0xDA:
            self.com_pins = argv[0]
        elif op in (0xD5, 0xD9, 0xDB, 0xE3):
            pass  # clock, pre-charge, VCOMH, NOP: no effect on the picture
        else:
            return False
        return True

    # -- RAM to glass -------------------------------------------------------
    def _lit(self):
        """None if the glass shows RAM, else 0 (all dark) or 1 (all lit)."""
        raise NotImplementedError

    def _column_of(self, x):
        """RAM column shown at glass column x."""
        raise NotImplementedError

    def _ram_row(self, y):
        """RAM row shown on glass row y, or -1 if that row is not driven."""
        com = self.HEIGHT - 1 - y  # the usual module: COM63 at the top edge
        # Which output row of the scan drives this COM line.
        k = self.mux - 1 - com if self.com_remap else com
        k = (k - self.offset) % 64
        if k >= self.mux:
            return -1
        return (k + self.start_line) % 64

    def frame(self):
        """What the glass shows, as MONO_VLSB bytes (128x64, bit 0 = top)."""
        if self._cache_version != self.version:
            self._cache = bytes(self._render())
            self._cache_version = self.version
        return self._cache

    def _render(self):
        w, h = self.WIDTH, self.HEIGHT
        out = bytearray(w * h // 8)
        lit = self._lit()
        if lit is not None:
            if lit:
                for i in range(len(out)):
                    out[i] = 0xFF
            return out
        rw = self.ram_width
        ram = self.ram
        cols = [self._column_of(x) for x in range(w)]
        rows = [self._ram_row(y) for y in range(h)]
        straight = rows == list(range(h))
        c0 = cols[0]
        contiguous = cols == list(range(c0, c0 + w))
        for page in range(h // 8):
            if straight:
                # RAM page = glass page: copy bytes, columns in glass order.
                base = page * rw
                o = page * w
                if contiguous:
                    out[o:o + w] = ram[base + c0:base + c0 + w]
                    continue
                for x in range(w):
                    out[o + x] = ram[base + cols[x]]
                continue
            for bit in range(8):
                r = rows[page * 8 + bit]
                if r < 0:
                    continue
                src = (r >> 3) * rw
                mask = 1 << (r & 7)
                setbit = 1 << bit
                o = page * w
                for x in range(w):
                    if ram[src + cols[x]] & mask:
                        out[o + x] |= setbit
        if self.inverse:
            for i in range(len(out)):
                out[i] ^= 0xFF
        return out

    def pixel(self, x, y, frame=None):
        f = frame if frame is not None else self.frame()
        return (f[(y >> 3) * self.WIDTH + x] >> (y & 7)) & 1


class SSD1306Model(_OledModel):
    """SSD1306 as found on 0.96" modules: 128x64, charge pump, no external VCC."""

    def __init__(self, external_vcc=False):
        self.external_vcc = external_vcc
        super().__init__(128, _SSD1306_ARGS)

    def power_on_reset(self):
        self.mode = 2  # page addressing
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.charge_pump = False
        self.scrolling = False
        super().power_on_reset()

    def _set_page(self, p):
        if self.mode == 2:  # B0..B7 only work in page addressing mode
            self.page = p

    def _command(self, op, argv):
        if self._common(op, argv):
            return
        if op <= 0x0F:
            if self.mode == 2:
                self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            if self.mode == 2:
                self.col = (self.col & 0x0F) | ((op & 0x07) << 4)
        elif op == 0x20:
            m = argv[0] & 0x03
            if m == 3:
                self.problems.append("addressing mode 3 is invalid")
            else:
                self.mode = m
        elif op == 0x21:
            self.col_start, self.col_end = argv[0] & 0x7F, argv[1] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = argv[0] & 0x07, argv[1] & 0x07
            self.page = self.page_start
        elif op == 0x8D:
            self.charge_pump = bool(argv[0] & 0x04)
        elif op == 0x2E:
            self.scrolling = False
        elif op == 0x2F:
            self.scrolling = True
            self.problems.append("scrolling is not modelled")
        elif op in (0x23, 0x26, 0x27, 0x29, 0x2A, 0xA3, 0xD6):
            pass  # fade, scroll set-up, zoom: nothing shows until used
        else:
            self.problems.append("unknown SSD1306 command 0x%02x" % op)

    def _data(self, b):
        self.ram[self.page * 128 + self.col] = b
        self.data_bytes += 1
        m = self.mode
        if m == 2:  # page: the column wraps, the page stays
            self.col = self.col + 1 if self.col < 127 else 0
        elif m == 0:  # horizontal: column first, then page, inside the window
            if self.col < self.col_end:
                self.col += 1
            else:
                self.col = self.col_start
                self.page = self.page + 1 if self.page < self.page_end else self.page_start
        else:  # vertical: page first, then column
            if self.page < self.page_end:
                self.page += 1
            else:
                self.page = self.page_start
                self.col = self.col + 1 if self.col < self.col_end else self.col_start

    def _lit(self):
        if not self.display_on or not (self.charge_pump or self.external_vcc):
            return 0  # no drive voltage: dark whatever RAM holds
        if self.entire_on:
            return 1
        return None

    def _column_of(self, x):
        # Glass column x is driven by SEG(127 - x); with A1, SEG s shows column 127 - s.
        seg = 127 - x
        return 127 - seg if self.seg_remap else seg

    def _render(self):
        if self.display_on and (self.charge_pump or self.external_vcc):
            if self.com_pins & 0x30 != 0x10:
                self._note("COM pins set for a 128x32 panel: rows interleave on 128x64")
        return super()._render()

    def _note(self, text):
        if text not in self.problems:
            self.problems.append(text)


class SH1106Model(_OledModel):
    """SH1106 as found on 1.3" modules: 132-column RAM, glass on columns 2..129."""

    def __init__(self):
        super().__init__(132, _SH1106_ARGS)

    def power_on_reset(self):
        self.dcdc = True  # AD 8B is the reset value
        self.rmw = False
        super().power_on_reset()

    def _set_page(self, p):
        self.page = p

    def _command(self, op, argv):
        if self._common(op, argv):
            return
        if op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif 0x30 <= op <= 0x33:
            pass  # charge-pump voltage
        elif op == 0xAD:
            self.dcdc = argv[0] & 0x01 == 1
        elif op == 0xE0:
            self.rmw = True
            self._rmw_col = self.col
        elif op == 0xEE:
            self.rmw = False
            self.col = self._rmw_col
        else:
            self.problems.append("unknown SH1106 command 0x%02x" % op)

    def _data(self, b):
        if self.col >= 132:
            self.problems.append("data past column 131")
            return
        self.ram[self.page * 132 + self.col] = b
        self.data_bytes += 1
        self.col += 1

    def _lit(self):
        if not self.display_on or not self.dcdc:
            return 0
        if self.entire_on:
            return 1
        return None

    def _column_of(self, x):
        # 128 glass columns on SEG2..SEG129; glass x is driven by SEG(129 - x).
        seg = 129 - x
        return 131 - seg if self.seg_remap else seg
