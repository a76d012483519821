"""Text on a FrameBuffer: the built-in 8x8 font plus accents, and numbers.

framebuf.text draws ASCII only, but the strings of four languages need é, ü,
à...: each string is split once into its ASCII base and a few accent marks
(cached), so drawing it again allocates nothing; a plain ASCII string is its own
drawing form (nothing built or kept for it). Numbers are drawn digit by
digit from constant one-character strings, because str(n) allocates.
Both layouts place their drawings in regions through Regions (below).
"""

DIG = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")

# accented character -> its ASCII base and its mark, read side by side from three
# constants (frozen into the UF2 they stay in flash; a dict would be built in RAM at
# import); marks are drawn in the two blank rows above a lowercase letter or in the
# row below (cedilla). A capital fills the cell's top rows, so an accented capital is
# drawn six rows high under its mark, inside its own cell: the mark stays visible on
# a selected row, under a title bar or in a big label (nothing is drawn above the cell).
_ACCENTED = "éèêëàâäçùûüôöîïìòÉÈÀÜÖÄß"
_ACCENT_BASES = "eeeeaaacuuuooiiioEEAUOAB"
# 1 acute, 2 grave, 3 circumflex, 4 diaeresis, 5 cedilla, 6 the tail of the sharp s (its
# base B's stem drawn below the line, so "ß" never reads as "B") (see _MARKS)
_ACCENT_MARKS = b"\x01\x02\x03\x04\x02\x03\x04\x05\x02\x03\x04\x03\x04\x03\x04\x02\x02\x01\x02\x02\x04\x04\x04\x06"

# mark -> pixel offsets (dx, dy) within the 8x8 cell, dy relative to the top
_MARKS = (
    (),
    ((4, 0), (5, 0), (3, 1), (4, 1)),           # acute
    ((2, 0), (3, 0), (3, 1), (4, 1)),           # grave
    ((3, 0), (4, 0), (2, 1), (5, 1)),           # circumflex
    ((1, 0), (2, 0), (4, 0), (5, 0)),           # diaeresis
    ((3, 7), (4, 7)),                           # cedilla
    ((1, 7), (2, 7)),                           # the sharp s's tail
)

_cache = {}  # strings built at run time (rows, contexts): bounded
# the language table's accented strings, prepared once when the language loads -> their
# drawing form; a plain ASCII string is its own drawing form, found so on every draw
# (a look at its characters, nothing kept: a set of the table's plain strings took
# 1.2 KB of the Pico's heap)
_table = {}
_table_code = None  # the language _table was prepared for


def prepare_table(texts, code=None):
    """Prepare every string of a language table, so drawing them never allocates
    (code None: the language prepared last, whose strings are already there).

    The frozen image (the UF2) ships each table prepared at build time
    (render/language_tables.py, CODE_prepared()): a render.constant_table.ConstantTable whose
    sorted strings and prepared tuples are constants in flash, so nothing of it is
    built in RAM."""
    global _table, _table_code
    _cache.clear()
    if code is None:
        code = _table_code
    _table_code = code
    try:
        from render import language_tables  # pyright: ignore[reportAttributeAccessIssue]
        _table = getattr(language_tables, code + "_prepared")()
        return
    except (ImportError, AttributeError, TypeError):
        pass
    _table = {}
    for key in texts:
        v = texts[key]
        p = _split(v)
        if p is not v:
            _table[v] = p


def forget_run_time_strings():
    """A new screen: the strings the last one built at run time are dead, and the
    cache would keep up to 32 of them (1-2 KB of the Pico's heap)."""
    _cache.clear()


def _prepare(string):
    p = _table.get(string)
    if p is not None:
        return p
    p = _cache.get(string)
    if p is None:
        p = _split(string)
        if p is string:  # plain ASCII: its own drawing form, nothing kept
            return string
        if len(_cache) >= 32:  # run-time strings: a small working set is enough
            _cache.clear()
        _cache[string] = p
    return p


def _split(string):
    """The drawing form of s: s itself when it is plain ASCII (nothing built), else
    (ASCII base, accent marks): the marks as bytes, three per accented character, its
    position, its mark and the capital it stands on (0 for a small letter or a cedilla: an
    accented capital is drawn by _draw_marks, a blank in the base), one small object instead
    of a tuple of tuples (40 accented strings of a language table: 1.7 KB of the Pico's heap)."""
    for ch in string:
        if ord(ch) >= 128:
            break
    else:
        return string
    base = []
    marks = bytearray()
    for i, ch in enumerate(string):
        if ord(ch) < 128:
            base.append(ch)
            continue
        accent = _ACCENTED.find(ch)
        b = _ACCENT_BASES[accent] if accent >= 0 else "?"
        m = _ACCENT_MARKS[accent] if accent >= 0 else 0
        upper = m and m < 5 and "A" <= b <= "Z"  # a cedilla or a tail goes under the base as it is
        base.append(" " if upper else b)  # the capital itself is drawn with its mark
        if m:
            marks.append(i)
            marks.append(m)
            marks.append(ord(b) if upper else 0)
    return "".join(base), bytes(marks)


