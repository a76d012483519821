"""The menu (OK on home): every action off the deal-entry path starts here.

Loaded on demand (on_demand.py) when home's OK opens it and released once it is
no longer open: with `make deploy`'s .mpy files its code would otherwise stay on
the heap through every deal, where the heap of a game peaks.
"""
import on_demand
from events.inputs import LONG, OK, is_key
from screens.base import Ask, ListScreen, kept_note
from screens.table_screens import ask_undo, start_entry


def end_round_now(app):
    """End the round on time (table/settings.py): its end shows, or why not."""
    done, message = on_demand.load("table.settings").end_round_now(app.table)
    on_demand.release("table.settings")
    if done:
        app.home()
    app.tell(message)


def ask_end(app, back_to):
    """The question before ending a concours round on time ("R2 T7 5/12": the round and
    the deals played), or why not (no round, a round already over)."""
    table = app.table
    info = table.concours()
    if not info or table.game.over:
        app.tell("e_over" if info else "e_no_round")
        return
    game = table.game
    app.go(Ask(app, app.texts["m_end"] + "?", "R%d T%d %d/%d" % (info["round"], info["table"], game.round_deal() - 1,
                                                               game.rules.round_deals), lambda: end_round_now(app), back_to))


class Menu(ListScreen):
    name = "menu"
    # the list wraps: the concours is two UP presses away (OK, UP, UP, OK from home)
    ITEMS = ("m_pass", "m_history", "m_undo", "m_settings", "m_chart", "m_stats", "m_dealer", "m_end",
             "m_new", "m_concours", "m_games")

    def title(self):
        return "Menu"

    def rows(self):
        texts = self.app.texts
        return [texts[item] for item in self.ITEMS]

    def key(self, ev):
        if self.sel == 0 and is_key(ev, OK, LONG):
            self.pick(0)  # held as before: the same check screen, nothing recorded yet
        else:
            ListScreen.key(self, ev)

    def pick(self, i):
        app = self.app
        item = self.ITEMS[i]
        if item == "m_pass":  # the all-pass's check screen: OK there saves it, BACK changes the contract
            start_entry(app, "NS", "pass")
        elif item == "m_history":
            app.go(on_demand.screen("History")(app))
        elif item == "m_undo":
            ask_undo(app, self)
        elif item == "m_settings":
            app.go(on_demand.screen("Settings")(app, self))  # BACK returns to the menu
        elif item == "m_new":
            app.go(Ask(app, app.texts["m_new"], None, app.new_game, self, kept_note(app)))
        elif item == "m_end":
            ask_end(app, self)
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
