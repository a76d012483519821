"""The screens of a game at the table: home, the menu and game over, and the two
things they share (starting a deal's entry, asking before an undo).

Home: UP = NS took, DOWN = EW took, OK = menu, BACK = undo the last deal, held
OK = the deals list. The screens off this path (history, settings, past games,
chart, statistics) are loaded when they open and released afterwards:
on_demand.screen() finds each in the one table of on_demand.py.
"""
import on_demand
from events.inputs import BACK, DOWN, LONG, OK, UP, is_key
from screens.base import Ask, ListScreen, Screen, contract_text
from screens.deal_entry import Entry
from table.draft import Draft


def start_entry(app, taker):
    """Deal entry for a deal the team `taker` took (or the message why not)."""
    table = app.table
    if table.game.over:
        app.tell("e_over")
        return
    if table.at_deal_limit():
        app.tell("e_limit")
        return
    app.go(Entry(app, Draft(table.game.rules, taker)))


def ask_undo(app, back_to):
    """The question before undoing the last deal (BACK returns to back_to)."""
    game = app.table.game
    if not game.deals:
        app.tell("e_no_undo")
        return
    count = len(game.deals)
    app.go(Ask(app, app.texts["undo_q"] + " " + str(count) + "?", contract_text(app, game.deals[-1]),
               lambda: app.delete_deal(count - 1), back_to))


class Home(Screen):
    name = "home"

    def key(self, ev):
        app = self.app
        if is_key(ev, UP):
            start_entry(app, "NS")
        elif is_key(ev, DOWN):
            start_entry(app, "EW")
        elif is_key(ev, OK):
            app.go(Menu(app))
        elif is_key(ev, BACK):
            ask_undo(app, self)
        elif is_key(ev, OK, LONG):
            app.go(on_demand.screen("History")(app))

    def __init__(self, app):
        Screen.__init__(self, app)
        self._line = None
        self._version = -1

    def last_line(self):
        """The last deal's contract ('Nous 100 SA x2', 'Tous passent'), or the target before
        the first deal; built once per confirmed change, so a redraw allocates nothing."""
        app = self.app
        if self._line is None or self._version != app.version:
            game = app.game
            info = app.table.concours()
            if info:  # a concours round: 'R2 T7 5/12', the round, the table, the deal
                self._line = "R%d T%d %d/%d" % (info["round"], info["table"], game.round_deal(), game.rules.round_deals)
            elif game.deals:
                self._line = contract_text(app, game.deals[-1])
            else:
                self._line = app.texts["game_to"] + " " + str(game.rules["target"])
            self._version = app.version
        return self._line

    def draw(self, layout):
        layout.home(self.app, self.last_line())


class Menu(ListScreen):
    name = "menu"
    ITEMS = ("m_pass", "m_history", "m_undo", "m_settings", "m_chart", "m_stats", "m_dealer", "m_new", "m_concours",
             "m_games")

    def title(self):
        return "Menu"

    def rows(self):
        texts = self.app.texts
        return [texts[item] for item in self.ITEMS]

    def hint(self):
        """On the all-pass row: it takes a held OK (OK, OK from home must not record one)."""
        return self.app.texts["hint_hold_pass"] if self.sel == 0 else None

    def key(self, ev):
        if self.sel == 0 and is_key(ev, OK, LONG):
            self.app.save_deal({"bid": "pass"}, None)
        else:
            ListScreen.key(self, ev)

    def pick(self, i):
        app = self.app
        item = self.ITEMS[i]
        if item == "m_pass":
            app.flash(app.texts["hint_hold_pass"])  # a plain OK records nothing
        elif item == "m_history":
            app.go(on_demand.screen("History")(app))
        elif item == "m_undo":
            ask_undo(app, self)
        elif item == "m_settings":
            app.go(on_demand.screen("Settings")(app))
        elif item == "m_new":
            app.go(Ask(app, app.texts["m_new"], None, app.new_game, self))
        elif item == "m_concours":
            app.go(on_demand.screen("Concours")(app, self))
        elif item == "m_games":
            app.go(on_demand.screen("Archive")(app))
        elif item == "m_dealer":
            app.go(on_demand.screen("ValuePicker")(app, "m_dealer", self))
        elif item == "m_chart":
            app.go(on_demand.screen("Chart")(app, self))
        elif item == "m_stats":
            app.go(on_demand.screen("Stats")(app, self))


class GameOver(Screen):
    name = "gameover"

    def key(self, ev):
        app = self.app
        if is_key(ev, OK):
            app.new_game()
        elif is_key(ev, DOWN):
            app.go(on_demand.screen("Settings")(app))
        elif is_key(ev, UP):
            app.go(on_demand.screen("History")(app))
        elif is_key(ev, BACK):
            ask_undo(app, self)
        elif is_key(ev, OK, LONG):  # the second action of OK: the game's chart (screens/chart.py)
            app.go(on_demand.screen("Chart")(app, self))

    def draw(self, layout):
        app = self.app
        texts = app.texts
        game = app.game
        line = app.team_name(game.winner) + " " + texts["wins"] if game.winner in ("NS", "EW") else texts["tie"]
        layout.game_over(texts["over"], line, app.team_name("NS"), game.total["NS"], app.team_name("EW"),
                         game.total["EW"], (texts["over_keys1"], texts["over_keys2"]))

