"""Layout for a 128x64 monochrome display (SSD1306/SH1106, and the simulator).

Screens hand over plain data; this module decides where pixels go, so a larger
colour display gets its own layout module with the same methods.
Home is drawn from ints and constant strings only: a redraw allocates nothing.
"""
from coinche.compat import const
from ui import digits
from ui.text import center, num, text, width

W = const(128)
H = const(64)


class Layout:
    ROWS = 6  # list rows under the title

    def __init__(self, fb):
        self.fb = fb
        self.W = W
        self.H = H
        import framebuf
        self._cell = bytearray(8)
        self._scratch = framebuf.FrameBuffer(self._cell, 8, 8, framebuf.MONO_VLSB)

    # -- primitives ------------------------------------------------------
    def clear(self):
        self.fb.fill(0)

    def title(self, s, right=None):
        fb = self.fb
        fb.fill_rect(0, 0, W, 9, 1)
        text(fb, s, 1, 1, 0)
        if right is not None and width(s) + width(right) + 10 <= W:
            text(fb, right, W - width(right) - 1, 1, 0)

    def hint(self, s):
        fb = self.fb
        fb.hline(0, 54, W, 1)
        text(fb, s, 0, 56, 1)

    def big_text(self, s, y, x=None):
        """Text at twice the 8x8 size (pixel doubling through a one-cell scratch buffer)."""
        fb = self.fb
        w = width(s) * 2
        if w > W:  # too long for double size: normal size, centred
            center(fb, s, y + 4, W)
            return
        x = (W - w) // 2 if x is None else x
        sc = self._scratch
        for ch in s:
            sc.fill(0)
            text(sc, ch, 0, 0, 1)
            for py in range(8):
                for px in range(8):
                    if sc.pixel(px, py):
                        fb.fill_rect(x + 2 * px, y + 2 * py, 2, 2, 1)
            x += 16

    def arrow_up(self, x, y, c=1):
        for i in range(4):
            self.fb.hline(x + 3 - i, y + i, 2 * i + 1, c)

    def arrow_down(self, x, y, c=1):
        for i in range(4):
            self.fb.hline(x + i, y + i, 7 - 2 * i, c)

    def ok_mark(self, x, y, c=1):
        self.fb.rect(x, y, 7, 7, c)
        self.fb.fill_rect(x + 2, y + 2, 3, 3, c)

    # -- home ------------------------------------------------------------------
    def home(self, a):
        """a: the App (reads a.T, a.game, a.last_scores())."""
        fb = self.fb
        T = a.T
        g = a.game
        text(fb, T["NS"], 0, 0)
        text(fb, T["EW"], W - width(T["EW"]), 0)
        # target, centred: "to 2000"
        tw = width(T["target"]) + 8 + 8 * _nd(g.rules["target"])
        x = (W - tw) // 2
        x = text(fb, T["target"], x, 0) + 8
        num(fb, g.rules["target"], x, 0)
        fb.vline(64, 10, 40, 1)
        ns = g.total["NS"]
        ew = g.total["EW"]
        digits.number(fb, ns, 61, 11, 13, 30, 3, 2, 1, True)
        digits.number(fb, ew, 126, 11, 13, 30, 3, 2, 1, True)
        if g.results:
            r = g.results[-1]
            x = text(fb, "+", 61 - 8 - 8 * _nd(r.score["NS"]), 44)
            num(fb, r.score["NS"], x, 44)
            x = text(fb, "+", 126 - 8 - 8 * _nd(r.score["EW"]), 44)
            num(fb, r.score["EW"], x, 44)
        fb.hline(0, 54, W, 1)
        x = text(fb, "#", 0, 56)
        num(fb, len(g.deals) + 1, x, 56)
        # dealer: "Dealer W", right-aligned, and a marker on the dealer's side
        seat = a.seat_label()
        x = W - width(seat) - 8 - width(T["dealer"])
        x = text(fb, T["dealer"], x, 56) + 8
        text(fb, seat, x, 56)
        if a.dealer_team() == "NS":
            fb.fill_rect(20, 2, 4, 4, 1)
        else:
            fb.fill_rect(W - 24, 2, 4, 4, 1)

    # -- generic list (menus, settings, history) ---------------------------
    def listing(self, title, rows, sel, top, right=None, hint=None):
        """rows: strings (or (left, right) pairs); sel: selected index; top: first shown."""
        fb = self.fb
        self.title(title, right)
        n = len(rows)
        for i in range(self.ROWS):
            k = top + i
            if k >= n:
                break
            y = 10 + 8 * i
            row = rows[k]
            c = 1
            if k == sel:
                fb.fill_rect(0, y, W - 3, 8, 1)
                c = 0
            if isinstance(row, tuple):
                rx = W - 4 - width(row[1])
                left = row[0]
                if 1 + width(left) + 3 > rx:  # no room: cut the label, never overprint the value
                    left = left[:max(0, (rx - 4) // 8)]
                text(fb, left, 1, y, c)
                text(fb, row[1], rx, y, c)
            else:
                text(fb, row, 1, y, c)
        if n > self.ROWS:  # scroll bar
            h = max(4, 48 * self.ROWS // n)
            y = 10 + (48 - h) * top // max(1, n - self.ROWS)
            fb.fill_rect(W - 2, y, 2, h, 1)
        if hint:
            fb.fill_rect(0, 56, W, 8, 0)
            text(fb, hint, 0, 56, 1)

    # -- entry steps ------------------------------------------------------
    def picker(self, title, step, value, label, context, hint):
        """A value chosen with UP/DOWN: value is an int (big digits) or None (then label)."""
        fb = self.fb
        self.title(title, step)
        self.arrow_up(2, 20)
        self.arrow_down(2, 32)
        if value is not None:
            w = digits.width(value, 14, 3)
            digits.number(fb, value, (W - w) // 2, 16, 14, 22, 3, 3)
            if label:
                text(fb, label, (W + w) // 2 + 3, 30)
        elif width(label) * 2 <= W - 24:
            self.big_text(label, 19)
        else:  # double size would run over the arrows
            center(fb, label, 23, W)
        if context:
            center(fb, context, 45, W)
        self.hint(hint)

    def mark_digits(self, value, units):
        """Underline the digit(s) being set under the picker's number: the units, or the tens and above."""
        nd = 1
        v = value
        while v >= 10:
            v //= 10
            nd += 1
        x0 = (W - digits.width(value, 14, 3)) // 2
        if units:
            self.fb.fill_rect(x0 + (nd - 1) * 17, 40, 14, 2, 1)
        elif nd >= 2:
            self.fb.fill_rect(x0, 40, (nd - 1) * 17 - 3, 2, 1)

    def choice3(self, title, step, up, ok, down, current, context):
        """Three choices, one key each: UP / OK / DOWN."""
        fb = self.fb
        self.title(title, step)
        for i, (lab, val) in enumerate((up, ok, down)):
            y = 12 + 13 * i
            if i == 0:
                self.arrow_up(2, y + 2)
            elif i == 1:
                text(fb, "OK", 0, y)
            else:
                self.arrow_down(2, y + 2)
            if val == current:
                fb.fill_rect(18, y - 1, W - 18, 10, 1)
                text(fb, lab, 20, y, 0)
            else:
                text(fb, lab, 20, y, 1)
        if context:
            fb.hline(0, 52, W, 1)
            center(fb, context, 55, W)

    def extras(self, title, step, coinche, belote, context, hint):
        fb = self.fb
        self.title(title, step)
        self.arrow_up(2, 15)
        text(fb, coinche, 14, 14)
        self.arrow_down(2, 31)
        text(fb, belote, 14, 30)
        if context:
            center(fb, context, 44, W)
        self.hint(hint)

    def melds(self, title, step, ns_label, ns, ew_label, ew, hint):
        fb = self.fb
        self.title(title, step)
        self.arrow_up(2, 14)
        text(fb, ns_label, 12, 12)
        y = 12
        for s in ns:
            text(fb, s, 40, y)
            y += 8
        y2 = max(y, 28) + 2
        self.arrow_down(2, y2 + 2)
        text(fb, ew_label, 12, y2)
        y = y2
        for s in ew:
            text(fb, s, 40, y)
            y += 8
        self.hint(hint)

    def confirm(self, title, contract, verdict, ns_label, ns, ew_label, ew, tot_ns, tot_ew, hint, error,
                made=None):
        fb = self.fb
        self.title(title)
        center(fb, contract, 11, W)
        if error:
            if width(error[0]) <= W - 4 and width(error[1]) <= W - 4:
                fb.rect(0, 21, W, 30, 1)
            else:  # a full-width line would touch the sides of a box
                fb.hline(0, 21, W, 1)
                fb.hline(0, 50, W, 1)
            center(fb, error[0], 25, W)
            center(fb, error[1], 37, W)
        else:
            center(fb, verdict, 21, W)
            text(fb, ns_label, 0, 33)
            digits.number(fb, ns, 60, 31, 8, 13, 2, 2, 1, True)
            text(fb, ew_label, 67, 33)
            digits.number(fb, ew, 126, 31, 8, 13, 2, 2, 1, True)
            fb.fill_rect(0, 45, W, 9, 0)
            x = text(fb, "=", 20, 46)
            num(fb, tot_ns, x, 46)
            x = text(fb, "=", 86, 46)
            num(fb, tot_ew, x, 46)
        self.hint(hint)

    def ask(self, question, detail, hint):
        fb = self.fb
        lines = (question,)
        if width(question) > W:  # "Annuler donne 11?": two lines rather than cut at both ends
            i = question.rfind(" ")
            if i > 0:
                lines = (question[:i], question[i + 1:])
        if max(width(s) for s in lines) <= W - 4 and (not detail or width(detail) <= W - 4):
            fb.rect(0, 0, W, 54, 1)
        y = 16 if len(lines) == 1 else 9
        for s in lines:
            center(fb, s, y, W)
            y += 10
        if detail:
            center(fb, detail, 30 if len(lines) == 1 else 34, W)
        self.hint(hint)

    def game_over(self, title, winner_line, ns_label, ns, ew_label, ew, hint):
        fb = self.fb
        self.title(title)
        self.big_text(winner_line, 12)
        text(fb, ns_label, 0, 36)
        num(fb, ns, 60, 36, 1, True)
        text(fb, ew_label, 68, 36)
        num(fb, ew, 127, 36, 1, True)
        self.hint(hint)

    def toast(self, s):
        fb = self.fb
        tw = width(s)
        if tw > W - 8:  # no room for a frame: a full-width inverted band
            fb.fill_rect(0, 22, W, 18, 1)
            text(fb, s, (W - tw) // 2, 27, 0)
            return
        w = tw + 8
        x = (W - w) // 2
        fb.fill_rect(x, 22, w, 18, 0)
        fb.rect(x, 22, w, 18, 1)
        text(fb, s, x + 4, 27)


def _nd(n):
    k = 1
    while n >= 10:
        n //= 10
        k += 1
    return k
