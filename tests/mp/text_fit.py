"""Every screen state, every language, one layout: does every drawn text fit its region?

argv: LAYOUT [--long-names] [--wifi] [--presets P,P...] [--overlong KEY=LETTER]... [--marks-above] [--big-totals] [--divider-example]
  LAYOUT        128x64 or 240x135
  --long-names  teams named with 8 characters (the longest a name may be)
  --wifi        home on both boards: each home state is drawn on a board without
                WiFi, then again on one with it, the link's state mark beside the
                names (counted in the `link marks N` line). The board's WiFi
                changes home's picture only, so one tour covers both boards
  --presets P,P the rule presets toured, each on a new device (default: all four).
                The presets share nothing, so a tour of some of them draws the
                very states the whole tour draws for them: a sampled run of the
                suite tours a few, and runs one after the other cover them all
  --overlong K=L the string K of every language table made far too long: 40 times the
                letter L (the test proves the check fails then; repeated, several keys
                at once, each of its own letter)
  --marks-above each accented capital measured with its mark two rows above its
                cell, as the font drew it before (the test proves the check sees it)
  --divider-example  no tour: home's NS total drawn as the 128x64 layout drew it
                before, 2 px from the divider (the test proves the check sees it)
  --big-totals  only the deals lists of a long game whose totals pass 1000 (the
                current game's and a past game's, scrolled through, and a deal's
                details), in every language; `big totals N` counts the totals of
                four digits drawn beside a scroll bar

Runs the real App in-process (fakeboard, RAM littlefs) and sets the layout's
probe: every label(), figures() and mark the layout draws reports the box it
drew and the region it was given. A text's box is where its ink is: the string
is drawn once into a scratch buffer with room above and below its cell, so an
accent or a cedilla drawn outside the 8x8 cell makes the box taller (and a big
label drawn through a one-cell buffer, which would lose such a mark, is
reported). The layout's framebuffer is wrapped: every bar, frame, line and
scroll bar it paints is a shape. After each render the boxes are checked:
  - the region lies on the screen, the drawn box lies in its region (nothing
    cut, nothing outside);
  - no two drawn boxes overlap (a toast's cover() hides what lies under it);
  - no text touches a line or a frame, lies half on a painted bar (a title bar,
    a selected row, a scroll bar), or under a bar painted after it.
Prints one JSON line per problem ("problem" lines), then `fit done STATES PROBLEMS`.
"""
import sys
import json

