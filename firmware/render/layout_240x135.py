"""Layout for the 240x135 colour screen of the Pimoroni Pico Display Pack (ST7789).

Same methods as render/layout_128x64.py, drawn for a glass about 25 mm wide: a
pixel is 0.1 mm, so the 8x8 font is drawn at twice its size (about the size
of the 128x64 OLED's text) and the totals are seven-segment digits 50 px tall.
NS is blue, EW orange, on the home screen and wherever a team is shown.
The pack's buttons are named on screen as they are printed on it: A (UP) and
B (DOWN) on the left edge, X (OK) and Y (BACK) on the right edge.

The framebuffer holds 4-bit colour indices (GS4_HMSB); the colours below are
put in the driver's palette once, in __init__.  Scaled text goes through one
256x10 one-bit scratch line (320 bytes): text.text() draws the string there
(accents included), then each row of each glyph is copied as runs of scaled
fill_rects.  No other buffer is allocated, and home() allocates nothing.

Every string is drawn by label() into a region (a rectangle) the layout names,
at the largest size that fits it; with `probe` set (the text-fit test), every
drawing reports what it drew and its region.
"""
import framebuf
import micropython
from micropython import const

from render import digits
from render.text import Regions, ndigits, num, text, width

W = const(240)
H = const(135)

# colour indices (0 and 1 stay black and white: other code may draw with 1)
BACKGROUND = const(0)
FOREGROUND = const(1)
GREY = const(2)         # secondary text
BAR = const(3)          # hint and status bars
NS_COLOUR = const(4)    # a team's colour; its dark tint is + 1, its light tint + 2
NS_DARK = const(5)
NS_LIGHT = const(6)
EW_COLOUR = const(7)
EW_DARK = const(8)
EW_LIGHT = const(9)
TITLE = const(10)
SELECTION = const(11)   # selection, marks, toast border
GOOD = const(12)        # "made"
BAD = const(13)         # errors, "failed"
FRAME = const(14)       # tracks, frames
QUIET = const(15)       # quiet text on bars

# index -> 0xRRGGBB (kept as 3 bytes each in the .mpy)
PALETTE = tuple(int.from_bytes(b"\x00\x00\x00\xff\xff\xff\xa0\xa4\xb0\x1c\x20\x28\x2f\x7d\xff\x0c\x1e\x46"
                               b"\xb4\xd0\xff\xff\x7a\x1c\x48\x20\x0a\xff\xd0\xa8\x0e\x6b\x3c\xff\xd2\x3c"
                               b"\x3c\xd2\x6e\xff\x46\x46\x3c\x42\x50\x7c\x84\x94"[i:i + 3], "big")
                for i in range(0, 48, 3))
TEAM = (NS_COLOUR, EW_COLOUR)  # the teams' colour indices (for tests and other screens)
TEAMS = ("NS", "EW")

# text sizes: (x scale, y scale, advance per character)
SIZE_SMALL = const(0)      # the 8x8 font as it is
SIZE_TALL = const(1)       # 8 px wide, 16 px high
SIZE_CONDENSED = const(2)  # double size, 14 px per character
SIZE_DOUBLE = const(3)     # double size
SIZE_TRIPLE = const(4)     # triple size
_SCALE_X = b"\x01\x01\x02\x02\x03"
_SCALE_Y = b"\x01\x02\x02\x02\x03"
_ADVANCE = b"\x08\x08\x0e\x10\x18"

_BACK_WIDTH = const(90)  # check-and-save: BACK's key and what it does beside the verdict, "Y dizaines"
BAR_TOP = const(115)  # hint bar: 115..134
LIST_TOP = const(22)  # first list row under the title bar
RECORD_ROW = const(32)  # history and past games: two lines of 16 px

# the keys as the pack names them, for UP, DOWN, OK, BACK
KEY_NAMES = ("A", "B", "X", "Y")


