"""Layout for the 240x135 colour screen of the Pimoroni Pico Display Pack (ST7789).

Same methods as ui/layout_128x64.py, drawn for a glass about 25 mm wide: a
pixel is 0.1 mm, so the 8x8 font is drawn at twice its size (about the size
of the 128x64 OLED's text) and the totals are seven-segment digits 56 px tall.
NS is blue, EW orange, on the home screen and wherever a team is shown.

The framebuffer holds 4-bit colour indices (GS4_HMSB); the colours below are
put in the driver's palette once, in __init__.  Scaled text goes through one
256x10 one-bit scratch line (320 bytes): text.text() draws the string there
(accents included), then each row of each glyph is copied as runs of scaled
fill_rects.  No other buffer is allocated, and home() allocates nothing.
"""
import framebuf
import micropython
from micropython import const

from ui import digits
from ui.text import ndigits, num, text, width

W = const(240)
H = const(135)

# colour indices (0 and 1 stay black and white: other code may draw with 1)
_BG = const(0)
_FG = const(1)
_GREY = const(2)   # secondary text
_BAR = const(3)    # hint and status bars
_NS = const(4)
_NS_DK = const(5)
_NS_LT = const(6)
_EW = const(7)
_EW_DK = const(8)
_EW_LT = const(9)
_TITLE = const(10)
_SEL = const(11)   # selection, marks, toast border
_GOOD = const(12)  # spare: "made" in green once confirm() is told whether it was made
_BAD = const(13)   # errors
_MID = const(14)   # tracks, frames
_DIM = const(15)   # quiet text on bars

# index -> 0xRRGGBB
PALETTE = (
    0x000000, 0xFFFFFF, 0xA0A4B0, 0x1C2028, 0x2F7DFF, 0x0C1E46, 0xB4D0FF, 0xFF7A1C,
    0x48200A, 0xFFD0A8, 0x0E6B3C, 0xFFD23C, 0x3CD26E, 0xFF4646, 0x3C4250, 0x7C8494,
)
TEAM = (_NS, _EW)  # the teams' colour indices (for tests and other screens)

# text sizes: (x scale, y scale, advance per character)
_S1 = const(0)   # the 8x8 font as it is
_ST = const(1)   # tall: 8 px wide, 16 px high
_S2C = const(2)  # double size, 14 px per character
_S2 = const(3)   # double size
_S3 = const(4)   # triple size
_SX = b"\x01\x01\x02\x02\x03"
_SY = b"\x01\x02\x02\x02\x03"
_ADV = b"\x08\x08\x0e\x10\x18"

_SEAT = {"N": "seat_N", "E": "seat_E", "S": "seat_S", "W": "seat_W"}
_K = ("NS", "EW")  # team i: colour 4 + 3i, its dark tint + 1, its light tint + 2

_BAR_Y = const(115)  # hint bar: 115..134


@micropython.viper
def _scale(fb, b: ptr8, n: int, x: int, y: int, sx: int, sy: int, adv: int, c: int):
    """Draw n 8-px cells of the scratch line b (MONO_HLSB, 32 bytes a row, 10 rows) on fb,
    each pixel sx by sy, cells adv apart; runs of set bits become one fill_rect each.
    Viper: about 7x faster than the same loop in Python, and it allocates nothing."""
    if n > 32:
        n = 32
    r = 0
    while r < 10:
        o = r * 32
        yy = y + (r - 2) * sy
        cx = x
        i = 0
        while i < n:
            v = int(b[o + i])
            px = cx
            while v:
                if v & 0x80:
                    run = px
                    while v & 0x80:
                        v = (v << 1) & 0xFF
                        px += sx
                    fb.fill_rect(run, yy, px - run, sy, c)
                else:
                    v = (v << 1) & 0xFF
                    px += sx
            cx += adv
            i += 1
        r += 1


def _px(n, z):
    """Width in pixels of n characters at size z (to the end of the last cell's ink)."""
    return n and (n - 1) * _ADV[z] + 7 * _SX[z]


