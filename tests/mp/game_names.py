"""The names kept with each game, on the real App in one MicroPython process.

argv: LAYOUT CASE [IMAGE]
  LAYOUT  128x64 or 240x135
  CASE    one of CASES below
  IMAGE   a simulator flash image to play into (mounted as the device mounts it;
          for the export), else a RAM flash

Each case names the teams, plays, renames them and starts the next game, then
records every text the layout draws (its probe) on the screens that show a
game's names, and prints one `result {json}` line; tests/test_game_names.py
asserts on it.
"""
import sys
import json

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path[:0] = [_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/bench/device_side", _ROOT + "/host_tools/rigs/device_side"]

from blockdev import RAMBlockDev, mount  # noqa: E402
from fakeboard import Board, ColourBoard  # noqa: E402
from app import App  # noqa: E402
import on_demand  # noqa: E402
from events.inputs import DOWN, OK, PRESS  # noqa: E402

LAYOUT = sys.argv[1]
CASE = sys.argv[2]
DEFAULTS = {"rules": "classic2000", "target": 500}
BIG_DEAL = {"taker": "NS", "bid": 160, "trump": "suit", "points": 130}
drawn = []


def probe(s, x, y, w, h, rx, ry, rw, rh):
    if s is not None:
        drawn.append(s)


def start_app():
    """The App on the mounted flash, as after a power-up."""
    app = App(ColourBoard(STORAGE) if LAYOUT == "240x135" else Board(STORAGE), DEFAULTS)
    app.layout.probe = probe
    return app


def key(app, button):
    app.handle((PRESS << 2) | button)


def texts_of(app):
    """The texts of the current frame, as the layout drew them."""
    drawn[:] = []
    app.render()
    return [str(s) for s in drawn]


def play_to_the_end(app):
    while not app.game.over:
        app.save_deal(BIG_DEAL, None)


def screens_of_a_past_game(app, out):
    """The newest past game: its deals list, a deal's details, its chart, its statistics."""
    app.go(on_demand.screen("Archive")(app))
    key(app, OK)
    out["past_history"] = texts_of(app)
    history = app.view
    history.sel = 0
    key(app, OK)
    out["past_deal"] = [t for _ in range(12) for t in (texts_of(app), key(app, DOWN))[0]]
    app.go(history)
    history.sel = len(history.cached_rows()) - 1  # the row below the last deal: the chart
    key(app, OK)
    out["past_chart_screen"] = app.view.name
    out["past_chart"] = texts_of(app)
    key(app, OK)
    out["past_stats_screen"] = app.view.name
    out["past_stats"] = texts_of(app)
    key(app, OK)
    out["past_stats_ew"] = texts_of(app)


def screens_of_the_current_game(app, out):
    app.go(on_demand.screen("Chart")(app, None))
    out["chart"] = texts_of(app)
    key(app, OK)
    out["stats"] = texts_of(app)
    key(app, OK)
    out["stats_ew"] = texts_of(app)


def case_renamed_at_the_end(app, out):
    """Named A/B, played to the end, renamed C/D at game over, then the next game."""
    app.set_team_name("NS", "Paul&Mie")
    app.set_team_name("EW", "Team 12")
    play_to_the_end(app)
    app.set_team_name("NS", "Nous")
    app.set_team_name("EW", "Eux")
    out["rename_said"] = app.toast_msg
    out["game_over"] = texts_of(app)
    app.new_game()
    app.save_deal(BIG_DEAL, None)
    screens_of_a_past_game(app, out)
    screens_of_the_current_game(app, out)
    app = start_app()  # a power cut: what the journal kept
    out["kept_result"] = app.archive[-1].get("result", {}).get("names")
    out["kept_rules"] = app.archive[-1]["rules"].get("names")
    out["current_after_boot"] = [app.team_name("NS"), app.team_name("EW")]


def case_renamed_under_way(app, out):
    """Named A/B, one deal, renamed C/D: the game under way takes the new names, kept at a power cut."""
    app.set_team_name("NS", "Paul&Mie")
    app.set_team_name("EW", "Team 12")
    app.save_deal(BIG_DEAL, None)
    app.set_team_name("NS", "Nous")
    app.set_team_name("EW", None)
    out["shown"] = [app.team_name("NS"), app.team_name("EW")]
    app = start_app()
    out["shown_after_boot"] = [app.team_name("NS"), app.team_name("EW")]
    out["game_rules"] = app.table.journal_rules.get("names")
    app.new_game()
    out["kept_result"] = app.archive[-1].get("result", {}).get("names")


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

if len(sys.argv) > 3:
    import flash_image

    flash_image.mount_flash(sys.argv[3])
    STORAGE = tuple(flash_image.ROOTS)
else:
    mount(RAMBlockDev(4096, 352), "/flash")
    STORAGE = "/flash/data"
result = {"case": CASE}
CASES[CASE](start_app(), result)
print("result " + json.dumps(result))