@micropython.viper
def _scale(fill_rect, scratch: ptr8, cells: int, x: int, y: int, scale_x: int, scale_y, advance: int, colour):
    """Draw cells 8-px cells of the scratch line (MONO_HLSB, 32 bytes a row, 10 rows) with
    fill_rect, each pixel scale_x by scale_y, cells advance apart; a run of set bits is one
    fill_rect. Viper: about 7x faster than the same loop in Python, and it allocates nothing."""
    if cells > 32:
        cells = 32
    row = 0
    while row < 10:
        row_y = y + (row - 2) * int(scale_y)
        cell = 0
        while cell < cells:
            bits = scratch[row * 32 + cell]
            px = x + cell * advance
            while bits:
                while not bits & 0x80:
                    bits <<= 1
                    px += scale_x
                run = px
                while bits & 0x80:
                    bits = (bits << 1) & 0xFF
                    px += scale_x
                fill_rect(run, row_y, px - run, scale_y, colour)
            cell += 1
        row += 1


def pixels(characters, size):
    """Width in pixels of so many characters at a size, to the end of the last cell (the ink
    of 4, M, W, m, w reaches its eighth column)."""
    return characters and (characters - 1) * _ADVANCE[size] + 8 * _SCALE_X[size]


def characters(string):
    """How many character cells s (a string or an int) takes."""
    if isinstance(string, str):
        return width(string) >> 3
    return ndigits(string) + (string < 0)


def text_width(string, size=SIZE_DOUBLE):
    return pixels(characters(string), size)


def tall_text_width(string):
    """text_width at SIZE_TALL (the size of the history's rows)."""
    return pixels(characters(string), SIZE_TALL)


