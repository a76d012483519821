"""The screens' common ground: the base Screen, the scrolling lists, the yes/no
question and the contract text every list and title shows.

The key map everywhere: UP/DOWN move or choose, OK confirms (held: the screen's
second action), BACK steps back and never loses what was entered.

A screen gets the application (app): it navigates with app.go(screen) and
app.home(), tells the player with app.show_message(text) and app.tell(message), reads
the texts of the language in use (app.texts) and the game at the table
(app.table, table/game_table.py), whose methods make every change. It imports
neither the application loop nor the screens that open it (the on-demand
screens import this module, never the other way round).
"""
from events.inputs import BACK, OK, PRESS, is_key, up_down
from table.draft import wrap_or_stop


def played_name(app, played, team):
    """A team's name in a game: played, a finished game's names as it was played with
    ({}: none, so NS/EW in the language in use); None: the table's (app.team_name)."""
    if played is None:
        return app.team_name(team)
    return played.get(team) or app.texts[team]


class Screen:
    """A screen; BACK returns to back_to (the screen that opened it), or home when there
    is none (home and game over answer BACK otherwise: they never call back())."""

    name = "screen"
    turns = False  # its hint line turns through several texts (App.poll counts phase on)
    phase = 0

    def __init__(self, app, back_to=None):
        self.app = app
        self.back_to = back_to

    def back(self):
        if self.back_to is not None:
            self.app.go(self.back_to)
        else:
            self.app.home()

    def key(self, ev):
        pass

    def draw(self, layout):
        pass



class ListScreen(Screen):
    """A scrolling list; subclasses give rows() and pick()."""

    wrap = True

    def __init__(self, app, back_to=None, sel=0):
        Screen.__init__(self, app, back_to)
        self.sel = sel
        self.top = 0
        self._rows = None
        self._ver = -1

    def cached_rows(self):
        """rows(), rebuilt only after a confirmed change (app.version): moving in a list allocates nothing."""
        v = self.app.version
        if self._rows is None or self._ver != v:
            self._rows = self.rows()
            self._ver = v
        return self._rows

    def rows(self):
        return []

    def title(self):
        return ""

    def right(self):
        return None

    def hint(self):
        return None

    def pick(self, i):
        pass

    def key(self, ev):
        n = len(self.cached_rows())
        if self.sel >= n:  # the list shrank (a deal was deleted)
            self.sel = max(0, n - 1)
        d = -up_down(ev)  # UP moves the highlight up the list
        if d and n:
            self.sel = wrap_or_stop(self.sel, d, n, self.wrap and (ev >> 2) == PRESS)
        elif is_key(ev, OK) and n:
            self.pick(self.sel)
        elif is_key(ev, BACK):
            self.back()

    def scroll(self, count, shown):
        """Keep the highlight on one of count rows (the list may have shrunk) and inside the
        window of shown rows that starts at top."""
        if self.sel >= count:
            self.sel = max(0, count - 1)
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + shown:
            self.top = self.sel - shown + 1

    def draw(self, layout):
        rows = self.cached_rows()
        hint = self.hint()
        self.scroll(len(rows), layout.HINT_ROWS if hint else layout.ROWS)  # the hint takes rows
        layout.listing(self.title(), rows, self.sel, self.top, self.right(), hint)


class Ask(Screen):
    """A yes/no question: OK does it, BACK returns. note: a last line saying what else
    the answer does (a new game keeps the game in play)."""

    name = "ask"

    def __init__(self, app, question, detail, action, back_to, note=None):
        Screen.__init__(self, app, back_to)
        self.q = question
        self.detail = detail
        self.action = action
        self.note = note

    def key(self, ev):
        if is_key(ev, OK):
            self.action()
        elif is_key(ev, BACK):
            self.back()

    def draw(self, layout):
        layout.ask(self.q, self.detail, self.app.texts["ask_keys"], self.note)


def kept_note(app):
    """The note of a question that starts a new game: the game in play goes to Past games
    (said when it has deals: an empty one is simply replaced)."""
    return app.texts["q_kept"] if app.game.deals else None


def contract_text(app, rec, taker=True, compact=False, team_name=None):
    """'NS 100 SA x2': a deal's contract (taker: with the taking team's name first, as
    team_name(team) gives it, app.team_name by default; compact: '100SAx2', no spaces,
    'Gén.' for 'Générale'). With the taker's name, a text longer than a 128x64 line is
    given compact."""
    texts = app.texts
    if rec["bid"] == "pass":
        return texts["passed"]
    b = rec["bid"]
    s = str(b) if isinstance(b, int) else texts[b + "_short" if compact else b]
    sep = "" if compact else " "
    t = rec.get("trump")
    if t in ("NT", "AT"):
        s += sep + texts["k_" + t]
    c = rec.get("coinche", 0)
    if c:
        s += sep + "x" + str(2 * c)
    if taker:
        s = (team_name or app.team_name)(rec["taker"]) + " " + s
        if not compact and len(s) > 16:
            return contract_text(app, rec, True, True, team_name)
    return s