def text(fb, string, x, y, colour=1):
    """Draw string at (x, y); returns the x just after it."""
    prepared = _prepare(string)
    if type(prepared) is str:  # plain ASCII
        fb.text(prepared, x, y, colour)
        return x + 8 * len(prepared)
    base, marks = prepared
    fb.text(base, x, y, colour)
    if marks:
        _draw_marks(fb, marks, x, 8, y, colour)
    return x + 8 * len(base)


def narrow_text(fb, string, x, y, colour=1):
    """Draw string with its characters 7 px apart instead of 8 (the font's glyphs are 6 px
    wide, so one blank column stays between them): for a line one character too long.
    Returns the x after it. Allocates nothing (one-character strings are interned)."""
    prepared = _prepare(string)
    if type(prepared) is str:  # plain ASCII
        base, marks = prepared, None
    else:
        base, marks = prepared
    for i in range(len(base)):
        fb.text(base[i], x + 7 * i - 1, y, colour)
    if marks:
        _draw_marks(fb, marks, x - 1, 7, y, colour)
    return x + 7 * len(base)


_CAPITAL_ROWS = b"\x00\x01\x02\x03\x04\x06"  # the glyph rows an accented capital keeps (rows 4 and 5 are alike)
_glyph = [None]  # an 8x8 framebuffer for one capital's glyph, made at the first accented capital


def _draw_marks(fb, marks, x, pitch, y, colour):
    """The accent marks of a prepared string whose character i is drawn at x + pitch * i
    (marks: position, mark, capital triples; see _split), and each accented capital: its
    glyph's rows _CAPITAL_ROWS drawn in the cell's rows 2 to 7, under the mark."""
    for k in range(0, len(marks), 3):
        cx = x + pitch * marks[k]
        m = marks[k + 1]
        capital = marks[k + 2]
        if capital:
            glyph = _glyph[0]
            if glyph is None:
                import framebuf
                glyph = _glyph[0] = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
            glyph.fill(0)
            glyph.text(chr(capital), 0, 0, 1)
            for row in range(6):
                source = _CAPITAL_ROWS[row]
                for px in range(8):
                    if glyph.pixel(px, source):
                        fb.pixel(cx + px, y + 2 + row, colour)
        for dx, dy in _MARKS[m]:
            fb.pixel(cx + dx, y + dy, colour)


def width(string):
    """The drawn width: 8 px per character, an accented one drawn as its ASCII base in one
    cell (MicroPython's str counts characters, not UTF-8 bytes), so measuring a text
    prepares and caches nothing (a text built only to be measured stays garbage)."""
    return 8 * len(string)


def first_that_fits(texts, region_width, measure=width):
    """The first of texts (alternatives, the longest first) whose measure(text) is at most
    region_width; the last one when none fits."""
    for t in texts:
        if measure(t) <= region_width:
            return t
    return texts[-1]


class Regions:
    """What both layouts (render/layout_128x64.py, render/layout_240x135.py) do with the region
    (a rectangle) each drawing is given: place the drawing in it, and report both to
    `probe` when it is set. The text-fit test (tests/mp/text_fit.py) sets probe and
    finds there every drawing that is cut, leaves its region, is off the screen or
    overlaps another."""

    probe = None  # probe(text, x, y, drawn width, drawn height, region x, y, width, height)

    def place(self, string, x, y, region_width, region_height, drawn_width, drawn_height, align=0):
        """The x at which a drawing of s, drawn_width x drawn_height, starts in the region
        (x, y, region_width, region_height): aligned 0 left, 1 centred, 2 right, and
        centred in the region's height (so drawn from y + (region_height - drawn_height) // 2)."""
        drawn_x = x + (region_width - drawn_width) * align // 2
        if self.probe is not None:
            self.probe(string, drawn_x, y + (region_height - drawn_height) // 2, drawn_width, drawn_height,
                       x, y, region_width, region_height)
        return drawn_x

    def cover(self, x, y, w, h):
        """The rectangle is painted over (a toast): what was drawn under it is hidden."""
        if self.probe is not None:
            self.probe(None, x, y, w, h, x, y, w, h)


def center(fb, string, y, region_width, colour=1, x0=0):
    text(fb, string, x0 + (region_width - width(string)) // 2, y, colour)


def ndigits(number):
    """How many digits n has (its sign not counted)."""
    number = -number if number < 0 else number
    k = 1
    while number >= 10:
        number //= 10
        k += 1
    return k


def num(fb, number, x, y, colour=1, right=False):
    """Draw the integer n (8x8 font) without allocating; left edge x, or right edge if right."""
    neg = number < 0
    if neg:
        number = -number
    k = ndigits(number) + (1 if neg else 0)
    if right:
        x -= 8 * k
    end = x + 8 * k
    cx = end - 8
    while True:
        fb.text(DIG[number % 10], cx, y, colour)
        number //= 10
        cx -= 8
        if not number:
            break
    if neg:
        fb.text("-", cx, y, colour)
    return end