def _tw(s, z=_S2):
    return _px(width(s) >> 3, z)


class Layout:
    ROWS = 7  # list rows under the title (16 px each)

    def __init__(self, fb):
        self.fb = fb
        self.W = W
        self.H = H
        # the scratch line: 32 characters of 8 px, 2 rows above the cell for capital accents
        self._b = bytearray(320)
        self._s = framebuf.FrameBuffer(self._b, 256, 10, framebuf.MONO_HLSB)
        if hasattr(fb, "palette"):
            for i in range(16):
                fb.palette(i, PALETTE[i])

    # -- text ------------------------------------------------------------
    def fit(self, s, w, z=_S2, small=_ST):
        """The largest size from z down to small at which s fits in w pixels (else 8x8)."""
        while z >= small:
            if _tw(s, z) <= w:
                return z
            z -= 1
        return _S1

    def put(self, s, x, y, c=_FG, z=_S2, w=0, a=0, p=None):
        """Draw s (a string, or an int: no allocation) at size z, after the one-character
        prefix p if any, in [x, x + w): a = 0 left, 1 centred, 2 right (then x is the right
        edge if w is 0); the cell's top at y.  Returns the x after it."""
        scr = self._s
        scr.fill(0)
        n = 0
        if p:
            scr.text(p, 0, 2, 1)
            n = 8
        n = (text if isinstance(s, str) else num)(scr, s, n, 2, 1) >> 3
        x += (w - _px(n, z)) * a // 2
        if z or p:
            _scale(self.fb, self._b, n, x, y, _SX[z], _SY[z], _ADV[z], c)
        else:  # 8x8: straight on the screen (a line longer than the scratch one is cut at the glass)
            (text if isinstance(s, str) else num)(self.fb, s, x, y, c)
        return x + n * _ADV[z]

    def fitc(self, s, y, c=_FG, x0=0, w=W, big=_S2):
        """Centred at the largest size that fits; 16 px high (or 8 when nothing else fits)."""
        z = self.fit(s, w - 4, big)
        if not z or z < big == _S3:
            y += 4
        self.put(s, x0, y, c, z, w, 1)

    # -- primitives ------------------------------------------------------
    def clear(self):
        self.fb.fill(_BG)

    def title(self, s, step=None, right=None):
        """The title bar; step '3/7': seven segments under it, the first three lit."""
        fb = self.fb
        fb.fill_rect(0, 0, W, 20, _TITLE)
        rw = 0
        if right:
            rz = self.fit(right, 64, _S2, _S2C)
            rw = _tw(right, rz) + 8
        z = self.fit(s, W - 8 - rw)
        if not z and rw:  # the title matters more than the count
            rw = 0
            z = self.fit(s, W - 8)
        self.put(s, 4, 4 if z else 6, _FG, z)
        if rw:
            self.put(right, W - rw + 4, 4, _SEL, rz)
        if step:
            i = step.find("/")
            if i < 0:
                return
            k = int(step[:i])
            n = int(step[i + 1:])
            if n <= 0:
                return
            w = (W - 2 * (n - 1)) // n
            x = (W - (w * n + 2 * (n - 1))) // 2
            for i in range(n):
                fb.fill_rect(x, 21, w, 3, _SEL if i < k else _MID)
                x += w + 2

    def hint(self, s):
        """The bottom bar; a leading "^v" (UP/DOWN change the value) is drawn as two arrows."""
        self.fb.fill_rect(0, _BAR_Y, W, H - _BAR_Y, _BAR)
        x = 4
        if s.startswith("^v"):
            self.arrow(4, _BAR_Y + 5, 0, _GREY, 6)
            self.arrow(18, _BAR_Y + 6, 1, _GREY, 6)
            x = 28
            s = s[2:]
        z = self.fit(s, W - 4 - x)
        self.put(s, x, _BAR_Y + (3 if z else 7), _GREY, z)

    def arrow(self, x, y, down=0, c=_GREY, s=9):
        """A filled triangle, 2s-1 wide and s high, pointing up (tip at (x + s - 1, y)) or down."""
        for i in range(s):
            k = s - 1 - i if down else i
            self.fb.hline(x + s - 1 - k, y + i, 2 * k + 1, c)

    def key_mark(self, k, x, y, c=_GREY):
        """The key that gives an answer: 0 = UP, 1 = OK, 2 = DOWN; 24 px wide, 16 high."""
        if k == 1:
            self.put("OK", x, y, c, _S2C)
        else:
            self.arrow(x + 3, y + 3 + k // 2, k, c)

    def home(self, a):
        """a: the App (reads a.T, a.game, a.dealer_team()). Allocates nothing."""
        fb = self.fb
        T = a.T
        g = a.game
        target = g.rules["target"]
        for i in (0, 1):
            k = _K[i]
            c = 4 + 3 * i
            x = 121 * i
            n = g.total[k]
            # the team's box in the header
            fb.fill_rect(180 * i, 0, 60, 22, c)
            self.put(T[k], 2 + 180 * i, 4, _FG, _S2, 46, 1)
            # its panel: tinted, the total big, progress to the target
            fb.fill_rect(x, 22, 119, 91, c + 1)
            w, gap = (24, 5) if n < 10000 else (18, 4)
            digits.number(fb, n, x + (119 - digits.width(n, w, gap)) // 2, 27, w, 56, 6, gap, _FG)
            fb.fill_rect(x + 6, 107, 107, 3, _MID)
            if target > 0 and n > 0:
                fb.fill_rect(x + 6, 107, 107 if n >= target else 107 * n // target, 3, c)
            if g.results:  # the last deal's score
                self.put(g.results[-1].score[k], x + 112, 88, c + 2, _S2, 0, 2, "+")
        s = T["target"]  # "en 2000": the word, a space, the number (condensed: room on both sides)
        k = (width(s) >> 3) + 1 + ndigits(target)
        z = _S2C
        while z > _ST and _px(k, z) > 112:
            z -= 1
        x = self.put(s, 60 + (120 - _px(k, z)) // 2, 4, _GREY, z)
        self.put(target, x + _ADV[z], 4, _GREY, z)
        # status bar: deal number, dealer
        fb.fill_rect(0, 113, W, H - 113, _BAR)
        self.put(len(g.deals) + 1, 4, 117, _DIM, _S2, 0, 0, "#")
        i = a.dealer_team() == "EW"
        k = T[_SEAT[g.dealer()]]
        s = T["dealer"]
        z = self.fit(s, 150, _S2, _S2C)
        x = self.put(s, W - 4 - _tw(k) - _ADV[z] - _tw(s, z), 117, _GREY, z)
        self.put(k, x + _ADV[z], 117, 6 + 3 * i)
        # the dealer's team box gets a marker (a white dot in its corner)
        x = 50 + 180 * i
        fb.fill_rect(x, 9, 6, 4, _FG)
        fb.fill_rect(x + 1, 8, 4, 6, _FG)

    # -- generic list (menus, settings, history) ------------------------
    def listing(self, title, rows, sel, top, right=None, hint=None):
        """rows: strings (or (left, right) pairs); sel: selected index; top: first shown.

        A right part made of two numbers ("80 484": NS then EW, as in the
        history) is drawn in the team colours."""
        fb = self.fb
        self.title(title, None, right)
        n = len(rows)
        shown = self.ROWS
        if hint:  # the hint bar takes the last row: keep the selection above it
            shown -= 1
            if sel >= top + shown:
                top = sel - shown + 1
        rows = rows[top:top + shown]
        # one size for all the rows shown, the largest that fits the widest
        z = _S2
        for row in rows:
            while z > _ST:
                if isinstance(row, tuple):
                    w = _tw(row[0], z) + 16 + _tw(row[1], z)
                else:
                    w = _tw(row, z)
                if w <= W - 14:
                    break
                z -= 1
        k = top
        for row in rows:
            y = 22 + 16 * (k - top)
            c = _FG
            if k == sel:
                fb.fill_rect(0, y - 1, W - 5, 16, _SEL)
                c = _BG
            elif k & 1:
                fb.fill_rect(0, y - 1, W - 5, 16, _BAR)
            if isinstance(row, tuple):
                s = row[1]
                w = W - 24 - _tw(s, z)  # the left part never runs into the right
                row = row[0]
                if _tw(row, z) > w:
                    row = row[:max(0, (w - 7 * _SX[z]) // _ADV[z] + 1)]
                # the right part, right-aligned: yellow, or "NS EW" numbers in the team colours
                i = s.find(" ")
                if i > 0 and s[:i].isdigit() and s[i + 1:].isdigit():
                    x = self.put(s[:i], W - 8 - _tw(s, z), y, 5 + (k != sel), z)
                    self.put(s[i + 1:], x + _ADV[z], y, 8 + (k != sel), z)
                else:
                    self.put(s, W - 8, y, _SEL if k != sel else _BG, z, 0, 2)
            self.put(row, 4, y, c, z)
            k += 1
        if n > self.ROWS:  # scroll bar
            k = 16 * shown
            fb.fill_rect(W - 3, 21, 3, k, _MID)
            w = max(6, k * shown // n)
            fb.fill_rect(W - 3, 21 + (k - w) * top // max(1, n - shown), 3, w, _GREY)
        if hint:
            self.hint(hint)

    # -- entry steps ----------------------------------------------------
    def picker(self, title, step, value, label, context, hint):
        """A value chosen with UP/DOWN: value is an int (big digits) or None (then label)."""
        self.title(title, step)
        if context:
            self.fitc(context, 26, _GREY)
        self.arrow(6, 52)
        self.arrow(6, 88, 1)
        if value is None:
            self.fitc(label, 59, _FG, 24, W - 24, _S3)
        else:
            w = digits.width(value, 26, 6)
            x = (W - w) // 2
            if label:
                x -= (_tw(label) + 8) // 2
                self.put(label, x + w + 8, 80)
            digits.number(self.fb, value, x, 46, 26, 50, 6, 6, _FG)
        self.hint(hint)

    def mark_digits(self, value, units):
        """Mark the digit(s) being set under the picker's number: the units, or the tens and above."""
        n = ndigits(value)
        x = (W - digits.width(value, 26, 6)) // 2
        if units:
            self.fb.fill_rect(x + (n - 1) * 32, 100, 26, 4, _SEL)
        elif n > 1:
            self.fb.fill_rect(x, 100, (n - 1) * 32 - 6, 4, _SEL)

    def choice3(self, title, step, up, ok, down, current, context):
        """Three choices, one key each: UP / OK / DOWN."""
        fb = self.fb
        self.title(title, step)
        for i, (s, v) in enumerate((up, ok, down)):
            y = 27 + 29 * i
            self.key_mark(i, 6, y + 3)
            c = _FG
            if v == current:
                fb.fill_rect(36, y, W - 36, 22, _SEL)
                c = _BG
            elif v in _K:  # a team: in its colours
                c = 6 + 3 * (v == "EW")
                fb.rect(36, y, W - 36, 22, c - 2)
            else:
                fb.rect(36, y, W - 36, 22, _MID)
            self.put(s, 42, y + 3, c, self.fit(s, W - 48))
        if context:
            self.hint(context)

    def extras(self, title, step, coinche, belote, context, hint):
        self.title(title, step)
        self.arrow(6, 32)
        self.put(coinche, 32, 30, _FG, self.fit(coinche, W - 36))
        self.arrow(6, 62, 1)
        self.put(belote, 32, 60, _FG, self.fit(belote, W - 36))
        if context:
            self.fitc(context, 90, _GREY)
        self.hint(hint)

    def melds(self, title, step, ns_label, ns, ew_label, ew, hint):
        fb = self.fb
        self.title(title, step)
        z = _S2
        for s in ns + ew:
            z = min(z, self.fit(s, 111))
        for i, s, items in ((0, ns_label, ns), (1, ew_label, ew)):
            x = 121 * i
            fb.fill_rect(x, 25, 119, 20, 4 + 3 * i)
            self.key_mark(2 * i, x + 4, 27, _FG)
            self.put(s, x + 34, 27)
            fb.fill_rect(x, 45, 119, 68, 5 + 3 * i)
            n = len(items)
            k = n if n <= 4 else 3
            for j in range(k):
                self.put(items[j], x + 4, 48 + 16 * j, _FG, z)
            if k < n:
                self.put(n - k, x + 4, 48 + 16 * k, _GREY, z or _ST, 0, 0, "+")
        self.hint(hint)

    def confirm(self, title, contract, verdict, ns_label, ns, ew_label, ew, tot_ns, tot_ew, hint, error,
                made=None):
        fb = self.fb
        self.title(title)
        self.fitc(contract, 23)
        if error:
            _frame(fb, 0, 44, W, 68, _BAD)
            self.fitc(error[0], 52, _BAD)
            self.fitc(error[1], 78)
        else:
            self.fitc(verdict, 41, _SEL if made is None else (_GOOD if made else _BAD))
            for i, s, n, t in ((0, ns_label, ns, tot_ns), (1, ew_label, ew, tot_ew)):
                x = 121 * i
                fb.fill_rect(x, 60, 119, 53, 5 + 3 * i)
                k = _tw(s) + 8
                fb.fill_rect(x, 60, k + 2, 20, 4 + 3 * i)
                self.put(s, x + 5, 62)
                w = 18 if digits.width(n, 18, 4) <= 107 - k else 13
                digits.number(fb, n, x + 113, 63, w, 30, 4, 4, 6 + 3 * i, True)
                self.put(t, x + 113, 96, _FG, _S2, 0, 2, "=")
        self.hint(hint)

    def ask(self, question, detail, hint):
        _frame(self.fb, 0, 0, W, _BAR_Y - 2, _SEL)
        self.fitc(question, 34 if detail else 48)
        if detail:
            self.fitc(detail, 66, _GREY)
        self.hint(hint)

    def game_over(self, title, winner_line, ns_label, ns, ew_label, ew, hint):
        fb = self.fb
        self.title(title)
        c = _FG
        if winner_line.startswith(ns_label):
            c = _NS_LT
        elif winner_line.startswith(ew_label):
            c = _EW_LT
        self.fitc(winner_line, 26, c, 0, W, _S3)
        # each team's final total: a header bar with the team, the number below it
        for i, s, n in ((0, ns_label, ns), (1, ew_label, ew)):
            x = 121 * i
            fb.fill_rect(x, 55, 119, 18, 4 + 3 * i)
            self.put(s, x, 56, _FG, _S2, 119, 1)
            fb.fill_rect(x, 73, 119, 40, 5 + 3 * i)
            w = 20 if n < 10000 else 16
            digits.number(fb, n, x + (119 - digits.width(n, w, 5)) // 2, 76, w, 34, 5, 5, _FG)
        self.hint(hint)

    def toast(self, s):
        """A short message over the bottom of the screen (on home: not over the totals)."""
        z = self.fit(s, W - 20)
        w = min(W, _tw(s, z) + 20)
        x = (W - w) // 2
        self.fb.fill_rect(x, 103, w, 32, _BAR)
        _frame(self.fb, x, 103, w, 32, _SEL)
        self.put(s, x + 10, 111 if z else 115, _FG, z)


def _frame(fb, x, y, w, h, c):
    """A rectangle two pixels thick."""
    fb.rect(x, y, w, h, c)
    fb.rect(x + 1, y + 1, w - 2, h - 2, c)
