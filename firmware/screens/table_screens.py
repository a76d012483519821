"""Home, the screen of a game at the table, and what the screens around it share
(starting a deal's entry, asking before an undo).

Home: UP = NS took, DOWN = EW took, OK = menu, BACK = undo the last deal, held
OK = the deals list. Its key rows turn through the three, in words: OK and BACK,
the arrows, held OK. The screens off this path (the menu, game over, history,
settings, past games, chart, statistics) are loaded when they open and released
afterwards: on_demand.screen() finds each in the one table of on_demand.py.
"""
import on_demand
from events.inputs import BACK, DOWN, LONG, OK, UP, is_key
from screens.base import Ask, Screen, contract_text
from screens.deal_entry import Entry
from table.draft import Draft


def start_entry(app, taker, bid=None):
    """Deal entry for a deal the team `taker` took (or the message why not); bid "pass":
    an all-pass, shown on its check-and-save step (nothing is recorded before its OK)."""
    table = app.table
    if table.game.over:
        app.tell("e_over")
        return
    if table.at_deal_limit():
        app.tell("e_limit")
        return
    entry = Entry(app, Draft(table.game.rules, taker))
    if bid == "pass":
        entry.draft.bid = "pass"
        entry.goto(entry.draft.steps()[-1])
    app.go(entry)


def ask_undo(app, back_to):
    """The question before undoing the last deal (BACK returns to back_to)."""
    game = app.table.game
    if not game.deals:
        app.tell("e_no_undo")
        return
    count = len(game.deals)
    app.go(Ask(app, app.texts["undo_q"] % count, contract_text(app, game.deals[-1]),
               lambda: app.delete_deal(count - 1), back_to))


class Home(Screen):
    name = "home"
    turns = True  # the keys' rows: OK and BACK, then the arrows, then held OK

    def key(self, ev):
        app = self.app
        if is_key(ev, UP):
            start_entry(app, "NS")
        elif is_key(ev, DOWN):
            start_entry(app, "EW")
        elif is_key(ev, OK):
            app.go(on_demand.screen("Menu")(app))
        elif is_key(ev, BACK):
            ask_undo(app, self)
        elif is_key(ev, OK, LONG):
            app.go(on_demand.screen("History")(app))

    def __init__(self, app):
        Screen.__init__(self, app)
        self._line = None
        self._version = -1
        self._wrong = False

    def last_line(self):
        """The last deal's contract ('Nous 100 SA x2', 'Tous passent'), or the target before
        the first deal; built once per confirmed change, so a redraw allocates nothing.
        With the club link, the line the link gives in a timed round ('5/12 12 min')."""
        app = self.app
        line = getattr(app.club, "line", None)  # a timed round's clock (link/table_link.py)
        if line:
            return line
        if self._line is None or self._version != app.version or self._wrong != app.setup_wrong:
            game = app.game
            info = app.table.concours()
            self._wrong = app.setup_wrong
            if info and self._wrong:  # not the organiser's draw: said before the first deal
                self._line = app.texts["l_setup"]
            elif info:  # a concours round: 'R2 T7 5/12', the round, the table, the deal
                self._line = "R%d T%d %d/%d" % (info["round"], info["table"], game.round_deal(), game.rules.round_deals)
            elif game.deals:
                self._line = contract_text(app, game.deals[-1])
            else:
                self._line = app.texts["game_to"] + " " + str(game.rules["target"])
            self._version = app.version
        return self._line

    def draw(self, layout):
        layout.home(self.app, self.last_line(), self.phase % 3)
