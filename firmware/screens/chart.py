"""The chart screen: both totals of a game after each deal (the current game, or a
finished one from past games), and the target line.

128x64: NS a solid line, EW a dotted one (one colour), each named at its end on
the right, the totals in the bottom row; a game whose teams have names shows
them in two rows below the plot instead, each after a piece of its team's line.
240x135: both lines in the team colours, NS drawn two pixels thick, the totals
below in the team colours, the keys in the hint bar.
Every text goes through the layout's label() into a region (the text-fit test
checks them).
The points and the strings are worked out once per change of the game
(app.version); a redraw only draws lines and prepared strings: it allocates nothing.
Keys: OK the statistics, BACK where the chart was opened from.
A finished game's chart (from past games) is drawn with the names it was played with.
"""
import on_demand
from coinche.compat import const
from events.inputs import BACK, OK, is_key
from screens.base import Screen, played_name

_DASH = const(6)  # the target line: 3 pixels drawn in every 6


_APART = const(10)  # 128x64: the team codes at the lines' ends, from top to top (8 px high, 2 blank rows)


def _dotted(fb, x0, y0, x1, y1, colour):
    """A line with every other pixel drawn (EW on the one-colour screen)."""
    dx = x1 - x0
    dy = y1 - y0
    n = dx if dx > 0 else -dx
    m = dy if dy > 0 else -dy
    if m > n:
        n = m
    if n == 0:
        fb.pixel(x0, y0, colour)
        return
    for k in range(0, n + 1, 2):
        fb.pixel(x0 + dx * k // n, y0 + dy * k // n, colour)


class Chart(Screen):
    name = "chart"

    def __init__(self, app, back_to, game=None, names=None):
        Screen.__init__(self, app, back_to)
        self.game = game  # None: the current game
        self.played = names  # a finished game's names as it was played ({}: none); None: the table's
        self.version = -1  # app.version the points were worked out for
        self.points = None  # x, then NS y, then EW y, after deal 0 (the start), 1, ..., n
        self.count = 0  # points
        self.target_y = 0
        self.target_s = None  # the target ("2000") at the title's right, the dashed line's value
        self.legend = None  # ("NS 1230", "EW 880")
        self.colours = None  # NS, EW, axes, target
        self.key_bar = None  # 240x135: the layout's hint bar (render/layout_240x135.py), found once
        self.area = None  # the plot's left, top, right, bottom
        self.label_y = None  # 128x64: the heights of the NS and EW codes beside the lines' ends
        self.named = False  # 128x64: the teams have names: one row each below the plot, no codes

    def key(self, ev):
        app = self.app
        if is_key(ev, OK):
            app.go(on_demand.screen("Stats")(app, self, 0, self.game, self.played))
        elif is_key(ev, BACK):
            self.back()

    def team_name(self, team):
        """The team's name in this game (see played_name)."""
        return played_name(self.app, self.played, team)

    # -- geometry: the plot area of each layout
    def _area(self, layout):
        """(left, top, right, bottom) of the plot in pixels."""
        if layout.W >= 240:
            return 4, 26, layout.W - 5, 90
        if self.named:
            return 0, 12, layout.W - 2, 44  # the two rows of names and totals below
        return 0, 12, layout.W - 21, 52  # the team codes at the lines' ends on the right

    def _prepare(self, layout):
        app = self.app
        game = self.game or app.game
        scores = game.results.scores  # NS then EW of each deal: kept, nothing scored again
        n = len(scores) // 2 + 1
        texts = app.texts
        self.named = layout.W < 240 and (self.team_name("NS") != texts["NS"] or self.team_name("EW") != texts["EW"])
        self.area = self._area(layout)
        left, top, right, bottom = self.area
        target = game.rules["target"]
        high = target
        ns = ew = 0
        for i in range(0, len(scores), 2):
            ns += scores[i]
            ew += scores[i + 1]
            if ns > high:
                high = ns
            if ew > high:
                high = ew
        span = bottom - top
        pts = bytearray(3 * n)
        ns = ew = 0
        for i in range(n):
            if i:
                ns += scores[2 * i - 2]
                ew += scores[2 * i - 1]
            pts[3 * i] = left + (right - left) * i // (n - 1 if n > 1 else 1)
            pts[3 * i + 1] = bottom - span * ns // high
            pts[3 * i + 2] = bottom - span * ew // high
        self.points = pts
        self.count = n
        self.target_y = bottom - span * target // high
        self.target_s = str(target)
        self.legend = (self.team_name("NS") + " " + str(ns), self.team_name("EW") + " " + str(ew))
        # 128x64: where the team codes go, at the height of each line's end, _APART px apart at
        # least (two blank rows between them), the pair moved together inside the plot's height
        ns_y = pts[3 * n - 2] - 3
        ew_y = pts[3 * n - 1] - 3
        upper, lower = (ns_y, ew_y) if ns >= ew else (ew_y, ns_y)  # the leader's code on top
        upper = min(max(upper, top - 2), bottom - 8)
        lower = min(max(lower, top - 2), bottom - 8)
        if lower - upper < _APART:
            upper = min(max((upper + lower) // 2 - _APART // 2, top - 2), bottom - 8 - _APART)
            lower = upper + _APART
        self.label_y = (upper, lower) if ns >= ew else (lower, upper)
        if layout.W >= 240:
            from render.layout_240x135 import BAD, FRAME, TEAM, key_bar

            self.colours = (TEAM[0], TEAM[1], FRAME, BAD)  # the team colours, the frame grey, the red target
            self.key_bar = key_bar
        else:
            self.colours = (1, 1, 1, 1)
        self.version = app.version

    def draw(self, layout):
        app = self.app
        if self.version != app.version or self.points is None:
            self._prepare(layout)
        fb = layout.fb
        colour = layout.W >= 240
        left, top, right, bottom = self.area
        if colour:  # the target at the title's right (the two layouts name that argument apart)
            layout.title(app.texts["m_chart"], None, self.target_s)
        else:
            layout.title(app.texts["m_chart"], self.target_s)
        ns_c, ew_c, axis, mark = self.colours
        fb.vline(left, top, bottom - top + 1, axis)
        fb.hline(left, bottom, right - left + 1, axis)
        y = self.target_y
        for x in range(left, right + 1, _DASH):
            fb.hline(x, y, 3, mark)
        pts = self.points
        for i in range(self.count - 1):
            j = 3 * i
            x0 = pts[j]
            x1 = pts[j + 3]
            fb.line(x0, pts[j + 1], x1, pts[j + 4], ns_c)
            if colour:
                fb.line(x0, pts[j + 1] - 1, x1, pts[j + 4] - 1, ns_c)  # NS two pixels thick
                fb.line(x0, pts[j + 2], x1, pts[j + 5], ew_c)
            else:
                _dotted(fb, x0, pts[j + 2], x1, pts[j + 5], ew_c)
        ns_s = self.legend[0]
        ew_s = self.legend[1]
        texts = app.texts
        if colour:
            half = layout.W // 2 - 8
            layout.label(ns_s, 4, 94, half, 18, 0, ns_c)
            layout.label(ew_s, layout.W - 4 - half, 94, half, 18, 2, ew_c)
            self.key_bar(layout, texts["m_stats"], texts["k_back"])
        elif self.named:  # a row per team: a piece of its line, its name and total
            fb.hline(0, 51, 9, ns_c)
            _dotted(fb, 0, 59, 8, 59, ew_c)
            layout.label(ns_s, 12, 48, layout.W - 12)
            layout.label(ew_s, 12, 56, layout.W - 12)
        else:
            label_x = right + 4
            layout.label(texts["NS"], label_x, self.label_y[0], layout.W - label_x)
            layout.label(texts["EW"], label_x, self.label_y[1], layout.W - label_x)
            half = layout.W // 2 - 1
            layout.label(ns_s, 0, 56, half)
            layout.label(ew_s, layout.W - half, 56, half, 2)