class Layout(Regions):
    ROWS = 7  # list rows under the title (16 px each)
    HINT_ROWS = 5  # list rows above the hint bar
    RECORD_ROWS = 3  # history / past games rows (two lines each)
    # the drawings of the deals lists, game over and a round's end: loaded by the screen
    # that draws one (on_demand.py)
    OFF_PATH = "render.layout_240x135_off_path"

    def __init__(self, fb):
        self.fb = fb
        self.fill_rect = fb.fill_rect  # bound once: the text loop calls it without allocating
        self.hold_words = None  # (the language table, "tenir" of its "tenir OK:"): home's held-OK words
        self._digits_height = 50  # the height of the picker's digits (mark_digits)
        self.W = W
        self.H = H
        # the scratch line: 32 characters of 8 px, 2 rows above the cell for capital accents
        self.scratch = bytearray(320)
        self.scratch_buffer = framebuf.FrameBuffer(self.scratch, 256, 10, framebuf.MONO_HLSB)
        if hasattr(fb, "palette"):
            for i in range(16):
                fb.palette(i, PALETTE[i])

    # -- text ------------------------------------------------------------
    def fit(self, string, region_width, largest=SIZE_DOUBLE, smallest=SIZE_TALL):
        """The largest size from largest down to smallest at which s fits region_width (else 8x8)."""
        n = characters(string)
        while largest >= smallest:
            if pixels(n, largest) <= region_width:
                return largest
            largest -= 1
        return SIZE_SMALL

    def label(self, string, x, y, region_width, region_height=16, align=0, colour=FOREGROUND,
              largest=SIZE_DOUBLE, smallest=SIZE_TALL, prefix=None):
        """Draw s (a string, or an int: nothing allocated) in the region (x, y, region_width,
        region_height) at the largest size from largest down to smallest that fits (else 8x8),
        after a one-character prefix if any; aligned 0 left, 1 centred, 2 right, and centred
        in the region's height. Returns the x after it."""
        scratch = self.scratch_buffer
        scratch.fill(0)
        n = 0
        if prefix:
            scratch.text(prefix, 0, 2, 1)
            n = 8
        n = (text if isinstance(string, str) else num)(scratch, string, n, 2, 1) >> 3
        size = largest
        while size >= smallest and (pixels(n, size) > region_width or 8 * _SCALE_Y[size] > region_height):
            size -= 1
        if size < smallest:
            size = SIZE_SMALL
        drawn = pixels(n, size)
        height = 8 * _SCALE_Y[size]
        x = self.place(string, x, y, region_width, region_height, drawn, height, align)
        dy = y + (region_height - height) // 2
        if size or prefix:
            _scale(self.fill_rect, self.scratch, n, x, dy, _SCALE_X[size], _SCALE_Y[size], _ADVANCE[size], colour)
        else:  # 8x8: straight on the screen
            (text if isinstance(string, str) else num)(self.fb, string, x, dy, colour)
        return x + n * _ADVANCE[size]

    def figures(self, number, x, y, region_width, height, digit_width, thickness, gap, colour=FOREGROUND, align=1):
        """Seven-segment digits of n, height px tall, aligned in the region of region_width from
        x; narrower digits when n does not fit."""
        w = digits.width(number, digit_width, gap)
        while w > region_width and digit_width > 2 * thickness + 2:
            digit_width -= 2
            w = digits.width(number, digit_width, gap)
        dx = self.place(number, x, y, region_width, height, w, height, align)
        digits.number(self.fb, number, dx, y, digit_width, height, thickness, gap, colour)

    def made_mark(self, made, x, y, colour=None):
        """A tick (made, green) or a cross (failed, red), 14x14, at (x, y)."""
        fill = self.fill_rect
        self.place("+" if made else "x", x, y, 16, 16, 16, 16)
        if colour is None:
            colour = GOOD if made else BAD
        if made:
            for i in range(5):
                fill(x + i, y + 7 + i, 3, 3, colour)
            for i in range(9):
                fill(x + 5 + i, y + 11 - i, 3, 3, colour)
        else:
            for i in range(12):
                fill(x + i, y + 1 + i, 3, 2, colour)
                fill(x + 11 - i, y + 1 + i, 3, 2, colour)

    def link_mark(self, state, x, y, colour):
        """The link's state, 14x14 in the 16x16 cell at (x, y): signal bars, all three when
        online (2), the first when connecting (1), a cross over the base when offline (0)."""
        fill = self.fill_rect
        self.place("~", x, y, 16, 16, 16, 16)
        fill(x, y + 13, 14, 2, colour)
        if state == 0:
            for i in range(10):
                fill(x + 2 + i, y + i, 2, 2, colour)
                fill(x + 11 - i, y + i, 2, 2, colour)
            return
        fill(x, y + 9, 4, 4, colour)
        if state == 2:
            fill(x + 5, y + 5, 4, 8, colour)
            fill(x + 10, y, 4, 13, colour)

    def key_cap(self, key, x, y, colour=GREY, background=BAR):
        """The name of a key as printed on the pack (0 UP = A, 1 DOWN = B, 2 OK = X, 3 BACK = Y),
        framed, 18 px wide, on the 16 px line at y; returns the x after it."""
        self.fb.rect(x, y - 1, 18, 18, colour)
        self.label(KEY_NAMES[key], x + 1, y, 16, 16, 1, colour)
        return x + 22

    # -- primitives ------------------------------------------------------
    def clear(self):
        self.fb.fill(BACKGROUND)

    def title(self, string, step=None, count=None):
        """The title bar, count (e.g. '3/12') on its right; step '3/7': seven segments under it, three lit."""
        fill = self.fill_rect
        fill(0, 0, W, 20, TITLE)
        count_width = 0
        if count:
            size = self.fit(count, 64, SIZE_DOUBLE, SIZE_CONDENSED)
            count_width = pixels(characters(count), size) + 8
            if self.fit(string, W - 8 - count_width) == SIZE_SMALL:  # the title matters more than the count
                count_width = 0
        if count_width:
            self.label(count, W - count_width, 2, count_width - 4, 16, 2, SELECTION, SIZE_DOUBLE, SIZE_CONDENSED)
        self.label(string, 4, 2, W - 8 - count_width)
        if step:
            i = step.find("/")
            if i < 0:
                return
            done = int(step[:i])
            n = int(step[i + 1:])
            if n <= 0:
                return
            w = (W - 2 * (n - 1)) // n
            x = (W - (w * n + 2 * (n - 1))) // 2
            for i in range(n):
                fill(x, 21, w, 3, SELECTION if i < done else FRAME)
                x += w + 2

    def team_title(self, left, right):
        """A title bar naming the two team columns (history, past games), in their colours."""
        fill = self.fill_rect
        fill(0, 0, 119, 20, NS_COLOUR)
        fill(121, 0, 119, 20, EW_COLOUR)
        self.label(left, 4, 2, 113)
        self.label(right, 123, 2, 113, 16, 2)

    def hint(self, string):
        """The bottom bar: what the keys do (see keys_line)."""
        self.fill_rect(0, BAR_TOP, W, H - BAR_TOP, BAR)
        self.keys_line(string, 4, BAR_TOP + 2, W - 8)

    def hint_rows(self, rows):
        """The keys in words, all at once (none turns): rows a string (the bar) or a tuple of
        up to three, a line each. Returns the y of the bar's top."""
        if isinstance(rows, str):
            return self.key_rows(rows)
        n = len(rows)
        return self.key_rows(rows[0], rows[1] if n > 1 else None, rows[2] if n > 2 else None)

    def key_rows(self, first, second=None, third=None):
        """Up to three lines of keys in words at the bottom (no tuple built for them); one
        is the hint bar. Returns the y of their top."""
        if second is None:
            self.hint(first)
            return BAR_TOP
        top = H - 18 * (3 if third is not None else 2) - 2
        self.fill_rect(0, top, W, H - top, BAR)
        self.keys_line(first, 4, top + 2, W - 8)
        self.keys_line(second, 4, top + 20, W - 8)
        if third is not None:
            self.keys_line(third, 4, top + 38, W - 8)
        return top

    def keys_line(self, string, x, y, region_width, colour=GREY, background=BAR):
        """A line saying what keys do, the keys named as on the pack: a word "OK" is drawn as
        the key X ("OK+": X held, "OK:" X then a colon), a leading "<" as Y ("<+": Y held), "^" as A, a word "v"
        as B ("^v": A and B)."""
        end = x + region_width
        i = 0
        n = len(string)
        while i < n:
            j = string.find(" ", i)
            if j < 0:
                j = n
            word = string[i:j]
            if word == "OK":
                x = self.key_cap(2, x, y, colour, background)
            elif word[:4] == "OK/<":  # "OK/<: melds": X and Y held, each its team's
                x = self.key_cap(2, x, y, colour, background)
                x = self.label("/", x - 2, y, 8, 16, 0, colour, SIZE_TALL, SIZE_TALL) + 2
                x = self.key_cap(3, x, y, colour, background) - 4
                x = self.label(word[4:], x, y, end - x, 16, 0, colour, SIZE_DOUBLE, SIZE_TALL) + 8
            elif word[:2] == "OK" and word[2] in "+:":  # "OK+": X held; "OK:"
                x = self.key_cap(2, x, y, colour, background) - 4
                x = self.label(word[2:], x, y, end - x, 16, 0, colour, SIZE_DOUBLE, SIZE_TALL) + 8
            elif word == "v":
                x = self.key_cap(1, x, y, colour, background)
            elif word and word[0] in "<^":
                if word.startswith("^v"):
                    x = self.key_cap(0, x, y, colour, background) - 2
                    x = self.key_cap(1, x, y, colour, background)
                    word = word[2:]
                else:
                    x = self.key_cap(3 if word[0] == "<" else 0, x, y, colour, background)
                    word = word[1:]
                if word:
                    x = self.label(word, x, y, end - x, 16, 0, colour, SIZE_DOUBLE, SIZE_TALL) + 8
            elif word:
                k = string.find(" OK", j)  # the words up to the next key, as one text
                k2 = string.find(" <", j)
                stop = n
                for m in (k, k2, string.find(" ^", j), string.find(" v ", j)):
                    if 0 <= m < stop:
                        stop = m
                x = self.label(string[i:stop], x, y, end - x, 16, 0, colour, SIZE_DOUBLE, SIZE_TALL) + 8
                j = stop
            i = j + 1

    def arrow(self, x, y, down=0, colour=GREY, size=9):
        """A filled triangle, 2 size - 1 wide and size high, pointing up (tip at (x + size - 1, y)) or down."""
        for i in range(size):
            a = size - 1 - i if down else i
            self.fb.hline(x + size - 1 - a, y + i, 2 * a + 1, colour)

    def key(self, answer, x, y, colour=GREY):
        """The key that gives an answer: 0 = UP (A), 1 = OK (X), 2 = DOWN (B): its letter as
        printed on the pack, double size, white in a frame 22 px square around (x, y, 20, 16)."""
        self.fb.rect(x - 1, y - 3, 22, 22, colour)
        self.label(KEY_NAMES[(0, 2, 1)[answer]], x + 1, y - 2, 18, 20, 1, FOREGROUND)

    def home(self, app, last_line, keys=0):
        """app: the App (reads app.texts, app.game, app.team_name(), app.dealer_team()); last_line:
        the last deal's contract, or the target line before the first deal; keys: what the
        bar's left says, 0 the keys X and Y, 1 what A and B do, 2 what held X does. Allocates nothing.

        Each team: its name in its colour with the key that enters a deal it took (A, B),
        its total big over a bar (the total against the target; in a concours round, the
        deals played of the round), the last deal's score (a tick or a cross beside the takers'); then the
        last contract, and a bar with the keys X and Y and the next dealer, big."""
        fill = self.fill_rect
        g = app.game
        target = g.rules["target"]
        # a round of a fixed number of deals (a concours): the bars show the deals played of
        # the round's N, the same under both teams, instead of each total against the target
        length = g.rules["deals"]
        played = g.round_deal() - 1 if length else 0
        link = getattr(app, "link", None)  # a board with WiFi: the link's state on the right of EW's name
        for i in (0, 1):
            team = TEAMS[i]
            colour = NS_COLOUR + 3 * i
            x = 121 * i
            n = g.total[team]
            fill(x, 0, 119, 20, colour)
            self.key_cap(i, x + 2, 2, FOREGROUND, colour)
            if link is not None and i:
                self.label(app.team_name(team), x + 24, 2, 78, 16, 1)
                self.link_mark(link.state(), x + 102, 2, FOREGROUND)
            else:
                self.label(app.team_name(team), x + 24, 2, 93, 16, 1)
            fill(x, 20, 119, 76, colour + 1)  # down to the last row of the deal score and its mark
            self.figures(n, x + 4, 24, 111, 50, 24, 6, 5)
            fill(x + 6, 77, 107, 3, FRAME)
            if length:
                if played > 0:
                    fill(x + 6, 77, 107 if played >= length else 107 * played // length, 3, colour)
            elif target > 0 and n > 0:
                fill(x + 6, 77, 107 if n >= target else 107 * n // target, 3, colour)
            if g.results:  # the last deal's score
                result = g.results[-1]
                score = result.score[team]
                end = self.label(score, x + 24, 80, 91, 16, 2, colour + 2, SIZE_DOUBLE, SIZE_TALL, "+")
                if result.made is not None and g.deals[-1].get("taker") == team:
                    # just left of the takers' own score: never beside the other team's
                    cells = characters(score) + 1
                    size = SIZE_DOUBLE  # the size label() chose (nothing allocated)
                    while size > SIZE_TALL and pixels(cells, size) > 91:
                        size -= 1
                    self.made_mark(result.made, max(x + 4, end - cells * _ADVANCE[size] - 20), 80)
        self.label(last_line, 0, 95, W, 18, 1, FOREGROUND)
        self._home_bar(app, keys)

    def _home_bar(self, app, keys):
        """Home's bottom bar: the keys (keys as home()), then the next dealer, big, in his
        team's colour. Allocates nothing."""
        fill = self.fill_rect
        texts = app.texts
        # the bar: OK (X) menu, BACK (Y) undo; the next dealer, big
        fill(0, 113, W, H - 113, BAR)
        if keys == 1:  # in words, the keys as printed on the pack: "A B une donne"
            x = self.key_cap(1, self.key_cap(0, 2, 116) - 2, 116)
            self.label(texts["home_arrows_2"], x, 116, 134 - x, 16, 0, GREY, SIZE_TALL)
        elif keys:  # "tenir X donnes": the words of "tenir OK:" around the key, cut once per language
            hold = self.hold_words
            if hold is None or hold[0] is not texts:
                words = texts["home_hold"]
                k = words.find("OK")
                hold = self.hold_words = (texts, words[:k].strip())
            x = self.label(hold[1], 2, 116, 60, 16, 0, GREY, SIZE_TALL) + 4
            x = self.key_cap(2, x, 116)
            self.label(texts["deals_n"], x, 116, 134 - x, 16, 0, GREY, SIZE_TALL)
        else:
            self.key_cap(2, 2, 116)
            self.label(texts["home_ok"], 24, 116, 34, 16, 0, GREY)
            self.key_cap(3, 60, 116)
            self.label(texts["home_back"], 82, 116, 52, 16, 0, GREY)
        i = app.dealer_team() == "EW"
        fill(136, 113, W - 136, H - 113, NS_DARK + 3 * i)
        self.label(app.seat_label(), 138, 114, 24, 21, 1, FOREGROUND, SIZE_TRIPLE, SIZE_DOUBLE)
        self.label(texts["dealer_verb"], 164, 116, W - 166, 16, 0, NS_LIGHT + 3 * i)

    # -- generic list (menus, settings) ----------------------------------------
    def listing(self, title, rows, selected, top, right=None, hint=None):
        """rows: strings (or (left, right) pairs); selected: its index; top: the first shown;
        right: for the title bar (a count); hint: the keys in words under the rows (or None).

        A right part made of two numbers ("80 484": NS then EW) is drawn in the team colours."""
        fill = self.fill_rect
        self.title(title, None, right)
        n = len(rows)
        shown = self.ROWS
        if hint:  # the hint bar takes the last rows: keep the selection above it
            shown = self.HINT_ROWS
            if selected >= top + shown:
                top = selected - shown + 1
        shown_rows = rows[top:top + shown]
        # one size for all the rows shown, the largest that fits the widest
        size = SIZE_DOUBLE
        for s in shown_rows:
            while size > SIZE_TALL:
                if isinstance(s, tuple):
                    w = text_width(s[0], size) + 16 + text_width(s[1], size)
                else:
                    w = text_width(s, size)
                if w <= W - 14:
                    break
                size -= 1
        k = top
        for s in shown_rows:
            y = LIST_TOP + 16 * (k - top)
            colour = FOREGROUND
            if k == selected:
                fill(0, y, W - 5, 16, SELECTION)
                colour = BACKGROUND
            elif k & 1:
                fill(0, y, W - 5, 16, BAR)
            if isinstance(s, tuple):
                value = s[1]
                value_width = text_width(value, size)
                i = value.find(" ")
                if i > 0 and value[:i].isdigit() and value[i + 1:].isdigit():
                    x = self.label(value[:i], W - 8 - value_width, y, value_width, 16, 0,
                                   NS_DARK + (k != selected), size, size)
                    self.label(value[i + 1:], x + _ADVANCE[size], y, W - 8 - x - _ADVANCE[size], 16, 0,
                               EW_DARK + (k != selected), size, size)
                else:
                    self.label(value, W - 8 - value_width, y, value_width, 16, 2,
                               SELECTION if k != selected else BACKGROUND, size, size)
                self.label(s[0], 4, y, W - 24 - value_width, 16, 0, colour, size, size)
            else:
                self.label(s, 4, y, W - 12, 16, 0, colour, size, size)
            k += 1
        if n > shown:  # scroll bar
            k = 16 * shown
            fill(W - 3, 21, 3, k, FRAME)
            w = max(6, k * shown // n)
            fill(W - 3, 21 + (k - w) * top // max(1, n - shown), 3, w, GREY)
        if hint:
            self.hint(hint)

    # -- entry steps ----------------------------------------------------
    def picker(self, title, step, value, label, context, hint):
        """A value chosen with UP/DOWN: value is an int (big digits, then the label after it)
        or None (then the label big); context: the line above it (or None); hint: the keys
        in words, a row or a tuple of rows (all at once: hint_rows)."""
        self.title(title, step)
        if context:
            self.label(context, 2, 26, W - 4, 16, 1, GREY)
        bar = self.hint_rows(hint)
        height = 50 if bar == BAR_TOP else bar - 54
        digit_width = min(26, 12 + height // 2)
        self._digits_height = height
        self.arrow(6, 48)
        self.arrow(6, 46 + height - 10, 1)
        if value is None:
            self.label(label, 24, 46, W - 24, height + 2, 1, FOREGROUND, SIZE_TRIPLE)
        else:
            w = digits.width(value, digit_width, 6)
            x = (W - w) // 2
            if label:
                label_width = text_width(label)
                x -= (label_width + 8) // 2
                self.label(label, x + w + 8, 46 + height - 16, label_width)
            self.figures(value, x, 46, w, height, digit_width, 6, 6)

    def mark_digits(self, value, units):
        """Mark the digit(s) being set under the picker's number: the units, or the tens and above."""
        n = ndigits(value)
        digit_width = min(26, 12 + self._digits_height // 2)  # as picker() drew them
        x = (W - digits.width(value, digit_width, 6)) // 2
        y = 46 + self._digits_height + (4 if self._digits_height == 50 else 2)
        if units:
            self.fill_rect(x + (n - 1) * (digit_width + 6), y, digit_width, 4, SELECTION)
        elif n > 1:
            self.fill_rect(x, y, (n - 1) * (digit_width + 6) - 6, 4, SELECTION)

    def choice3(self, title, step, up, ok, down, current, context):
        """Three choices, (label, value) pairs, one key each: UP / OK / DOWN; current: the value
        chosen now; context: the bottom line (or None)."""
        fb = self.fb
        self.title(title, step)
        for i, (s, value) in enumerate((up, ok, down)):
            y = 27 + 29 * i
            self.key(i, 6, y + 3)
            colour = FOREGROUND
            if value == current:
                fb.fill_rect(36, y, W - 36, 22, SELECTION)
                colour = BACKGROUND
            elif value in TEAMS:  # a team: in its colours
                colour = NS_LIGHT + 3 * (value == "EW")
                fb.rect(36, y, W - 36, 22, colour - 2)
            else:
                fb.rect(36, y, W - 36, 22, FRAME)
            self.label(s, 42, y + 3, W - 48, 16, 0, colour)
        if context:
            self.hint(context)

    def confirm(self, title, verdict, detail, ns_label, ns, ew_label, ew, ns_total, ew_total, hint,
                error=None, made=None, mark_units=False, back=None):
        """The deal before it is saved: the contract (title), the verdict (coloured by made:
        None no colour), its detail, each team's label, its deal score and its total after
        it; error: (error, field) instead of the scores; hint: the keys in words, a row or
        a tuple of two (all at once: hint_rows); back: what BACK does, beside the verdict
        (the card points it changes) when the bar's two lines are full, else the bar's
        second line; mark_units: underline the last digit of the verdict
        line (the card points' units, set on this step)."""
        fb = self.fb
        self.title(title)
        room = W - 4
        if isinstance(hint, str):  # BACK's action a line of the bar under the other keys
            bar = self.key_rows(hint, back)
        else:
            bar = self.hint_rows(hint)
            if back is not None:  # the bar full: the key and up to eight letters at the right
                room = W - 4 - _BACK_WIDTH
                self.keys_line(back, W - _BACK_WIDTH, 23, _BACK_WIDTH - 2, GREY, BACKGROUND)
        end = self.label(verdict, 2, 23, room, 16, 1)
        if mark_units:
            size = self.fit(verdict, room)
            self.fill_rect(end - _ADVANCE[size], 39, 7 * _SCALE_X[size], 2, SELECTION)
        if error:
            _frame(fb, 0, 44, W, bar - 46, BAD)
            self.label(error[0], 4, 50, W - 8, 16, 1, BAD)
            self.label(error[1], 4, 72, W - 8, 16, 1)
            return
        self.label(detail, 2, 41, W - 4, 16, 1, SELECTION if made is None else (GOOD if made else BAD))
        for i, label, score, total in ((0, ns_label, ns, ns_total), (1, ew_label, ew, ew_total)):
            x0 = 121 * i
            fb.fill_rect(x0, 60, 119, bar - 61, NS_DARK + 3 * i)
            fb.fill_rect(x0, 60, 119, 18, NS_COLOUR + 3 * i)
            self.label(label, x0 + 4, 61, 111, 16, 1)
            # the score big at the right, the total after the deal at the left
            self.label(score, x0 + 50, 79, 65, bar - 80, 2, NS_LIGHT + 3 * i, SIZE_TRIPLE, SIZE_DOUBLE, "+")
            self.label(total, x0 + 4, 79, 46, bar - 80, 0, FOREGROUND, SIZE_TALL, SIZE_TALL, "=")

    def ask(self, question, detail, hint, note=None):
        """A question, with a detail line (or None) and a note under it (or None)."""
        _frame(self.fb, 0, 0, W, BAR_TOP - 2, SELECTION)
        if detail is None:
            detail = note
            note = None
        self.label(question, 4, (24 if note else 34) if detail else 48, W - 8, 16, 1)
        if detail:
            self.label(detail, 4, 56 if note else 66, W - 8, 16, 1, GREY)
        if note:
            self.label(note, 4, 84, W - 8, 16, 1, GREY)
        self.hint(hint)

    def toast(self, string):
        """A short message over the bottom of the screen (on home: not over the totals)."""
        size = self.fit(string, W - 20)
        w = min(W, text_width(string, size) + 20)
        x = (W - w) // 2
        self.fill_rect(x, 103, w, 32, BAR)
        _frame(self.fb, x, 103, w, 32, SELECTION)
        self.cover(x, 103, w, 32)
        self.label(string, x + 10, 111, w - 20, 16, 1)


def _frame(fb, x, y, w, h, colour):
    """A rectangle two pixels thick."""
    fb.rect(x, y, w, h, colour)
    fb.rect(x + 1, y + 1, w - 2, h - 2, colour)


def key_bar(layout, ok_text, back_text):
    """The hint bar of the chart and statistics screens: the key caps OK (X) and BACK (Y),
    each with what it does.
    The BACK part keeps room for eight characters ("indietro")."""
    bar = layout.H - 20
    layout.fb.fill_rect(0, bar, layout.W, 20, BAR)
    back_x = layout.W - 4 - 64 - 22
    x = layout.key_cap(2, 4, bar + 2)
    layout.label(ok_text, x, bar + 2, back_x - 4 - x, 16, 0, GREY)
    x = layout.key_cap(3, back_x, bar + 2)
    layout.label(back_text, x, bar + 2, layout.W - 4 - x, 16, 0, GREY)
