"""Layout for a 128x64 monochrome display (SSD1306/SH1106, and the simulator).

Screens hand over plain data; this module decides where pixels go, so a larger
colour display gets its own layout module with the same methods.

Every string is drawn by label() into a region (a rectangle) that the layout
names: the string is aligned in it, drawn at double size when asked and there is
room, and never runs outside it unnoticed. When `probe` is set (the text-fit
test, tests/test_text_fit.py), every drawing reports what it drew and its
region, so a test can prove that nothing is cut, leaves its region or
overlaps another text, in every language and on every screen.
Home is drawn from ints and prepared strings only: a redraw allocates nothing.
"""
from coinche.compat import const
from render import digits
from render.text import DIG, Regions, narrow_text, ndigits, num, text, width

W = const(128)
H = const(64)
HALF = const(64)  # the two team columns: [0, 63) and [65, 128), a line at 64 between them
LIST_TOP = const(10)  # first list row under the title bar
DEAL_ROW = const(18)  # history and past games: two text lines per row and an underline


class Layout(Regions):
    ROWS = 6  # list rows under the title
    HINT_ROWS = 5  # list rows above the hint
    RECORD_ROWS = 3  # history / past games rows (two lines each) under the title
    # the drawings of the deals lists, game over and a round's end: loaded by the screen
    # that draws one (on_demand.py)
    OFF_PATH = "render.layout_128x64_off_path"

    def __init__(self, fb):
        self.fb = fb
        self.W = W
        self.H = H
        self._digits_top = 16  # the top of the picker's digits (mark_digits): 16, or 11 over rows of keys
        import framebuf
        self._cell = bytearray(8)
        self._scratch = framebuf.FrameBuffer(self._cell, 8, 8, framebuf.MONO_VLSB)

    # -- text in regions ------------------------------------------------------
    def label(self, string, x, y, region_width, align=0, colour=1, big=False, prefix=None, narrow=False):
        """Draw s (a string, or an int: nothing allocated) in the region of region_width
        pixels from x on line y (16 px high if big, else 8), aligned 0 left, 1 centred, 2
        right, at double size if big and it fits, after a one-character prefix if any;
        narrow: an int in digits 7 px apart (columns of figures). A string wider than
        its region is cut at the region's edge (the probe sees the whole width, so the
        text-fit test fails). Returns the x after it."""
        is_text = isinstance(string, str)
        if narrow and not is_text and string >= 0:
            n = 7 * ndigits(string) - 1
            dx = self.place(string, x, y, region_width, 8, n, 8, align)
            k = ndigits(string)
            while k:
                k -= 1
                self.fb.text(DIG[string % 10], dx + 7 * k - 1, y, colour)
                string //= 10
            return dx + n
        n = width(string) if is_text else 8 * (ndigits(string) + (string < 0))
        if is_text and not big and prefix is None and n > region_width and 7 * (n >> 3) - 1 <= region_width:
            # one character in eight too long: the same font, 7 px apart
            n = 7 * (n >> 3) - 1
            dx = self.place(string, x, y, region_width, 8, n, 8, align)
            return narrow_text(self.fb, string, dx, y, colour)
        if prefix is not None:
            n += 8
        height = 16 if big else 8
        scale = 2 if big and 2 * n <= region_width else 1
        drawn = n * scale
        dx = self.place(string, x, y, region_width, height, drawn, 8 * scale, align)
        dy = y + (height - 8 * scale) // 2
        if drawn > region_width:  # too long: cut at the region's edge, never over a neighbour
            dx = x
            if is_text:
                string = string[:max(0, region_width // (8 * scale) - (prefix is not None))]
        if scale == 2:
            self._big(prefix + string if prefix is not None else string, dx, dy, colour)
            return dx + drawn
        fb = self.fb
        if prefix is not None:
            dx = text(fb, prefix, dx, dy, colour)
        if is_text:
            return text(fb, string, dx, dy, colour)
        return num(fb, string, dx, dy, colour)

    def _big(self, string, x, y, colour):
        """s at twice the 8x8 size (pixel doubling through a one-cell scratch buffer)."""
        fb = self.fb
        scratch = self._scratch
        if not isinstance(string, str):
            string = str(string)
        for ch in string:
            scratch.fill(0)
            text(scratch, ch, 0, 0, 1)
            for py in range(8):
                for px in range(8):
                    if scratch.pixel(px, py):
                        fb.fill_rect(x + 2 * px, y + 2 * py, 2, 2, colour)
            x += 16

    def figures(self, number, x, y, region_width, height, digit_width, thickness, gap, align=2):
        """Seven-segment digits of n, height px tall, in the region of region_width from x
        (aligned as label); narrower digits when n does not fit."""
        w = digits.width(number, digit_width, gap)
        while w > region_width and digit_width > 2 * thickness + 2:
            digit_width -= 1
            w = digits.width(number, digit_width, gap)
        dx = self.place(number, x, y, region_width, height, w, height, align)
        digits.number(self.fb, number, dx, y, digit_width, height, thickness, gap, 1)

    def made_mark(self, made, x, y, colour=1):
        """A tick (made) or a cross (failed), 7x7, in the 8x8 cell at (x, y)."""
        fb = self.fb
        self.place("+" if made else "x", x, y, 8, 8, 8, 8)
        if made:
            for i in range(3):
                fb.fill_rect(x + i, y + 3 + i, 2, 2, colour)
            for i in range(4):
                fb.fill_rect(x + 3 + i, y + 4 - i, 2, 2, colour)
        else:
            for i in range(6):
                fb.fill_rect(x + i, y + i, 2, 1, colour)
                fb.fill_rect(x + 5 - i, y + i, 2, 1, colour)

    def link_mark(self, state, x, y, colour=1):
        """The link's state, 7x7 in the 8x8 cell at (x, y): signal bars, all three when
        online (2), the first when connecting (1), a cross over the base when offline (0)."""
        fb = self.fb
        self.place("~", x, y, 8, 8, 8, 8)
        fb.hline(x, y + 7, 7, colour)
        if state == 0:
            for i in range(5):
                fb.pixel(x + 1 + i, y + i, colour)
                fb.pixel(x + 5 - i, y + i, colour)
            return
        fb.fill_rect(x, y + 5, 2, 2, colour)
        if state == 2:
            fb.fill_rect(x + 2, y + 3, 2, 4, colour)
            fb.fill_rect(x + 5, y, 2, 7, colour)

    # -- primitives ------------------------------------------------------
    def clear(self):
        self.fb.fill(0)

    def title(self, string, right=None):
        """The title bar; right (a count such as '3/12') only when both fit."""
        fb = self.fb
        fb.fill_rect(0, 0, W, 9, 1)
        if right is not None and width(string) + width(right) + 10 <= W:
            rw = width(right)
            self.label(right, W - 1 - rw, 1, rw, 2, 0)
            self.label(string, 1, 1, W - 10 - rw, 0, 0)
        else:
            self.label(string, 0, 1, W, 0, 0)

    def team_title(self, left, right):
        """A title bar naming the two team columns (history, past games)."""
        self.fb.fill_rect(0, 0, W, 9, 1)
        self.label(left, 0, 1, HALF - 1, 0, 0)
        self.label(right, HALF + 1, 1, HALF - 1, 2, 0)

    def hint(self, string):
        fb = self.fb
        fb.fill_rect(0, 54, W, 10, 0)
        fb.hline(0, 54, W, 1)
        self.label(string, 0, 56, W)

    def arrow_up(self, x, y, colour=1):
        for i in range(4):
            self.fb.hline(x + 3 - i, y + i, 2 * i + 1, colour)

    def arrow_down(self, x, y, colour=1):
        for i in range(4):
            self.fb.hline(x + i, y + i, 7 - 2 * i, colour)

    # -- home ------------------------------------------------------------------
    def home(self, app, last_line, keys=0):
        """app: the App (reads app.texts, app.game, app.team_name(), app.seat_label()); last_line:
        the last deal's contract ('Nous 100 SA x2'), or the target line before the first deal;
        keys: which keys the two rows at the left say, 0 OK and BACK, 1 the arrows, 2 held OK.

        Team names on top (an arrow: the key that enters a deal taken by that team), the
        totals big, under each the last deal's score (a tick or a cross beside the takers'),
        the last contract, then the keys OK and BACK and the next dealer, big."""
        fb = self.fb
        texts = app.texts
        g = app.game
        self.label(app.team_name("NS"), 0, 0, HALF - 1)
        self.label(app.team_name("EW"), HALF + 1, 0, HALF - 1, 2)
        fb.vline(HALF, 9, 29, 1)
        link = getattr(app, "link", None)  # a board with WiFi: the link's state under the up arrow
        if link is not None:
            self.link_mark(link.state(), 0, 20)
        self.arrow_up(1, 13)
        self.arrow_down(HALF + 2, 13)
        self.figures(g.total["NS"], 10, 9, HALF - 16, 20, 11, 3, 2)  # clear of the divider and EW's arrow
        self.figures(g.total["EW"], HALF + 12, 9, HALF - 13, 20, 11, 3, 2)
        if g.results:
            result = g.results[-1]
            taker = g.deals[-1].get("taker")
            made = result.made
            for half in (0, 1):  # the mark just left of the takers' own score, inside their column
                score = result.score["EW" if half else "NS"]
                end = self.label(score, HALF * half + 10 + 2 * half, 30, HALF - 12 - half, 2, 1, False, "+")
                if made is not None and taker == ("EW" if half else "NS"):
                    self.made_mark(made, end - 8 * (ndigits(score) + (score < 0) + 1) - 10, 30)
        fb.hline(0, 38, W, 1)
        self.label(last_line, 0, 39, W, 1)
        # the keys (left) and the next dealer, big (right)
        if keys == 1:  # what the arrows do ("^v saisir / une donne")
            self.arrow_up(1, 50)
            self.arrow_down(9, 50)
            self.label(texts["home_arrows"], 18, 48, HALF - 19)
            self.label(texts["home_arrows_2"], 0, 56, HALF - 1)
        elif keys:  # what held OK does ("tenir OK: / donnes": the deals list)
            self.label(texts["home_hold"], 0, 48, HALF - 1)
            self.label(texts["deals_n"], 0, 56, HALF - 1)
        else:
            self.label("OK", 0, 48, 16)
            self.label(texts["home_ok"], 24, 48, HALF - 24)
            self.label("<", 0, 56, 8)
            self.label(texts["home_back"], 16, 56, HALF - 16)
        fb.fill_rect(HALF, 48, W - HALF, 16, 1)
        self.label(app.seat_label(), HALF + 2, 48, 16, 1, 0, True)
        self.label(texts["dealer_verb"], HALF + 20, 52, W - HALF - 20, 0, 0)

    # -- generic list (menus, settings) ---------------------------------------
    def listing(self, title, rows, selected, top, right=None, hint=None):
        """rows: strings (or (left, right) pairs); selected: its index; top: the first shown; right:
        for the title bar (a count); hint: the keys in words under the rows (or None)."""
        fb = self.fb
        self.title(title, right)
        n = len(rows)
        shown = self.HINT_ROWS if hint else self.ROWS
        for i in range(shown):
            k = top + i
            if k >= n:
                break
            y = LIST_TOP + 8 * i
            row = rows[k]
            c = 1
            if k == selected:
                fb.fill_rect(0, y, W - 3, 8, 1)
                c = 0
            if isinstance(row, tuple):  # label and value, a character apart (7 px when narrow)
                rw = width(row[1])
                rx = W - 3 - rw
                self.label(row[1], rx, y, rw, 0, c)
                self.label(row[0], 1, y, rx - 8, 0, c)
            else:
                self.label(row, 1, y, W - 3, 0, c)
        if n > shown:  # scroll bar
            h = max(4, 8 * shown * shown // n)
            y = LIST_TOP + (8 * shown - h) * top // max(1, n - shown)
            fb.fill_rect(W - 2, y, 2, h, 1)
        if hint:
            self.hint(hint)

    # -- entry steps ------------------------------------------------------
    def hint_rows(self, rows):
        """The keys in words on the bottom rows, all at once (none turns): rows is a
        string (one row) or a tuple of up to three; returns the y of the line above them."""
        if isinstance(rows, str):
            return self.key_rows(rows)
        n = len(rows)
        return self.key_rows(rows[0], rows[1] if n > 1 else None, rows[2] if n > 2 else None)

    def key_rows(self, first, second=None, third=None):
        """Up to three rows of keys in words at the bottom, under a line (no tuple built for
        them); returns the y of the line."""
        if second is None:
            self.hint(first)
            return 54
        n = 3 if third is not None else 2
        top = 64 - 8 * n
        fb = self.fb
        fb.fill_rect(0, top - 2, W, 66 - top, 0)
        fb.hline(0, top - 2, W, 1)
        self.label(first, 0, top, W)
        self.label(second, 0, top + 8, W)
        if third is not None:
            self.label(third, 0, top + 16, W)
        return top - 2

    def picker(self, title, step, value, label, context, hint):
        """A value chosen with UP/DOWN: value is an int (big digits) or None (then label);
        hint: the keys in words, one row or a tuple of rows (then the value is drawn
        smaller, over the context line, above them)."""
        self.title(title, step)
        line = self.hint_rows(hint)
        # the digits' box: 12..38 over the context line at 45 with one row of keys
        top, height = (16, 22) if line == 54 else (11, min(22, line - 24))
        self._digits_top = top
        if height >= 22:
            self.arrow_up(2, top + 4)
            self.arrow_down(2, top + height - 6)
        else:  # small digits: the arrows at their top and bottom, apart
            self.arrow_up(2, top)
            self.arrow_down(2, top + height - 4)
        digit_width = 14 if height >= 22 else 10
        if value is not None:
            w = digits.width(value, digit_width, 3)
            if label:
                lw = width(label)
                self.figures(value, (W - w - lw - 3) // 2, top, w, height, digit_width, 3, 3)
                self.label(label, (W + w - lw - 3) // 2 + 3, top + height - 8, lw)
            else:
                self.figures(value, 12, top, W - 24, height, digit_width, 3, 3, 1)
        else:
            self.label(label, 12, top + (height - 16) // 2, W - 24, 1, 1, True)
        if context:
            self.label(context, 0, 45 if line == 54 else line - 10, W, 1)

    def mark_digits(self, value, units):
        """Underline the digit(s) being set under the picker's number: the units, or the tens and above."""
        nd = ndigits(value)
        digit_width = 14  # the digits 22 px high under the title (the card points' rows of keys leave them so)
        x0 = 12 + (W - 24 - digits.width(value, digit_width, 3)) // 2
        y = self._digits_top + 23  # one row under the digits, one row clear of the context line under it
        if units:
            self.fb.hline(x0 + (nd - 1) * (digit_width + 3), y, digit_width, 1)
        elif nd >= 2:
            self.fb.hline(x0, y, (nd - 1) * (digit_width + 3) - 3, 1)

    def choice3(self, title, step, up, ok, down, current, context):
        """Three choices, one key each: UP / OK / DOWN."""
        fb = self.fb
        self.title(title, step)
        for i, (lab, val) in enumerate((up, ok, down)):
            y = 12 + 13 * i
            if i == 0:
                self.arrow_up(2, y + 2)
            elif i == 1:
                self.label("OK", 0, y, 16)
            else:
                self.arrow_down(2, y + 2)
            c = 1
            if val == current:
                fb.fill_rect(18, y - 1, W - 18, 10, 1)
                c = 0
            self.label(lab, 20, y, W - 22, 0, c)
        if context:
            fb.hline(0, 52, W, 1)
            self.label(context, 0, 55, W, 1)

    def confirm(self, title, verdict, detail, ns_label, ns, ew_label, ew, ns_total, ew_total, hint,
                error=None, made=None, mark_units=False, back=None):
        """The deal before it is saved: the contract (title), the verdict and its detail,
        then under each team's name its deal score and its total after the deal, on one
        row; hint: the keys in words, a row or a tuple of two (all shown at once); back:
        what BACK does, a row of its own under the first; mark_units: the last digit of
        the verdict line (the card points' units, set on this step) underlined. made is
        for the colour layout. Three rows of keys leave 38 px above their line: without
        a detail, the rows as usual a little closer; with one, the screen's eight rows of
        the 8x8 font edge to edge, the title bar one of them."""
        fb = self.fb
        if isinstance(hint, str):  # (no tuple built: this step redraws at every point)
            first = hint
            holds = None
        else:
            first = hint[0]
            holds = hint[1]
        three = back is not None and holds is not None  # three rows of keys
        dense = three and detail != ""
        if dense:
            fb.fill_rect(0, 0, W, 8, 1)
            self.label(title, 0, 0, W, 0, 0)
        else:
            self.title(title)
        y = 8 if dense else 10
        end = self.label(verdict, 0, y, W, 1)
        if mark_units:  # the last digit (8 px from the end, 7 px apart too) underlined
            fb.hline(end - 9, y + 7, 8, 1)
        if back is None:
            self.hint_rows(hint)
        elif dense:  # no line over the keys: the scores' blank bottom row parts them
            self.label(first, 0, 40, W)
            self.label(back, 0, 48, W)
            self.label(holds, 0, 56, W)
        else:
            self.key_rows(first, back, holds)
        if error:
            fb.rect(0, 20, W, 26, 1)
            self.label(error[0], 1, 24, W - 2, 1)
            self.label(error[1], 1, 35, W - 2, 1)
            return
        if dense:  # detail 16, teams 24, scores 32
            self.label(detail, 0, 16, W, 1)
            y = 24
        elif three:  # no detail: teams 20, scores 29
            y = 20
        else:
            self.label(detail, 0, 19, W, 1)
            y = 28
        step = 8 if dense else 9
        fb.vline(HALF, y, 2 * step - 1, 1)
        self.label(ns_label, 0, y, HALF - 1, 1)
        self.label(ew_label, HALF + 1, y, HALF - 1, 1)
        self._scores(y + step, ns, ns_total, ew, ew_total)

    def _scores(self, y, ns, ns_total, ew, ew_total):
        """Each team's score and its total after it on one row of its column at y, in digits
        7 px apart, the total at the right (nothing allocated); the signs where both
        columns have room for them."""
        plus = 7 * (max(ndigits(ns) + ndigits(ns_total), ndigits(ew) + ndigits(ew_total))) <= 45
        x = 0
        score = ns
        total = ns_total
        while True:
            if plus:
                self.label("+", x, y, 8)
            self.label(score, x + 8 * plus, y, 7 * ndigits(score) - 1, 0, 1, False, None, True)
            n = 7 * ndigits(total) - 1
            self.label("=", x + HALF - 1 - n - 8, y, 8)
            self.label(total, x + HALF - 1 - n, y, n, 0, 1, False, None, True)
            if x:
                break
            x = HALF + 1
            score = ew
            total = ew_total

    def ask(self, question, detail, hint, note=None):
        """A question (two lines when one cannot hold it), a detail line and a note under
        it (each or None)."""
        fb = self.fb
        if detail is None:
            detail = note
            note = None
        lines = (question,)
        if 7 * (width(question) >> 3) - 1 > W - 2:  # "Annuler donne 11?": two lines rather than cut,
            i = question.find(", ") + 1  # after a comma if it has one ("Partie 12," "Table 20?")
            if i <= 0:
                i = question.rfind(" ")
            if i > 0:
                lines = (question[:i], question[i + 1:])
        fb.rect(0, 0, W, 54, 1)
        y = 16 if len(lines) == 1 else 9
        for s in lines:
            self.label(s, 1, y, W - 2, 1)
            y += 10
        if detail:
            y = 30 if len(lines) == 1 else 34
            self.label(detail, 1, y, W - 2, 1)
            if note:
                self.label(note, 1, y + 10, W - 2, 1)
        self.hint(hint)

    def toast(self, string):
        fb = self.fb
        tw = width(string)
        if tw > W - 8:  # no room for a frame: a full-width inverted band
            fb.fill_rect(0, 22, W, 18, 1)
            self.cover(0, 22, W, 18)
            self.label(string, 0, 27, W, 1, 0)
            return
        w = tw + 8
        x = (W - w) // 2
        fb.fill_rect(x, 22, w, 18, 0)
        fb.rect(x, 22, w, 18, 1)
        self.cover(x, 22, w, 18)
        self.label(string, x + 4, 27, tw)
