"""The statistics screen: per team, for the current game and over every kept game.

Four pages, OK to the next: NS this game, EW this game, NS all games, EW all
games (the finished games kept on flash and the current one). Each page is
rows of label and value (coinche.stats counts them): contracts taken, made
(with %), coinches and surcoinches won, capots, belotes, average points per
deal, games won. UP/DOWN scroll where the rows do not all fit (128x64).
The figures and strings are worked out when the screen opens and again only
after a change of the game (app.version); a redraw allocates nothing. Every
text goes through the layout's label() into a region (the text-fit test checks them).
Reading the archive scores every kept game once, one game in RAM at a time.
"""
from coinche.game import Game
from coinche.rules import Rules
from coinche.stats import BELOTES, CAPOTS, COINCHE_WON, GAMES, MADE, SURCOINCHE_WON, TAKEN, WON, Tally, percent
from events.inputs import BACK, OK, is_key, up_down
from screens.base import Screen, played_name
from render.text import width

# row labels (language keys), in the order shown
LABELS = ("st_taken", "st_made", "st_coinche", "st_surcoinche", "st_capots", "st_belotes", "st_average", "st_won")
TEAMS = ("NS", "EW")


def _values(tally, team):
    """The value strings of one team's rows, in LABELS order."""
    c = tally.counts[team]
    p = percent(c[MADE], c[TAKEN])
    avg = tally.average(team)
    return (str(c[TAKEN]), str(c[MADE]) if p is None else "%d %d%%" % (c[MADE], p), str(c[COINCHE_WON]),
            str(c[SURCOINCHE_WON]), str(c[CAPOTS]), str(c[BELOTES]), "-" if avg is None else str(avg),
            "%d/%d" % (c[WON], c[GAMES]))


def _winner_name(app, result, winner):
    """The name a finished game's winner had (kept with its result), else its code in the language."""
    names = result.get("names") if isinstance(result, dict) else None
    name = names.get(winner) if isinstance(names, dict) else None
    return name if name else app.texts[winner]


def tallies(app, shown=None, team_name=None):
    """(the game shown, every kept game and the current one) as two Tallies; an unreadable
    kept game is left out. shown: a finished game (None: the current one); team_name(team):
    its teams' names (None: app.team_name).

    Over every game, "games won" counts by team name: the games won by a team that
    had the name this team has in the game shown (by NS/EW when no names were given)."""
    team_name = team_name or app.team_name
    game = Tally()
    game.add_game(shown or app.game)
    every = Tally()
    won = {}  # winner's name -> games won
    archive = app.archive
    for i in range(len(archive)):
        try:
            g = archive[i]
            spec = g["rules"]
            played = Game(Rules.from_spec(spec), g["deals"], spec.get("dealer", "N"), spec.get("dir", "acw"),
                          spec.get("fix", ()))
            every.add_game(played)
            if played.over:
                name = _winner_name(app, g.get("result"), played.winner)
                won[name] = won.get(name, 0) + 1
        except (ValueError, KeyError, TypeError, AttributeError, OSError):
            pass  # the journal reported it at boot; the other games still count
        g = played = None
    current = app.game
    every.add_game(current)
    if current.over:
        name = app.team_name(current.winner)
        won[name] = won.get(name, 0) + 1
    for team in TEAMS:
        every.counts[team][WON] = won.get(team_name(team), 0)
    return game, every


class Stats(Screen):
    name = "stats"

    def __init__(self, app, back_to, page=0, game=None, names=None):
        Screen.__init__(self, app, back_to)
        self.game = game  # None: the current game
        self.played = names  # a finished game's names as it was played ({}: none); None: the table's
        self.page = page  # 0 NS game, 1 EW game, 2 NS all, 3 EW all
        self.top = 0  # first row shown
        self.version = -1
        self.pages = None  # per page: (title, values)
        self.colours = None  # of the NS and EW values
        self.key_bar = None  # 240x135: the layout's hint bar (render/layout_240x135.py), found once

    def team_name(self, team):
        """The team's name in this game (see played_name)."""
        return played_name(self.app, self.played, team)

    def _prepare(self, layout):
        app = self.app
        texts = app.texts
        game, every = tallies(app, self.game, self.team_name)
        pages = []
        for k in range(4):
            team = TEAMS[k & 1]
            scope = texts["st_game" if k < 2 else "st_all"]
            title = self.team_name(team) + " " + scope
            if width(title) > layout.W - 8:  # a long team name: its code, so the scope stays readable
                title = texts[team] + " " + scope
            pages.append((title, _values(every if k >= 2 else game, team)))
        self.pages = pages
        if layout.W >= 240:
            from render.layout_240x135 import TEAM, key_bar

            self.colours = TEAM
            self.key_bar = key_bar
        else:
            self.colours = (1, 1)
        self.version = app.version

    def _rows_shown(self, layout):
        return 8 if layout.W >= 240 else 6

    def key(self, ev):
        app = self.app
        if is_key(ev, OK):
            self.page = (self.page + 1) & 3
            self.top = 0
        elif is_key(ev, BACK):
            self.back()
        else:
            s = up_down(ev)
            if s:
                shown = self._rows_shown(app.layout)
                top = self.top - s
                most = len(LABELS) - shown
                self.top = 0 if top < 0 else most if top > most else top

    def draw(self, layout):
        app = self.app
        if self.version != app.version or self.pages is None:
            self._prepare(layout)
        texts = app.texts
        fb = layout.fb
        title, values = self.pages[self.page]
        layout.title(title)
        colour = layout.W >= 240
        c = self.colours[self.page & 1]
        if colour:
            y = 25
            pitch = 11
        else:
            y = 10
            pitch = 8
        shown = self._rows_shown(layout)
        right = layout.W - 4
        left = 4 if colour else 1
        for i in range(shown):
            k = self.top + i
            if k >= len(LABELS):
                break
            v = values[k]
            vw = width(v)
            if colour:
                layout.label(v, right - vw, y, vw, pitch, 2, c)
                layout.label(texts[LABELS[k]], left, y, right - vw - 8 - left, pitch, 0, 1)
            else:
                layout.label(v, right - vw, y, vw, 2, c)
                layout.label(texts[LABELS[k]], left, y, right - vw - 8 - left)
            y += pitch
        if colour:  # the keys as printed on the pack
            self.key_bar(layout, texts["st_next"], texts["k_back"])
        elif len(LABELS) > shown:  # scroll bar
            h = 48 * shown // len(LABELS)
            fb.fill_rect(layout.W - 2, 10 + (48 - h) * self.top // (len(LABELS) - shown), 2, h, 1)
