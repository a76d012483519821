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

_SCR_COLS = const(32)  # scratch line: 32 characters of 8 px
_SCR_ROWS = const(10)  # 2 rows above the cell for capital accents

_SEAT = {"N": "seat_N", "E": "seat_E", "S": "seat_S", "W": "seat_W"}

_BAR_Y = const(115)  # hint bar: 115..134
_TITLE_H = const(20)


@micropython.viper
def _scale(fb, b: ptr8, n: int, x: int, y: int, sx: int, sy: int, adv: int, c: int):
    """Draw n 8-px cells of the scratch line b (MONO_HLSB, 32 bytes a row, 10 rows) on fb,
    each pixel sx by sy, cells adv apart; runs of set bits become one fill_rect each.
    Viper: about 7x faster than the same loop in Python, and it allocates nothing."""
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


class Layout:
    ROWS = 7  # list rows under the title (16 px each)

    def __init__(self, fb):
        self.fb = fb
        self.W = W
        self.H = H
        self._sbuf = bytearray(_SCR_COLS * _SCR_ROWS)
        self._scr = framebuf.FrameBuffer(self._sbuf, _SCR_COLS * 8, _SCR_ROWS, framebuf.MONO_HLSB)
        if hasattr(fb, "palette"):
            for i in range(16):
                fb.palette(i, PALETTE[i])

    # -- text ------------------------------------------------------------
    def tw(self, s, size=_S2):
        """Width in pixels of s drawn at size (to the end of the last cell's ink)."""
        n = width(s) >> 3
        if n == 0:
            return 0
        return (n - 1) * _ADV[size] + 7 * _SX[size]

    def fit(self, s, w, big=_S2, small=_ST):
        """The largest size from big down to small at which s fits in w pixels (else 8x8)."""
        size = big
        while size >= small:
            if self.tw(s, size) <= w:
                return size
            size -= 1
        return _S1

    def put(self, s, x, y, c=_FG, size=_S2):
        """Draw s with its cell's top-left at (x, y); returns the x after it."""
        if size == _S1:
            return text(self.fb, s, x, y, c)
        scr = self._scr
        scr.fill(0)
        text(scr, s, 0, 2, 1)
        n = width(s) >> 3
        self._blit(n, x, y, size, c)
        return x + n * _ADV[size]

    def putn(self, n, x, y, c=_FG, size=_S2, prefix=None):
        """Draw the integer n (with an optional one-character prefix) without allocating."""
        scr = self._scr
        scr.fill(0)
        k = 0
        if prefix is not None:
            scr.text(prefix, 0, 2, 1)
            k = 1
        k = num(scr, n, 8 * k, 2) >> 3
        self._blit(k, x, y, size, c)
        return x + k * _ADV[size]

    def ntw(self, n, size=_S2, prefix=False):
        k = 1
        if n < 0:
            n = -n
            k += 1
        while n >= 10:
            n //= 10
            k += 1
        if prefix:
            k += 1
        return (k - 1) * _ADV[size] + 7 * _SX[size]

    def _blit(self, n, x, y, size, c):
        """Copy n characters of the scratch line to (x, y), scaled."""
        _scale(self.fb, self._sbuf, n if n < _SCR_COLS else _SCR_COLS, x, y, _SX[size], _SY[size], _ADV[size], c)

    def center(self, s, y, c=_FG, size=_S2, x0=0, w=W):
        self.put(s, x0 + (w - self.tw(s, size)) // 2, y, c, size)

    def center_fit(self, s, y, c=_FG, x0=0, w=W, big=_S2):
        """Centred at the largest size that fits; 16 px high (or 8 when nothing else fits)."""
        size = self.fit(s, w - 4, big)
        if size == _S1:
            y += 4
        elif big == _S3 and size != _S3:
            y += 4
        self.center(s, y, c, size, x0, w)

    # -- primitives ------------------------------------------------------
    def clear(self):
        self.fb.fill(_BG)

    def title(self, s, right=None, step=None):
        fb = self.fb
        fb.fill_rect(0, 0, W, _TITLE_H, _TITLE)
        rw = 0
        if right:
            rs = self.fit(right, 64, _S2, _S2C)
            rw = self.tw(right, rs) + 8
        size = self.fit(s, W - 8 - rw)
        if size == _S1 and right:  # the title matters more than the count
            rw = 0
            size = self.fit(s, W - 8)
        self.put(s, 4, 4 if size != _S1 else 6, _FG, size)
        if rw:
            self.put(right, W - rw + 4, 4, _SEL, rs)
        if step:
            self.steps(step)

    def steps(self, step):
        """'3/7' as seven segments under the title bar, the first three lit."""
        i = step.find("/")
        if i < 0:
            return
        k = int(step[:i])
        n = int(step[i + 1:])
        if n <= 0:
            return
        fb = self.fb
        sw = (W - 2 * (n - 1)) // n
        x = (W - (sw * n + 2 * (n - 1))) // 2
        for j in range(n):
            fb.fill_rect(x, _TITLE_H + 1, sw, 3, _SEL if j < k else _MID)
            x += sw + 2

    def hint(self, s):
        """The bottom bar; a leading "^v" (UP/DOWN change the value) is drawn as two arrows."""
        self.fb.fill_rect(0, _BAR_Y, W, H - _BAR_Y, _BAR)
        x = 4
        if s.startswith("^v"):
            self.arrow_up(x, _BAR_Y + 5, _GREY, 6)
            self.arrow_down(x + 14, _BAR_Y + 6, _GREY, 6)
            x = 28
            s = s[2:]
        size = self.fit(s, W - 4 - x)
        self.put(s, x, _BAR_Y + (3 if size != _S1 else 7), _GREY, size)

    def arrow_up(self, x, y, c=_GREY, s=9):
        """A filled triangle pointing up, 2s-1 wide and s high, top at (x + s - 1, y)."""
        for i in range(s):
            self.fb.hline(x + s - 1 - i, y + i, 2 * i + 1, c)

    def arrow_down(self, x, y, c=_GREY, s=9):
        for i in range(s):
            self.fb.hline(x + i, y + i, 2 * (s - i) - 1, c)

    def key_mark(self, k, x, y, c=_GREY):
        """The key that gives an answer: 0 = UP, 1 = OK, 2 = DOWN; 24 px wide, 16 high."""
        if k == 0:
            self.arrow_up(x + 3, y + 3, c)
        elif k == 2:
            self.arrow_down(x + 3, y + 4, c)
        else:
            self.put("OK", x, y, c, _S2C)

    def home(self, a):
        """a: the App (reads a.T, a.game, a.dealer_team()). Allocates nothing."""
        fb = self.fb
        T = a.T
        g = a.game
        target = g.rules["target"]
        ns = g.total["NS"]
        ew = g.total["EW"]
        # header: team boxes, the target between them
        fb.fill_rect(0, 0, 60, 22, _NS)
        fb.fill_rect(180, 0, 60, 22, _EW)
        s = T["NS"]
        self.put(s, 2 + (46 - self.tw(s)) // 2, 4)
        s = T["EW"]
        self.put(s, 182 + (46 - self.tw(s)) // 2, 4)
        s = T["target"]  # "en 2000": the word, a space, the number (condensed: room on both sides)
        k = (width(s) >> 3) + 1 + ndigits(target)
        size = _S2C
        while size > _ST and (k - 1) * _ADV[size] + 7 * _SX[size] > 112:
            size -= 1
        x = 60 + (120 - (k - 1) * _ADV[size] - 7 * _SX[size]) // 2
        x = self.put(s, x, 4, _GREY, size)
        self.putn(target, x + _ADV[size], 4, _GREY, size)
        # the panels
        self._panel(0, ns, target, _NS_DK, _NS)
        self._panel(121, ew, target, _EW_DK, _EW)
        if g.results:
            r = g.results[-1]
            n = r.score["NS"]
            self.putn(n, 112 - self.ntw(n, _S2, True), 88, _NS_LT, _S2, "+")
            n = r.score["EW"]
            self.putn(n, 233 - self.ntw(n, _S2, True), 88, _EW_LT, _S2, "+")
        # status bar: deal number, dealer
        fb.fill_rect(0, 113, W, H - 113, _BAR)
        x = self.put("#", 4, 117, _DIM)
        self.putn(len(g.deals) + 1, x, 117, _DIM)
        team = a.dealer_team()
        seat = T[_SEAT[g.dealer()]]
        s = T["dealer"]
        size = self.fit(s, 150, _S2, _S2C)
        x = W - 4 - self.tw(seat) - _ADV[size] - self.tw(s, size)
        x = self.put(s, x, 117, _GREY, size)
        self.put(seat, x + _ADV[size], 117, _NS_LT if team == "NS" else _EW_LT)
        # the dealer's team box gets a marker (a white dot in its corner)
        x = 50 if team == "NS" else 230
        fb.fill_rect(x, 8, 6, 6, _FG)
        fb.pixel(x, 8, _NS if team == "NS" else _EW)
        fb.pixel(x + 5, 8, _NS if team == "NS" else _EW)
        fb.pixel(x, 13, _NS if team == "NS" else _EW)
        fb.pixel(x + 5, 13, _NS if team == "NS" else _EW)

    def _panel(self, x0, total, target, dark, c):
        """One team's column of the home screen: tinted, the total big, progress to the target."""
        fb = self.fb
        fb.fill_rect(x0, 22, 119, 91, dark)
        if total < 10000:
            w, gap = 24, 5
        else:
            w, gap = 18, 4
        dw = digits.width(total, w, gap)
        digits.number(fb, total, x0 + (119 - dw) // 2, 27, w, 56, 6, gap, _FG)
        # progress to the target
        fb.fill_rect(x0 + 6, 107, 107, 3, _MID)
        if target > 0 and total > 0:
            p = 107 if total >= target else 107 * total // target
            fb.fill_rect(x0 + 6, 107, p, 3, c)

    # -- generic list (menus, settings, history) ------------------------
    def listing(self, title, rows, sel, top, right=None, hint=None):
        """rows: strings (or (left, right) pairs); sel: selected index; top: first shown.

        A right part made of two numbers ("80 484": NS then EW, as in the
        history) is drawn in the team colours."""
        fb = self.fb
        self.title(title, right)
        n = len(rows)
        shown = self.ROWS
        if hint:  # the hint bar takes the last row: keep the selection above it
            shown -= 1
            if sel >= top + shown:
                top = sel - shown + 1
        avail = W - 14
        # one size for all the rows shown, the largest that fits the widest
        size = _S2
        for i in range(shown):
            k = top + i
            if k >= n:
                break
            row = rows[k]
            while size > _ST:
                if isinstance(row, tuple):
                    need = self.tw(row[0], size) + 16 + self.tw(row[1], size)
                else:
                    need = self.tw(row, size)
                if need <= avail:
                    break
                size -= 1
        for i in range(shown):
            k = top + i
            if k >= n:
                break
            y = _TITLE_H + 2 + 16 * i
            row = rows[k]
            c = _FG
            if k == sel:
                fb.fill_rect(0, y - 1, W - 5, 16, _SEL)
                c = _BG
            elif k & 1:
                fb.fill_rect(0, y - 1, W - 5, 16, _BAR)
            if isinstance(row, tuple):
                left = row[0]
                room = W - 8 - self.tw(row[1], size) - 12 - 4  # the left part never runs into the right
                if self.tw(left, size) > room:
                    left = left[:max(0, (room - 7 * _SX[size]) // _ADV[size] + 1)]
                self.put(left, 4, y, c, size)
                self._right(row[1], W - 8, y, k == sel, size)
            else:
                self.put(row, 4, y, c, size)
        if n > self.ROWS:  # scroll bar
            th = 16 * shown
            fb.fill_rect(W - 3, _TITLE_H + 1, 3, th, _MID)
            h = max(6, th * shown // n)
            y = _TITLE_H + 1 + (th - h) * top // max(1, n - shown)
            fb.fill_rect(W - 3, y, 3, h, _GREY)
        if hint:
            self.hint(hint)

    def _right(self, s, x1, y, selected, size):
        """A row's right part, right-aligned at x1: yellow, or "NS EW" numbers in the team colours."""
        i = s.find(" ")
        if i > 0 and _is_int(s[:i]) and _is_int(s[i + 1:]):
            a = s[:i]
            b = s[i + 1:]
            x = x1 - self.tw(s, size)
            x = self.put(a, x, y, _NS_DK if selected else _NS_LT, size)
            self.put(b, x + _ADV[size], y, _EW_DK if selected else _EW_LT, size)
        else:
            self.put(s, x1 - self.tw(s, size), y, _BG if selected else _SEL, size)

    # -- entry steps ----------------------------------------------------
    def picker(self, title, step, value, label, context, hint):
        """A value chosen with UP/DOWN: value is an int (big digits) or None (then label)."""
        fb = self.fb
        self.title(title, None, step)
        if context:
            self.center_fit(context, 26, _GREY)
        self.arrow_up(6, 52)
        self.arrow_down(6, 88)
        if value is not None:
            w = digits.width(value, 26, 6)
            x = (W - w) // 2
            if label:
                x -= (self.tw(label) + 8) // 2
            digits.number(fb, value, x, 46, 26, 50, 6, 6, _FG)
            if label:
                self.put(label, x + w + 8, 80, _FG)
        else:
            self.center_fit(label, 59, _FG, 24, W - 24, _S3)
        self.hint(hint)

    def mark_digits(self, value, units):
        """Mark the digit(s) being set under the picker's number: the units, or the tens and above."""
        nd = 1
        v = value
        while v >= 10:
            v //= 10
            nd += 1
        x0 = (W - digits.width(value, 26, 6)) // 2
        if units:
            x, w = x0 + (nd - 1) * 32, 26
        elif nd >= 2:
            x, w = x0, (nd - 1) * 32 - 6
        else:
            return
        self.fb.fill_rect(x, 100, w, 4, _SEL)

    def choice3(self, title, step, up, ok, down, current, context):
        """Three choices, one key each: UP / OK / DOWN."""
        fb = self.fb
        self.title(title, None, step)
        for i, (lab, val) in enumerate((up, ok, down)):
            y = 27 + 29 * i
            self.key_mark(i, 6, y + 3)
            size = self.fit(lab, W - 48, _S2, _ST)
            if val == current:
                fb.fill_rect(36, y, W - 36, 22, _SEL)
                self.put(lab, 42, y + 3, _BG, size)
            elif val == "NS" or val == "EW":  # a team: in its colours
                fb.rect(36, y, W - 36, 22, _NS if val == "NS" else _EW)
                self.put(lab, 42, y + 3, _NS_LT if val == "NS" else _EW_LT, size)
            else:
                fb.rect(36, y, W - 36, 22, _MID)
                self.put(lab, 42, y + 3, _FG, size)
        if context:
            self.hint(context)

    def extras(self, title, step, coinche, belote, context, hint):
        self.title(title, None, step)
        self.arrow_up(6, 32)
        self.put(coinche, 32, 30, _FG, self.fit(coinche, W - 36))
        self.arrow_down(6, 62)
        self.put(belote, 32, 60, _FG, self.fit(belote, W - 36))
        if context:
            self.center_fit(context, 90, _GREY)
        self.hint(hint)

    def melds(self, title, step, ns_label, ns, ew_label, ew, hint):
        self.title(title, None, step)
        size = _S2
        for s in ns + ew:
            size = min(size, self.fit(s, 111, _S2, _ST))
        self._meld_col(0, 0, ns_label, ns, _NS, _NS_DK, size)
        self._meld_col(121, 2, ew_label, ew, _EW, _EW_DK, size)
        self.hint(hint)

    def _meld_col(self, x0, key, label, items, c, dark, size):
        fb = self.fb
        fb.fill_rect(x0, 25, 119, 20, c)
        self.key_mark(key, x0 + 4, 27, _FG)
        self.put(label, x0 + 34, 27, _FG)
        fb.fill_rect(x0, 45, 119, 68, dark)
        n = len(items)
        shown = n if n <= 4 else 3
        y = 48
        for i in range(shown):
            s = items[i]
            self.put(s, x0 + 4, y, _FG, size)
            y += 16
        if shown < n:
            self.putn(n - shown, x0 + 4, y, _GREY, size if size != _S1 else _ST, "+")

    def confirm(self, title, contract, verdict, ns_label, ns, ew_label, ew, tot_ns, tot_ew, hint, error,
                made=None):
        fb = self.fb
        self.title(title)
        self.center_fit(contract, 23)
        if error:
            fb.rect(0, 44, W, 68, _BAD)
            fb.rect(1, 45, W - 2, 66, _BAD)
            self.center_fit(error[0], 52, _BAD)
            self.center_fit(error[1], 78, _FG)
        else:
            self.center_fit(verdict, 41, _SEL if made is None else (_GOOD if made else _BAD))
            self._score(0, ns_label, ns, tot_ns, _NS_DK, _NS, _NS_LT)
            self._score(121, ew_label, ew, tot_ew, _EW_DK, _EW, _EW_LT)
        self.hint(hint)

    def _score(self, x0, label, score, total, dark, c, light):
        fb = self.fb
        fb.fill_rect(x0, 60, 119, 53, dark)
        lw = self.tw(label) + 8
        fb.fill_rect(x0, 60, lw + 2, 20, c)
        self.put(label, x0 + 5, 62, _FG)
        w = 18
        dw = digits.width(score, w, 4)
        if dw > 113 - lw - 6:
            w = 13
            dw = digits.width(score, w, 4)
        digits.number(fb, score, x0 + 113 - dw, 63, w, 30, 4, 4, light)
        x = x0 + 113 - self.ntw(total, _S2, True)
        self.putn(total, x, 96, _FG, _S2, "=")

    def ask(self, question, detail, hint):
        fb = self.fb
        fb.rect(0, 0, W, _BAR_Y - 2, _SEL)
        fb.rect(1, 1, W - 2, _BAR_Y - 4, _SEL)
        self.center_fit(question, 34 if detail else 48)
        if detail:
            self.center_fit(detail, 66, _GREY)
        self.hint(hint)

    def game_over(self, title, winner_line, ns_label, ns, ew_label, ew, hint):
        self.title(title)
        if winner_line.startswith(ns_label):
            c = _NS_LT
        elif winner_line.startswith(ew_label):
            c = _EW_LT
        else:
            c = _FG
        self.center_fit(winner_line, 26, c, 0, W, _S3)
        self._final(0, ns_label, ns, _NS, _NS_DK)
        self._final(121, ew_label, ew, _EW, _EW_DK)
        self.hint(hint)

    def _final(self, x0, label, n, c, dark):
        """One team's final total: a header bar with the team, the number below it."""
        fb = self.fb
        fb.fill_rect(x0, 55, 119, 18, c)
        self.center(label, 56, _FG, _S2, x0, 119)
        fb.fill_rect(x0, 73, 119, 40, dark)
        w = 20 if n < 10000 else 16
        dw = digits.width(n, w, 5)
        digits.number(fb, n, x0 + (119 - dw) // 2, 76, w, 34, 5, 5, _FG)

    def toast(self, s):
        """A short message over the bottom of the screen (on home: not over the totals)."""
        fb = self.fb
        size = self.fit(s, W - 20)
        w = min(W, self.tw(s, size) + 20)
        x = (W - w) // 2
        fb.fill_rect(x, 103, w, 32, _BAR)
        fb.rect(x, 103, w, 32, _SEL)
        fb.rect(x + 1, 104, w - 2, 30, _SEL)
        self.put(s, x + 10, 111 if size != _S1 else 115, _FG, size)


def _is_int(s):
    """True for a plain non-negative integer like "484"."""
    if not s:
        return False
    for ch in s:
        if not "0" <= ch <= "9":
            return False
    return True
