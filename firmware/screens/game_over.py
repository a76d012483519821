"""The end of a game to the target: the winner and both totals; OK starts the next
game, DOWN opens the settings, UP the deals, BACK undoes the last deal, OK held
opens the game's chart.

Loaded on demand (on_demand.py) when a game ends (App.end_screen()) and released
once it is no longer open: no deal of a running game needs its code.
"""
import on_demand
from events.inputs import BACK, DOWN, LONG, OK, UP, is_key
from screens.base import Screen
from screens.table_screens import ask_undo


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
        on_demand.load(layout.OFF_PATH).game_over(layout, texts["over"], line, app.team_name("NS"), game.total["NS"],
                                                   app.team_name("EW"), game.total["EW"],
                                                   (texts["over_keys1"], texts["over_keys2"]))
