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

# index -> 0xRRGGBB (kept as 3 bytes each in the .mpy)
PALETTE = tuple(int.from_bytes(b"\x00\x00\x00\xff\xff\xff\xa0\xa4\xb0\x1c\x20\x28\x2f\x7d\xff\x0c\x1e\x46"
                               b"\xb4\xd0\xff\xff\x7a\x1c\x48\x20\x0a\xff\xd0\xa8\x0e\x6b\x3c\xff\xd2\x3c"
                               b"\x3c\xd2\x6e\xff\x46\x46\x3c\x42\x50\x7c\x84\x94"[i:i + 3], "big")
                for i in range(0, 48, 3))
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

# Names are short on purpose: every argument name is a string in the .mpy.


@micropython.viper
def _scale(f, b: ptr8, n: int, x: int, y: int, sx: int, sy, adv: int, c):
    """Draw n 8-px cells of the scratch line b (MONO_HLSB, 32 bytes a row, 10 rows) with
    f = fb.fill_rect, each pixel sx by sy, cells adv apart; a run of set bits is one fill_rect.
    Viper: about 7x faster than the same loop in Python, and it allocates nothing."""
    if n > 32:
        n = 32
    r = 0
    while r < 10:
        yy = y + (r - 2) * int(sy)
        i = 0
        while i < n:
            v = b[r * 32 + i]
            px = x + i * adv
            while v:
                while not v & 0x80:
                    v <<= 1
                    px += sx
                run = px
                while v & 0x80:
                    v = (v << 1) & 0xFF
                    px += sx
                f(run, yy, px - run, sy, c)
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
        self._f = fb.fill_rect  # bound once: the text loop calls it without allocating
        self.W = W
        self.H = H
        # the scratch line: 32 characters of 8 px, 2 rows above the cell for capital accents
        self._b = bytearray(320)
        self._s = framebuf.FrameBuffer(self._b, 256, 10, framebuf.MONO_HLSB)
        if hasattr(fb, "palette"):
            for i in range(16):
                fb.palette(i, PALETTE[i])

    # -- text ------------------------------------------------------------
    def fit(self, s, w, start=_S2, stop=_ST):
        """The largest size from start down to stop at which s fits in w pixels (else 8x8)."""
        while start >= stop:
            if _tw(s, start) <= w:
                return start
            start -= 1
        return _S1

    def put(self, s, x, y, c=_FG, z=_S2, w=0, a=0, p=None):
        """Draw s (a string, or an int: no allocation) at size z, after the one-character
        prefix p if any, in [x, x + w): a = 0 left, 1 centred, 2 right (then x is the right
        edge if w is 0); the cell's top at y.  Returns the x after it."""
        f = self._s
        f.fill(0)
        n = 0
        if p:
            f.text(p, 0, 2, 1)
            n = 8
        n = (text if isinstance(s, str) else num)(f, s, n, 2, 1) >> 3
        x += (w - _px(n, z)) * a // 2
        if z or p:
            _scale(self._f, self._b, n, x, y, _SX[z], _SY[z], _ADV[z], c)
        else:  # 8x8: straight on the screen (a line longer than the scratch one is cut at the glass)
            (text if isinstance(s, str) else num)(self.fb, s, x, y, c)
        return x + n * _ADV[z]

    def fitc(self, s, y, c=_FG, x=0, w=W, start=_S2):
        """s centred in [x, x + w) at the largest size that fits; 16 px high (or 8 when nothing else fits)."""
        z = self.fit(s, w - 4, start)
        if not z or z < start == _S3:
            y += 4
        self.put(s, x, y, c, z, w, 1)

    # -- primitives ------------------------------------------------------
    def clear(self):
        self.fb.fill(_BG)

    def title(self, s, step=None, end=None):
        """The title bar, end (a count) on its right; step '3/7': seven segments under it, three lit."""
        f = self._f
        f(0, 0, W, 20, _TITLE)
        w = 0
        if end:
            a = self.fit(end, 64, _S2, _S2C)
            w = _tw(end, a) + 8
        z = self.fit(s, W - 8 - w)
        if not z and w:  # the title matters more than the count
            w = 0
            z = self.fit(s, W - 8)
        self.put(s, 4, 4 if z else 6, _FG, z)
        if w:
            self.put(end, W - w + 4, 4, _SEL, a)
        if step:
            i = step.find("/")
            if i < 0:
                return
            a = int(step[:i])
            n = int(step[i + 1:])
            if n <= 0:
                return
            w = (W - 2 * (n - 1)) // n
            x = (W - (w * n + 2 * (n - 1))) // 2
            for i in range(n):
                f(x, 21, w, 3, _SEL if i < a else _MID)
                x += w + 2

    def hint(self, s):
        """The bottom bar; a leading "^v" (UP/DOWN change the value) is drawn as two arrows."""
        self._f(0, _BAR_Y, W, H - _BAR_Y, _BAR)
        x = 4
        if s.startswith("^v"):
            self.arrow(4, _BAR_Y + 5, 0, _GREY, 6)
            self.arrow(18, _BAR_Y + 6, 1, _GREY, 6)
            x = 28
            s = s[2:]
        z = self.fit(s, W - 4 - x)
        self.put(s, x, _BAR_Y + (3 if z else 7), _GREY, z)

    def arrow(self, x, y, k=0, c=_GREY, s=9):
        """A filled triangle, 2s-1 wide and s high, pointing up (k = 0: tip at (x + s - 1, y)) or down."""
        for i in range(s):
            a = s - 1 - i if k else i
            self.fb.hline(x + s - 1 - a, y + i, 2 * a + 1, c)

    def key(self, k, x, y, c=_GREY):
        """The key that gives an answer: 0 = UP, 1 = OK, 2 = DOWN; 24 px wide, 16 high."""
        if k == 1:
            self.put("OK", x, y, c, _S2C)
        else:
            self.arrow(x + 3, y + 3 + k // 2, k, c)

    def home(self, a):
        """a: the App (reads a.T, a.game, a.dealer_team()). Allocates nothing."""
        f = self._f
        T = a.T
        g = a.game
        t = g.rules["target"]
        for i in (0, 1):
            k = _K[i]
            c = 4 + 3 * i
            x = 121 * i
            n = g.total[k]
            # the team's box in the header
            f(180 * i, 0, 60, 22, c)
            self.put(T[k], 2 + 180 * i, 4, _FG, _S2, 46, 1)
            # its panel: tinted, the total big, progress to the target
            f(x, 22, 119, 91, c + 1)
            w, y = (24, 5) if n < 10000 else (18, 4)
            digits.number(self.fb, n, x + (119 - digits.width(n, w, y)) // 2, 27, w, 56, 6, y, _FG)
            f(x + 6, 107, 107, 3, _MID)
            if t > 0 and n > 0:
                f(x + 6, 107, 107 if n >= t else 107 * n // t, 3, c)
            if g.results:  # the last deal's score
                self.put(g.results[-1].score[k], x + 112, 88, c + 2, _S2, 0, 2, "+")
        s = T["target"]  # "en 2000": the word, a space, the number (condensed: room on both sides)
        k = (width(s) >> 3) + 1 + ndigits(t)
        z = _S2C
        while z > _ST and _px(k, z) > 112:
            z -= 1
        x = self.put(s, 60 + (120 - _px(k, z)) // 2, 4, _GREY, z)
        self.put(t, x + _ADV[z], 4, _GREY, z)
        # status bar: deal number, dealer
        f(0, 113, W, H - 113, _BAR)
        self.put(len(g.deals) + 1, 4, 117, _DIM, _S2, 0, 0, "#")
        i = a.dealer_team() == "EW"
        k = T[_SEAT[g.dealer()]]
        s = T["dealer"]
        z = self.fit(s, 150, _S2, _S2C)
        x = self.put(s, W - 4 - _tw(k) - _ADV[z] - _tw(s, z), 117, _GREY, z)
        self.put(k, x + _ADV[z], 117, 6 + 3 * i)
        # the dealer's team box gets a marker (a white dot in its corner)
        x = 50 + 180 * i
        f(x, 9, 6, 4, _FG)
        f(x + 1, 8, 4, 6, _FG)

    # -- generic list (menus, settings, history) ------------------------
    def listing(self, title, items, index, start, end=None, hint=None):
        """items: the rows, strings (or (left, right) pairs); index: the selected one; start: the
        first shown; end: a count for the title bar.

        A right part made of two numbers ("80 484": NS then EW, as in the
        history) is drawn in the team colours."""
        f = self._f
        self.title(title, None, end)
        n = len(items)
        y = self.ROWS  # rows shown
        if hint:  # the hint bar takes the last row: keep the selection above it
            y -= 1
            if index >= start + y:
                start = index - y + 1
        rows = items[start:start + y]
        # one size for all the rows shown, the largest that fits the widest
        z = _S2
        for s in rows:
            while z > _ST:
                if isinstance(s, tuple):
                    w = _tw(s[0], z) + 16 + _tw(s[1], z)
                else:
                    w = _tw(s, z)
                if w <= W - 14:
                    break
                z -= 1
        k = start
        for s in rows:
            c = 22 + 16 * (k - start)
            a = _FG
            if k == index:
                f(0, c - 1, W - 5, 16, _SEL)
                a = _BG
            elif k & 1:
                f(0, c - 1, W - 5, 16, _BAR)
            if isinstance(s, tuple):
                p = s[1]
                w = W - 24 - _tw(p, z)  # the left part never runs into the right
                s = s[0]
                if _tw(s, z) > w:
                    s = s[:max(0, (w - 7 * _SX[z]) // _ADV[z] + 1)]
                # the right part, right-aligned: yellow, or "NS EW" numbers in the team colours
                i = p.find(" ")
                if i > 0 and p[:i].isdigit() and p[i + 1:].isdigit():
                    x = self.put(p[:i], W - 8 - _tw(p, z), c, 5 + (k != index), z)
                    self.put(p[i + 1:], x + _ADV[z], c, 8 + (k != index), z)
                else:
                    self.put(p, W - 8, c, _SEL if k != index else _BG, z, 0, 2)
            self.put(s, 4, c, a, z)
            k += 1
        if n > self.ROWS:  # scroll bar
            k = 16 * y
            f(W - 3, 21, 3, k, _MID)
            w = max(6, k * y // n)
            f(W - 3, 21 + (k - w) * start // max(1, n - y), 3, w, _GREY)
        if hint:
            self.hint(hint)

    # -- entry steps ----------------------------------------------------
    def picker(self, title, step, value, s, p, hint):
        """A value chosen with UP/DOWN: value is an int (big digits, then the label s after it)
        or None (then the label s big); p: the context line (or None)."""
        self.title(title, step)
        if p:
            self.fitc(p, 26, _GREY)
        self.arrow(6, 52)
        self.arrow(6, 88, 1)
        if value is None:
            self.fitc(s, 59, _FG, 24, W - 24, _S3)
        else:
            w = digits.width(value, 26, 6)
            x = (W - w) // 2
            if s:
                x -= (_tw(s) + 8) // 2
                self.put(s, x + w + 8, 80)
            digits.number(self.fb, value, x, 46, 26, 50, 6, 6, _FG)
        self.hint(hint)

    def mark_digits(self, value, end):
        """Mark the digit(s) being set under the picker's number: the units (end true), or the tens and above."""
        n = ndigits(value)
        x = (W - digits.width(value, 26, 6)) // 2
        if end:
            self._f(x + (n - 1) * 32, 100, 26, 4, _SEL)
        elif n > 1:
            self._f(x, 100, (n - 1) * 32 - 6, 4, _SEL)

    def choice3(self, title, step, a, b, c, value, hint):
        """Three choices a, b, c, (label, value) pairs, one key each: UP / OK / DOWN; value: the
        current one; hint: the context line (or None)."""
        fb = self.fb
        self.title(title, step)
        for i, (s, v) in enumerate((a, b, c)):
            y = 27 + 29 * i
            self.key(i, 6, y + 3)
            c = _FG
            if v == value:
                fb.fill_rect(36, y, W - 36, 22, _SEL)
                c = _BG
            elif v in _K:  # a team: in its colours
                c = 6 + 3 * (v == "EW")
                fb.rect(36, y, W - 36, 22, c - 2)
            else:
                fb.rect(36, y, W - 36, 22, _MID)
            self.put(s, 42, y + 3, c, self.fit(s, W - 48))
        if hint:
            self.hint(hint)

    def extras(self, title, step, a, b, p, hint):
        """a: the coinche line (UP), b: the belote line (DOWN), p: the context (or None)."""
        self.title(title, step)
        self.arrow(6, 32)
        self.put(a, 32, 30, _FG, self.fit(a, W - 36))
        self.arrow(6, 62, 1)
        self.put(b, 32, 60, _FG, self.fit(b, W - 36))
        if p:
            self.fitc(p, 90, _GREY)
        self.hint(hint)

    def melds(self, title, step, a, x, b, y, hint):
        """Each team's melds: a and b the NS and EW labels, x and y their lists of strings."""
        f = self._f
        self.title(title, step)
        z = _S2
        for s in x + y:
            z = min(z, self.fit(s, 111))
        for i, label, items in ((0, a, x), (1, b, y)):
            x0 = 121 * i
            f(x0, 25, 119, 20, 4 + 3 * i)
            self.key(2 * i, x0 + 4, 27, _FG)
            self.put(label, x0 + 34, 27)
            f(x0, 45, 119, 68, 5 + 3 * i)
            n = len(items)
            k = n if n <= 4 else 3
            for j in range(k):
                self.put(items[j], x0 + 4, 48 + 16 * j, _FG, z)
            if k < n:
                self.put(n - k, x0 + 4, 48 + 16 * k, _GREY, z or _ST, 0, 0, "+")
        self.hint(hint)

    def confirm(self, title, s, p, a, x, b, y, t, u, hint, e, value=None):
        """The deal before it is saved: s the contract, p the verdict, a and b the NS and EW labels,
        x and y the deal's scores, t and u the totals after it; e: (error, field) instead of the
        scores; value: whether the contract was made (None: no verdict colour)."""
        fb = self.fb
        self.title(title)
        self.fitc(s, 23)
        if e:
            _frame(fb, 0, 44, W, 68, _BAD)
            self.fitc(e[0], 52, _BAD)
            self.fitc(e[1], 78)
        else:
            self.fitc(p, 41, _SEL if value is None else (_GOOD if value else _BAD))
            for i, label, score, total in ((0, a, x, t), (1, b, y, u)):
                x0 = 121 * i
                fb.fill_rect(x0, 60, 119, 53, 5 + 3 * i)
                k = _tw(label) + 8
                fb.fill_rect(x0, 60, k + 2, 20, 4 + 3 * i)
                self.put(label, x0 + 5, 62)
                w = 18 if digits.width(score, 18, 4) <= 107 - k else 13
                digits.number(fb, score, x0 + 113, 63, w, 30, 4, 4, 6 + 3 * i, True)
                self.put(total, x0 + 113, 96, _FG, _S2, 0, 2, "=")
        self.hint(hint)

    def ask(self, s, p, hint):
        """A question s, with a detail line p (or None)."""
        _frame(self.fb, 0, 0, W, _BAR_Y - 2, _SEL)
        self.fitc(s, 34 if p else 48)
        if p:
            self.fitc(p, 66, _GREY)
        self.hint(hint)

    def game_over(self, title, s, a, x, b, y, hint):
        """s: the winner's line; a and b the NS and EW labels, x and y their final totals."""
        f = self._f
        self.title(title)
        c = _FG
        if s.startswith(a):
            c = _NS_LT
        elif s.startswith(b):
            c = _EW_LT
        self.fitc(s, 26, c, 0, W, _S3)
        # each team's final total: a header bar with the team, the number below it
        for i, label, n in ((0, a, x), (1, b, y)):
            x0 = 121 * i
            f(x0, 55, 119, 18, 4 + 3 * i)
            self.put(label, x0, 56, _FG, _S2, 119, 1)
            f(x0, 73, 119, 40, 5 + 3 * i)
            w = 20 if n < 10000 else 16
            digits.number(self.fb, n, x0 + (119 - digits.width(n, w, 5)) // 2, 76, w, 34, 5, 5, _FG)
        self.hint(hint)

    def toast(self, s):
        """A short message over the bottom of the screen (on home: not over the totals)."""
        z = self.fit(s, W - 20)
        w = min(W, _tw(s, z) + 20)
        x = (W - w) // 2
        self._f(x, 103, w, 32, _BAR)
        _frame(self.fb, x, 103, w, 32, _SEL)
        self.put(s, x + 10, 111 if z else 115, _FG, z)


def _frame(fb, x, y, w, h, c):
    """A rectangle two pixels thick."""
    fb.rect(x, y, w, h, c)
    fb.rect(x + 1, y + 1, w - 2, h - 2, c)