import framebuf

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path[:0] = [_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/bench/device_side", _ROOT + "/host_tools/rigs/device_side"]

from blockdev import RAMBlockDev, mount  # noqa: E402
from fakeboard import Board, ColourBoard  # noqa: E402
from coinche.game import Game  # noqa: E402
from coinche.rules import Rules  # noqa: E402
from render import languages  # noqa: E402
from render.text import text  # noqa: E402
from screens import history as history_screens, past_games as past_games_screen, settings as settings_screens  # noqa: E402
from screens.base import Ask  # noqa: E402
from screens.deal_entry import Entry  # noqa: E402
from screens.game_over import GameOver  # noqa: E402
from screens.menu import Menu, ask_end  # noqa: E402
from screens.table_screens import Home, ask_undo  # noqa: E402
from app import App  # noqa: E402
from table.draft import Draft  # noqa: E402
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP  # noqa: E402
from link import state as link_state  # noqa: E402

LAYOUT = sys.argv[1]
LONG_NAMES = "--long-names" in sys.argv
WIFI = "--wifi" in sys.argv
PRESETS = ("classic2000", "federation", "coinche1001", "coinche1000")
if "--presets" in sys.argv:
    PRESETS = tuple(sys.argv[sys.argv.index("--presets") + 1].split(","))
link_marks = [0]
# key -> the letter it is made of, 40 times (a letter per key: one tour tells the keys apart)
OVERLONG = dict(sys.argv[index + 1].split("=") for index in range(len(sys.argv)) if sys.argv[index] == "--overlong")
MARKS_ABOVE = "--marks-above" in sys.argv
BIG_TOTALS = "--big-totals" in sys.argv
big_totals = [0]
ACCENTED_CAPITALS = "ÉÈÀÜÖÄ"


records = []
state = {"screen": "", "lang": "", "what": ""}
problems = []
seen = set()
count = [0]
screens_seen = set()


shapes = []  # (kind "fill" or "line", x, y, w, h, colour, the number of drawings before it)
drawn = [0]  # drawings so far: a record's last field, so a shape knows what was drawn before it
_ink = {}  # string -> (first, last) ink row relative to its 8x8 cell
_ink_buffer = framebuf.FrameBuffer(bytearray(8 * 12 * 40), 8 * 40, 12 * 8, framebuf.MONO_HLSB)
MARKS = ("+", "x", "~")  # the layouts' drawn marks (tick, cross, link): boxes, no text


def ink_rows(s):
    """The rows, relative to the top of the 8x8 cell (0..7), of the first and last pixel
    text.text() sets for s (a string or a number): an accent above a capital gives a
    negative first row, a text without descenders ends at row 6."""
    got = _ink.get(s)
    if got is None:
        buffer = _ink_buffer
        buffer.fill(0)
        shown = s[:40] if isinstance(s, str) else str(s)
        text(buffer, shown, 0, 4, 1)
        first, last = 8, -1
        for row in range(12 * 8):
            for column in range(8 * len(shown)):
                if buffer.pixel(column, row):
                    first = min(first, row - 4)
                    last = max(last, row - 4)
                    break
        if last < 0:  # blank (spaces): the cell
            first, last = 0, 7
        if MARKS_ABOVE and isinstance(s, str) and any(ch in ACCENTED_CAPITALS for ch in s):
            first = -2
        got = _ink[s] = (first, last)
    return got


def probe(s, x, y, w, h, rx, ry, rw, rh):
    if s is None:  # covered: what lay under the rectangle is hidden
        records[:] = [r for r in records if not _overlap(r[1:5], (x, y, w, h))]
        shapes[:] = [q for q in shapes if not _overlap(q[1:5], (x, y, w, h))]
        return
    if s == "~":
        link_marks[0] += 1
    if s not in MARKS and h >= 8:
        first, last = ink_rows(s)
        scale = h // 8
        if (first < 0 or last > 7) and scale == 2 and LAYOUT == "128x64":
            report("mark lost", "%r is drawn big through one 8x8 cell: its accent is cut off" % s)
        y += first * scale
        h = (last - first + 1) * scale
    drawn[0] += 1
    records.append((s, x, y, w, h, rx, ry, rw, rh, drawn[0]))


class ShapeProbe:
    """The layout's framebuffer, every bar, frame and line it paints written down (the
    text's own pixels, its glyph runs and a mark's strokes, lie in the region reported
    just before them: not shapes). Called for every run of a big label's glyphs, so the
    test of that region is written out (no slice, no call) and the drawings that are not
    shapes go straight to the framebuffer's own methods."""

    def __init__(self, fb):
        self.fb = fb
        self._fill_rect = fb.fill_rect
        self._rect = fb.rect
        self._hline = fb.hline
        self._vline = fb.vline
        for name in ("text", "pixel", "fill", "line", "blit", "scroll", "ellipse", "poly"):
            if hasattr(fb, name):
                setattr(self, name, getattr(fb, name))

    def __getattr__(self, name):
        return getattr(self.fb, name)

    def _shape(self, kind, x, y, w, h, colour):
        if w <= 0 or h <= 0:
            return
        if records:
            last = records[-1]
            rx = last[5]
            ry = last[6]
            if rx <= x and ry <= y and x + w <= rx + last[7] and y + h <= ry + last[8]:
                return  # the glyphs of the text just placed, inside its region
        shapes.append((kind, x, y, w, h, colour, drawn[0]))

    def fill_rect(self, x, y, w, h, colour):
        # _shape("fill", ...) written out: a big label calls this for every run of its glyphs
        self._fill_rect(x, y, w, h, colour)
        if w <= 0 or h <= 0:
            return
        if records:
            last = records[-1]
            rx = last[5]
            ry = last[6]
            if rx <= x and ry <= y and x + w <= rx + last[7] and y + h <= ry + last[8]:
                return
        shapes.append(("fill", x, y, w, h, colour, drawn[0]))

    def rect(self, x, y, w, h, colour, *fill):
        if fill and fill[0]:
            self._shape("fill", x, y, w, h, colour)
        else:
            for edge in ((x, y, w, 1), (x, y + h - 1, w, 1), (x, y, 1, h), (x + w - 1, y, 1, h)):
                self._shape("line", edge[0], edge[1], edge[2], edge[3], colour)
        self._rect(x, y, w, h, colour, *fill)

    def hline(self, x, y, w, colour):
        self._shape("line", x, y, w, 1, colour)
        self._hline(x, y, w, colour)

    def vline(self, x, y, h, colour):
        self._shape("line", x, y, 1, h, colour)
        self._vline(x, y, h, colour)


# big figures (the totals) this far from a vertical line at least: closer, at a table's
# distance the divider reads as a digit's bar (the trial's "444" against home's divider)
CLEARANCE = 3


def _inside(a, b):
    """Box a lies wholly in box b."""
    return b[0] <= a[0] and b[1] <= a[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def report(kind, detail):
    key = (state["lang"], state["screen"], kind, detail)
    if key in seen:
        return
    seen.add(key)
    problems.append({"lang": state["lang"], "screen": state["screen"], "what": state["what"],
                     "kind": kind, "detail": detail})


def check(layout):
    """Every drawing against its region, every pair of drawings, every shape against every
    drawing; the boxes as (left, top, right, bottom), compared written out: thousands of
    renders, each with dozens of drawings (the same tests as _inside and _overlap)."""
    W, H = layout.W, layout.H
    for s, x, y, w, h, rx, ry, rw, rh, _ in records:
        if rx < 0 or ry < 0 or rx + rw > W or ry + rh > H:
            report("region off screen", "%r region (%d,%d %dx%d)" % (s, rx, ry, rw, rh))
        if x < rx or y < ry or x + w > rx + rw or y + h > ry + rh:
            report("cut", "%r is %dx%d at (%d,%d), region %dx%d at (%d,%d)" % (s, w, h, x, y, rw, rh, rx, ry))
    n = len(records)
    boxes = [(r[1], r[2], r[1] + r[3], r[2] + r[4]) for r in records]
    for i in range(n):
        left, top, right, bottom = boxes[i]
        for j in range(i + 1, n):
            other = boxes[j]
            if left < other[2] and other[0] < right and top < other[3] and other[1] < bottom:
                a = records[i]
                b = records[j]
                report("overlap", "%r at (%d,%d %dx%d) and %r at (%d,%d %dx%d)" % (
                    a[0], a[1], a[2], a[3], a[4], b[0], b[1], b[2], b[3], b[4]))
    for kind, sx, sy, sw, sh, colour, before in shapes:
        right = sx + sw
        bottom = sy + sh
        within = False
        for box in boxes:
            if box[0] <= sx and box[1] <= sy and right <= box[2] and bottom <= box[3]:
                within = True  # a stroke within a drawing (an underline in a text's last row, a mark)
                break
        if within:
            continue
        if kind == "line" and sw == 1 and sh > 1:  # a divider or a frame's side: big figures keep clear of it
            for r in records:
                if r[8] >= 16 and not isinstance(r[0], str) and _overlap((r[1] - CLEARANCE, r[2], r[3] + 2 * CLEARANCE, r[4]), (sx, sy, sw, sh)):
                    report("touches a divider", "%r at (%d,%d %dx%d) is less than %d px from the line (%d,%d %dx%d)" % (
                        r[0], r[1], r[2], r[3], r[4], CLEARANCE, sx, sy, sw, sh))
        for index in range(n):
            box = boxes[index]
            if not (box[0] < right and sx < box[2] and box[1] < bottom and sy < box[3]):
                continue
            r = records[index]
            if kind == "line":
                report("on a line", "%r at (%d,%d %dx%d) touches the line (%d,%d %dx%d)" % (r[0], r[1], r[2], r[3], r[4],
                                                                                         sx, sy, sw, sh))
            elif r[9] > before:  # the text was drawn on the bar
                if colour != 0 and not (sx <= box[0] and sy <= box[1] and box[2] <= right and box[3] <= bottom):
                    report("half on a bar", "%r at (%d,%d %dx%d) lies half on the bar (%d,%d %dx%d)" % (
                        r[0], r[1], r[2], r[3], r[4], sx, sy, sw, sh))
            else:
                report("under a bar", "%r at (%d,%d %dx%d) is painted over by (%d,%d %dx%d)" % (
                    r[0], r[1], r[2], r[3], r[4], sx, sy, sw, sh))


def draw_and_check(app, what):
    records[:] = []
    shapes[:] = []
    state["screen"] = app.view.name
    state["what"] = what
    screens_seen.add(app.view.name)
    app.render()
    count[0] += 1
    check(app.layout)


def render(app, what=""):
    draw_and_check(app, what)
    view = app.view
    if WIFI and view.name == "home":  # the same state on a board with WiFi: the link's mark drawn
        app.link = link_state
        draw_and_check(app, what + ", WiFi")
        app.link = None
    if view.name == "home" and view.phase == 0 and not what.startswith("toast "):
        for phase in (1, 2):  # home's key rows turn: the arrows, then held OK, in words
            view.phase = phase
            render(app, what + " keys %d" % phase)
        view.phase = 0


def ev(button, kind=PRESS):
    return (kind << 2) | button


def press(app, button, kind=PRESS, what=""):
    app.handle(ev(button, kind))
    render(app, what)


glyph_fill = [None]  # the display's own fill_rect: the runs of a scaled label's glyphs


def scale_glyphs(fill_rect, *rest):
    """The 240x135 layout's scaled text, its glyph runs filled straight on the display.
    Its label() reports the box _scale fills, so each run lies in a drawing's box, and
    ShapeProbe would only find it there and drop it: ten million calls of Python per tour,
    a third of the tour's time, for nothing written down."""
    original_scale(glyph_fill[0], *rest)


if LAYOUT == "240x135":
    from render import layout_240x135

    original_scale = layout_240x135._scale
    layout_240x135._scale = scale_glyphs


def big_glyphs(layout, display):
    """The 128x64 layout's big text drawn with its glyph pixels straight on the display
    (as scale_glyphs: they lie in the box its label() reported)."""
    draw_big = layout._big
    probing = layout.fb

    def big(string, x, y, colour):
        layout.fb = display
        try:
            draw_big(string, x, y, colour)
        finally:
            layout.fb = probing
    return big


def fresh_app(preset):
    """A new device: a fresh filesystem, the App on it, the probe set."""
    try:
        import os
        os.umount("/flash")
    except Exception:
        pass
    mount(RAMBlockDev(4096, 352), "/flash")
    board = ColourBoard() if LAYOUT == "240x135" else Board()
    app = App(board, {"rules": preset})
    layout = app.layout
    display = layout.fb
    layout.probe = probe
    layout.fb = ShapeProbe(display)
    if hasattr(layout, "fill_rect"):
        layout.fill_rect = layout.fb.fill_rect
        glyph_fill[0] = display.fill_rect
    else:
        layout._big = big_glyphs(layout, display)
    if LONG_NAMES:
        names = {"NS": "ABCDEFGH", "EW": "MNOPQRST"}
        app.team_name = names.get
    return app


def set_language(app, code):
    app.settings["lang"] = code
    app.set_language(code)
    if OVERLONG:  # the table read like a dict, as a dict with the texts too long
        texts = {key: app.texts[key] for key in app.texts}
        for key in OVERLONG:
            texts[key] = OVERLONG[key] * 40
        app.texts = texts
        from render.text import prepare_table
        prepare_table(app.texts)
    state["lang"] = code


DEALS = {
    "classic2000": [
        {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 112},
        {"taker": "EW", "bid": 80, "trump": "S", "points": 67, "belote": {"NS": 0, "EW": 1}},
        {"bid": "pass"},
        {"taker": "EW", "bid": "capot", "trump": "C", "points": 162, "tricks": 8, "belote": {"NS": 0, "EW": 1}},
        {"taker": "NS", "bid": 160, "trump": "D", "coinche": 1, "points": 162, "tricks": 8},
        {"taker": "NS", "bid": 90, "trump": "D", "points": 70},
    ],
    "federation": [
        {"taker": "NS", "bid": 160, "trump": "NT", "coinche": 2, "points": 40},
        {"taker": "EW", "bid": "generale", "trump": "AT", "points": 162, "tricks": 8, "solo": True, "coinche": 2,
         "belote": {"NS": 0, "EW": 2}, "melds": {"NS": [], "EW": ["carre_J", "quinte", "quinte"]}},
        {"taker": "NS", "bid": "capot", "trump": "S", "points": 162, "tricks": 8, "coinche": 1},
        {"taker": "EW", "bid": 90, "trump": "S", "points": 50, "belote": {"NS": 1, "EW": 0}},
        # what a player reported: a carre of nines for EW, a cinquante and the belote for NS
        {"taker": "NS", "bid": 110, "trump": "H", "points": 92, "belote": {"NS": 1, "EW": 0},
         "melds": {"NS": ["quarte"], "EW": ["carre_9"]}},
        # a failed 100 x2 with a belote: the reason and the belote both shown
        {"taker": "EW", "bid": 100, "trump": "S", "coinche": 1, "points": 70, "belote": {"NS": 0, "EW": 1}},
    ],
}
DEALS["coinche1000"] = DEALS["classic2000"]
DEALS["coinche1001"] = DEALS["federation"][:1] + DEALS["federation"][2:]


def saved(app, rec):
    """Save one deal; a record the preset refuses is a mistake in this list, not a state."""
    n = len(app.game.deals)
    play(app, [rec])
    if len(app.game.deals) == n and not app.game.over:
        print("refused", json.dumps(rec))


# one deal per verdict of the check-and-save step: each failure reason, capot and
# generale named, belotes and melds on the detail line, the game's last deal
CONFIRM = {
    "classic2000": [
        {"taker": "NS", "bid": 80, "trump": "suit", "points": 60, "belote": {"NS": 1, "EW": 0}},  # 82
        {"taker": "EW", "bid": 120, "trump": "suit", "coinche": 2, "points": 95},  # under the bid
        {"taker": "NS", "bid": "capot", "trump": "suit", "points": 150},  # not all tricks
        {"taker": "EW", "bid": 80, "trump": "suit", "points": 162, "tricks": 8, "belote": {"NS": 0, "EW": 1}},
        {"taker": "NS", "bid": 90, "trump": "suit", "points": 0, "tricks": 0},  # the defence took all
        {"taker": "EW", "bid": 100, "trump": "suit", "coinche": 1, "points": 70,
         "belote": {"NS": 0, "EW": 1}},  # failed under the bid, with a belote: both shown
        {"taker": "NS", "bid": 160, "trump": "suit", "coinche": 2, "points": 162, "tricks": 8},  # ends the game
    ],
    "federation": [
        {"taker": "NS", "bid": 80, "trump": "suit", "points": 81},  # not more than the defence
        {"taker": "EW", "bid": "generale", "trump": "AT", "points": 162, "tricks": 8,
         "belote": {"NS": 2, "EW": 2}},  # not alone; four belotes
        {"taker": "NS", "bid": "generale", "trump": "suit", "coinche": 2, "points": 162, "tricks": 8, "solo": True},
        {"taker": "EW", "bid": 100, "trump": "AT", "points": 95, "belote": {"NS": 1, "EW": 1},
         "melds": {"NS": ["tierce"], "EW": ["tierce"]}},  # best melds not said yet
        {"taker": "NS", "bid": 110, "trump": "suit", "coinche": 1, "points": 120, "belote": {"NS": 0, "EW": 1},
         "melds": {"NS": ["carre_J", "quinte"], "EW": ["tierce"]}},
        {"taker": "NS", "bid": 110, "trump": "suit", "points": 92, "belote": {"NS": 1, "EW": 0},
         "melds": {"NS": ["quarte"], "EW": ["carre_9"]}},  # EW's carre, NS's cinquante and belote
        {"taker": "EW", "bid": 100, "trump": "suit", "coinche": 1, "points": 70, "belote": {"NS": 1, "EW": 1},
         "melds": {"NS": ["tierce"], "EW": ["quarte"]}},  # failed: reason, belotes and melds
    ],
}


def play(app, recs):
    for rec in recs:
        if app.game.over:
            break
        app.save_deal(rec, None)
        app.toast_msg = None


def tour_lists(app, screen, what):
    """Every row of a list selected once (so scrolled to every position)."""
    app.go(screen)
    render(app, what)
    n = len(screen.cached_rows())
    for _ in range(n):
        press(app, DOWN, PRESS, what)
    for _ in range(n):
        press(app, UP, PRESS, what)


def phases(app, what, count=3):
    """The current screen with its turning hint line at each of its next texts."""
    for _ in range(count):
        app.view.phase += 1
        render(app, what + ", hint turned")


def tour_entry(app, taker):
    """A deal entered through every step, every value of every step drawn."""
    app.go(Home(app))
    app.handle(ev(UP if taker == "NS" else DOWN))
    render(app, "entry")
    e = app.view
    d = e.draft
    # contract: every bid, at every contract type
    for _ in range(len(d.kinds())):
        for _ in range(len(d.bid_items())):
            press(app, UP, PRESS, "bid")
        press(app, OK, LONG, "kind")
    for _ in range(len(d.bid_items()) - 1):  # back to 80 at a suit ... then 100
        press(app, DOWN, PRESS, "bid")
    while d.bid != 100:
        press(app, UP, PRESS, "bid")
    phases(app, "bid")
    # the coinche (held BACK): x2, x4 at every bid (a capot where it is forbidden says so), then none
    press(app, BACK, LONG, "coinche")
    press(app, BACK, LONG, "coinche")
    for _ in range(len(d.bid_items())):
        press(app, UP, PRESS, "bid coinched")
        app.toast_msg = None
    press(app, BACK, LONG, "coinche")
    app.toast_msg = None
    press(app, OK, PRESS, "to confirm at the contract's figure")
    phases(app, "confirm at the contract's figure")
    press(app, BACK, PRESS, "to tens")
    for _ in range(len(d.tens_items())):
        press(app, UP, PRESS, "tens")
    press(app, OK, LONG, "pile")
    app.toast_msg = None
    press(app, OK, LONG, "pile back")
    app.toast_msg = None
    while d.tens != 8:
        press(app, UP, PRESS, "tens")
    phases(app, "tens")
    press(app, OK, LONG, "pile")
    phases(app, "tens, defence pile")
    press(app, OK, LONG, "pile back")
    app.toast_msg = None
    press(app, OK, PRESS, "to confirm")
    phases(app, "confirm")
    for _ in range(10):  # the card points by one, on the confirm step
        press(app, UP, PRESS, "points by one")
    press(app, DOWN, PRESS, "points by one")
    # the defence's pile: its points by one on the confirm step too
    press(app, BACK, PRESS, "back to tens")
    press(app, OK, LONG, "pile")
    app.toast_msg = None
    press(app, OK, PRESS, "to confirm")
    for _ in range(10):
        press(app, UP, PRESS, "points by one, defence pile")
    press(app, BACK, PRESS, "back to tens")
    press(app, OK, LONG, "pile back")
    app.toast_msg = None
    press(app, OK, PRESS, "to confirm")
    for hold_key, team in ((OK, "NS"), (BACK, "EW")):
        # every answer of the team's announce picker taken once: UP, DOWN, held OK, then
        # each row of the list behind OK (an added meld brings its removal row)
        k = 0
        while True:
            press(app, hold_key, LONG, "announce picker")
            if e.meld_team is None:  # the belote toggled, or nothing to announce
                app.toast_msg = None
                break
            others = e._picker(team)[0][3]
            if k >= 3 + len(others):
                press(app, BACK, PRESS, "announce picker closed")
                break
            if k < 3:
                press(app, (UP, DOWN, OK)[k], LONG if k == 2 else PRESS, "announced")
            else:
                press(app, OK, PRESS, "announce list")
                if k == 3:
                    press(app, BACK, PRESS, "announce list left")
                    press(app, OK, PRESS, "announce list")
                for _ in range(k - 3):
                    press(app, DOWN, PRESS, "announce list")
                press(app, OK, PRESS, "announced")
            if e.meld_team is not None:  # a key with nothing to give: the picker stays
                press(app, BACK, PRESS, "announce picker closed")
            if e.step == "melds_to":
                press(app, UP, PRESS, "melds to NS")
            k += 1
    if e.step == "confirm" and e.draft.melds_unsettled():
        press(app, OK, PRESS, "melds to")
        press(app, BACK, PRESS, "melds to left")
    while e.step != "confirm" and app.view is e:
        press(app, OK, PRESS, "next")
    render(app, "confirm")
    # edit: starts at the taker
    app.go(Home(app))


def tour_settings(app):
    # the next dealer, corrected from the menu: every seat
    picker = settings_screens.ValuePicker(app, "m_dealer", Menu(app))
    app.go(picker)
    render(app, "next dealer")
    for _ in range(4):
        press(app, UP, PRESS, "next dealer")
    # the team names: the list, then every name offered for each team
    teams = settings_screens.TeamsScreen(app, settings_screens.Settings(app))
    tour_lists(app, teams, "teams")
    for team in ("NS", "EW"):
        picker = settings_screens.ValuePicker(app, "s_name", teams, team)
        app.go(picker)
        render(app, "team name")
        for _ in range(len(picker.choices())):
            press(app, UP, PRESS, "team name")
    # a name of one's own, letter by letter: every letter, then eight of the widest
    from screens.name_picker import LETTERS, NamePicker
    for team in ("NS", "EW"):
        app.go(NamePicker(app, team, teams))
        render(app, "name picker")
        phases(app, "name picker")
        for _ in range(len(LETTERS)):
            press(app, UP, PRESS, "name picker letter")
        while app.view.cursor < 7:
            press(app, OK, PRESS, "name picker next")
        app.toast_msg = None
        kept = app.settings.get("names")
        app.settings["names"] = {team: "W" * 8}  # the widest name the picker can make
        app.go(NamePicker(app, team, teams))
        render(app, "name picker, eight W")
        app.settings["names"] = kept
    settings = settings_screens.Settings(app)
    tour_lists(app, settings, "settings")
    for key in settings_screens.Settings.ITEMS:
        if key == "s_options":
            opts = settings_screens.OptionsScreen(app, settings)
            tour_lists(app, opts, "options")
            for option in settings_screens.LISTED_OPTIONS:
                picker = settings_screens.ValuePicker(app, "s_option", opts, option)
                app.go(picker)
                render(app, option)
                for _ in range(len(picker.choices())):
                    press(app, UP, PRESS, option)
            continue
        if key == "s_names":
            continue  # the teams screen and its pickers: toured above
        picker = settings_screens.ValuePicker(app, key, settings)
        app.go(picker)
        render(app, key)
        for _ in range(len(picker.choices())):
            press(app, UP, PRESS, key)


def tour_language(app, code):
    set_language(app, code)
    T = app.texts
    # home: before the first deal, then after each deal of the list
    app.go(Home(app))
    render(app, "home fresh")
    for seat in ("N", "W", "S", "E"):
        app.settings["dealer"] = seat
        app.table.game = app.table.empty_game()
        app.table.touch()
        app.go(Home(app))
        render(app, "home dealer " + seat)
    del app.settings["dealer"]
    app.table.game = app.table.empty_game()
    for rec in DEALS[app.game.rules.preset]:
        saved(app, rec)
        app.go(GameOver(app) if app.game.over else Home(app))
        render(app, "after %r" % (rec,))
    tour_chart_stats(app, "during a game")
    # the menu, the history, a deal's menu, the questions
    tour_lists(app, Menu(app), "menu")
    tour_lists(app, history_screens.History(app), "history")
    for index in range(len(app.game.deals)):  # every deal's details
        tour_lists(app, history_screens.DealMenu(app, index), "deal menu %d" % index)
    if app.game.deals:
        ask_undo(app, Home(app))
        render(app, "undo?")
    app.go(Ask(app, T["m_new"], None, lambda: None, Home(app)))
    render(app, "new game?")
    # every string of the table as a toast, over home
    app.go(Home(app))
    for k in T:
        app.show_message(T[k])
        render(app, "toast " + k)
    app.toast_msg = None
    tour_settings(app)


def tour_entries(app):
    if app.game.over:
        app.table.game = app.table.empty_game()
    for taker in ("NS", "EW"):
        tour_entry(app, taker)
    # an entry that cannot be saved: belote at no trump
    draft = Draft(app.game.rules, "NS", None)
    draft.bid = 80
    draft.kind = "NT" if "NT" in draft.kinds() else draft.kind
    draft.belote = (1, 0)
    entry = Entry(app, draft)
    entry.step = "confirm"
    entry._evaluate()
    app.go(entry)
    render(app, "confirm error")
    # the check-and-save step for every verdict and reason, new and edited
    for rec in CONFIRM.get(app.game.rules.preset, CONFIRM["federation"]):
        for index in (None, 0) if app.game.deals else (None,):
            entry = Entry(app, Draft(app.game.rules, record=rec), index, Home(app))
            entry.step = "confirm"
            entry._evaluate()
            app.go(entry)
            render(app, "confirm %r" % (rec,))
            if entry.draft.has_points():  # the same deal counted on the defence's pile
                entry.draft.set_pile("D")
                entry.goto("confirm")
                render(app, "confirm, defence pile %r" % (rec,))
    # card points of 162 (and 0), both piles: saving asks "Capot?" first
    for tens, units, pile in ((16, 2, "T"), (0, 0, "T"), (0, 0, "D"), (16, 2, "D")):
        draft = Draft(app.game.rules, "EW", None)
        draft.set_pile(pile)
        draft.tens, draft.units = tens, units
        entry = Entry(app, draft)
        app.go(entry)
        entry.goto("confirm")
        press(app, OK, PRESS, "capot question")
        if entry.capot_question is not None:
            phases(app, "capot question", 2)
    # editing a saved deal starts at the taker step (when the tour's deals ended the game,
    # the new one above gets a deal: every preset draws the step)
    if not app.game.deals:
        saved(app, DEALS[app.game.rules.preset][0])
    app.go(Entry(app, Draft(app.game.rules, record=app.game.deals[0]), 0, Home(app)))
    render(app, "edit taker")


def tour_chart_stats(app, what):
    """The chart, then every page of the statistics, scrolled to the end and back."""
    from screens.chart import Chart
    from screens.stats import LABELS

    back = GameOver(app) if app.game.over else Home(app)
    app.go(Chart(app, back))
    render(app, "chart " + what)
    press(app, OK, PRESS, "stats " + what)
    for _ in range(4):
        for _ in range(len(LABELS)):
            press(app, DOWN, PRESS, "stats scrolled " + what)
        for _ in range(len(LABELS)):
            press(app, UP, PRESS, "stats scrolled " + what)
        press(app, OK, PRESS, "stats next page " + what)
    app.go(back)


def tour_game_over(app, code):
    """A game played to its end (each winner), game over, then the past games."""
    for winner in ("NS", "EW"):
        app.table.game = Game(app.game.rules, (), "N")
        app.table.touch()
        loser = "EW" if winner == "NS" else "NS"
        while not app.game.over:
            play(app, [{"taker": winner, "bid": 160, "trump": "H", "coinche": 1, "points": 162, "tricks": 8}])
        app.go(GameOver(app))
        render(app, "game over " + winner)
        tour_chart_stats(app, "game over " + winner)
        app.new_game()
        app.toast_msg = None
        play(app, [{"taker": loser, "bid": 80, "trump": "S", "points": 90}])
    arc = past_games_screen.Archive(app)
    tour_lists(app, arc, "past games")
    app.go(arc)
    arc.sel = 0
    arc.pick(0)
    render(app, "past game")
    if app.view.name == "history":
        deals = app.view
        tour_lists(app, deals, "past game deals")
        deals.pick(0)  # a finished game's deal: its details, read-only
        tour_lists(app, app.view, "past game deal")


def tour_concours(app, code):
    """Menu > Concours with its pickers at their highest numbers, a round at the
    highest table with four-digit totals (each winner) and a drawn round, home during
    it and the round's end."""
    from screens import concours

    screen = concours.Concours(app, Menu(app))
    tour_lists(app, screen, "concours")
    for field in concours.FIELDS:
        picker = concours.NumberPicker(app, field, screen)
        app.go(picker)
        for _ in range(2):
            press(app, DOWN, PRESS, field)  # 1 -> the highest and the one before
    games = {"NS": {"taker": "NS", "bid": 160, "trump": "H", "coinche": 1, "points": 162, "tricks": 8},
             "EW": {"taker": "EW", "bid": 160, "trump": "H", "coinche": 1, "points": 162, "tricks": 8},
             "draw": {"bid": "pass"}}
    for outcome in ("NS", "EW", "draw"):
        app.start_round({"round": 9, "table": 49, "teams": {"NS": 98, "EW": 99}})
        app.toast_msg = None
        render(app, "concours home " + outcome)
        for _ in range(app.game.rules.round_deals):
            play(app, [games[outcome]])
            app.home()
            render(app, "concours %s deal %d" % (outcome, len(app.game.deals)))
        assert app.game.over, (outcome, app.game.deals)
        app.home()
        render(app, "round over " + outcome)  # not confirmed: who confirms, how
        app.view.phase = 1
        render(app, "round over keys " + outcome)  # its key line's other text
        press(app, OK, LONG, "round over confirmed " + outcome)  # the other team's hold: the code
        press(app, OK, PRESS, "next round " + outcome)
    # the end of a round on time, asked from the menu with the deals played
    app.start_round({"round": 9, "table": 49, "teams": {"NS": 98, "EW": 99}})
    app.toast_msg = None
    play(app, [games["NS"]])
    ask_end(app, Menu(app))
    render(app, "end the round now")
    press(app, OK, PRESS, "round ended on time")
    app.new_game()
    app.toast_msg = None
    tour_clock(app)


class ClockLink:
    """What home reads of the club link in a timed round: its line (link/table_link.py)."""
    line = None


def tour_clock(app):
    """A timed round's clock on home, as the club link gives it: the longest time left
    (1200 minutes, the twelfth deal), under a minute, then the last deal."""
    from link.table_link import clock_line

    app.start_round({"round": 9, "table": 49, "teams": {"NS": 98, "EW": 99}})
    app.toast_msg = None
    held = app.club
    app.club = ClockLink()
    for seconds in (72000, 59, 0):
        app.club.line = clock_line(app.texts, 12, 12, seconds)
        app.dirty = True
        render(app, "clock home %d" % seconds)
    app.club = held
    app.new_game()
    app.toast_msg = None


# twelve deals, each team taking in turn: both totals pass 1000 before either reaches
# classic2000's 2000, and the list is longer than a screen; then a surcoinched capot
# (a deal score of four digits) ends the game
LONG_GAME = [{"taker": "NS" if k & 1 else "EW", "bid": 100, "trump": "H", "points": 122 - 2 * k} for k in range(12)] + [
    {"taker": "EW", "bid": "capot", "trump": "H", "coinche": 2, "points": 162, "tricks": 8}]


def count_big_totals(app):
    """The totals of four digits the last render drew while the list showed a scroll bar."""
    view = app.view
    if len(view.cached_rows()) > app.layout.RECORD_ROWS:
        big_totals[0] += len([r for r in records if type(r[0]) is int and r[0] >= 1000])


def tour_big_totals(app):
    """The current game's deals, every row selected (and each time the totals counted),
    a deal's details scrolled through, then the same game's deals as a past game."""
    play(app, LONG_GAME)
    app.home()
    deals = history_screens.History(app)
    app.go(deals)
    deals.sel = 0
    deals.top = 0
    render(app, "long game deals")
    count_big_totals(app)
    for _ in range(len(deals.cached_rows())):
        press(app, DOWN, PRESS, "long game deals")
        count_big_totals(app)
    deals.pick(deals.sel)
    tour_lists(app, app.view, "long game deal")
    app.new_game()
    app.toast_msg = None
    arc = past_games_screen.Archive(app)
    app.go(arc)
    arc.sel = 0
    arc.pick(0)
    past = app.view
    past.sel = 0
    past.top = 0
    render(app, "long past game deals")
    for _ in range(len(past.cached_rows())):
        press(app, DOWN, PRESS, "long past game deals")
        count_big_totals(app)


def main():
    if BIG_TOTALS:
        for code in languages.LANGS:
            app = fresh_app("classic2000")
            set_language(app, code)
            tour_big_totals(app)
        for p in problems:
            print("problem", json.dumps(p))
        print("big totals", big_totals[0])
        print("fit done", count[0], len(problems))
        return
    for preset in PRESETS:
        app = fresh_app(preset)
        for code in languages.LANGS:
            set_language(app, code)
            app.table.game = Game(Rules.from_spec({"preset": preset, "options": {}}), (), "N")
            app.table.touch()
            tour_language(app, code)
            tour_entries(app)
            tour_game_over(app, code)
            tour_concours(app, code)
    for p in problems:
        print("problem", json.dumps(p))
    print("screens", json.dumps(sorted(screens_seen)))
    print("link marks", link_marks[0])
    print("fit done", count[0], len(problems))


def divider_example():
    """Home's NS total where the 128x64 layout drew it before (its region up to 2 px from
    the divider at x 64): the check must report it (the test proves the check sees it)."""
    app = fresh_app("federation")
    state["screen"] = "home"
    state["lang"] = "fr"
    state["what"] = "NS 444 up to the divider"
    records[:] = []
    shapes[:] = []
    app.layout.figures(444, 10, 9, 52, 20, 11, 3, 2)
    app.layout.fb.vline(64, 9, 29, 1)
    check(app.layout)
    for p in problems:
        print("problem", json.dumps(p))
    print("fit done", 1, len(problems))


if "--divider-example" in sys.argv:
    divider_example()
else:
    main()
