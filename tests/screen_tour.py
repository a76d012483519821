"""Every screen loaded on demand (firmware/on_demand.py), opened by its keys on the
emulated Pico after the 40-deal game of the heap budget (host_tools/bench/frozen.py
runs TOUR in the same session, with the game's app and its polled buttons).

Each visit starts from home and presses the keys a player presses; what it reached is
the screen then open, and the message over it: a screen whose module cannot be loaded
sends the player home with the text `e_open` (App.handle), which the test refuses.
The last visits start a concours round (the 40-deal game goes to the past games) and
end it on time, for the past games' deals and the round's end.
"""
import on_demand

# (what is visited, the keys from home, the screen it opens); keys: U D O B, H: OK held
VISITS = (
    ("the menu", "O", "menu"),
    ("the deals", "ODO", "history"),
    ("a deal's menu", "ODOO", "deal"),
    ("the settings", "ODDDO", "settings"),
    ("a setting's values", "ODDDOO", "setting"),
    ("the options", "ODDDODDO", "options"),
    ("an option's values", "ODDDODDOO", "setting"),
    ("the team names", "ODDDODDDDDDDDO", "teams"),
    ("the team-name picker", "ODDDODDDDDDDDOH", "name-picker"),
    ("the chart", "ODDDDO", "chart"),
    ("the statistics", "ODDDDDO", "stats"),
    ("the next dealer", "ODDDDDDO", "setting"),
    ("the concours", "OUUO", "concours"),
    ("a concours number", "OUUOUO", "number"),
    ("the past games", "OUO", "archive"),
    ("game over", "*", "gameover"),  # the game marked over: home is its end (App.end_screen)
    ("a concours round started", "OUUOOO", "home"),
    ("the past game's deals", "OUOO", "history"),  # the 40-deal game, replayed from the archive
    ("the round's end", "ODDDDDDDOO", "roundover"),  # Menu > end of the round on time
)
# every screen of the table is visited (tests/test_budgets.py checks this list against it)
SCREENS = ("Menu", "History", "DealMenu", "Settings", "ValuePicker", "OptionsScreen", "TeamsScreen",
           "NamePicker", "Chart", "Stats", "Concours", "NumberPicker", "Archive", "GameOver", "RoundOver")

TOUR = """
import gc, json
from events.timing import LONG_MS
gc.collect()
KEYS = {"U": 0, "D": 1, "O": 2, "B": 3}
def press(button, ms):
    level[button] = 1
    run(app, ms)
    level[button] = 0
    run(app, 300)  # a screen loaded from flash: its module read, then drawn
def visit(keys):
    if keys == "*":
        app.game.over, app.game.winner = True, "NS"
    app.home()
    run(app, 200)
    for key in keys:
        if key == "H":
            press(2, LONG_MS + 100)
        elif key != "*":
            press(KEYS[key], %(press)d)
    gc.collect()
    message = app.toast_msg
    out = [app.screen, message == app.texts["e_open"], message, gc.mem_alloc()]
    if keys == "*":
        app.game.over, app.game.winner = False, None
    return out
seen = [visit(keys) for keys in %(keys)r]
app.home()
run(app, 200)
print(json.dumps(seen))
"""


def tour_code(press_ms):
    return TOUR % {"keys": tuple(keys for _what, keys, _screen in VISITS), "press": press_ms}


def failures(seen):
    """What went wrong in the device's answers (a list of lines; empty when every visit opened
    its screen without the message that a screen cannot be opened)."""
    out = []
    for (what, keys, expected), (screen, cannot_open, message, _heap) in zip(VISITS, seen):
        if cannot_open or screen != expected:
            out.append("%s (keys %s): the screen %r open, %r expected%s" % (
                what, keys, screen, expected, ", the message 'cannot open' shown" if cannot_open else
                (", message %r" % message if message else "")))
    if len(seen) != len(VISITS):
        out.append("%d visits answered of %d" % (len(seen), len(VISITS)))
    return out


def screens_of_the_table():
    return sorted(name for screens in on_demand.MODULES.values() if screens for name in screens)
