"""Random-press fuzz of the real App on the MicroPython unix port.

argv: N_EVENTS SEED [RENDER_EVERY]
Drives App.handle() with random events (press / repeat / long of the four
buttons) and advances a fake clock; after every event the game must be valid:
every deal validates and the totals equal a fresh Game over the same deals.
Prints one line `fuzz ok EVENTS DEALS_SAVED GAMES SCREENS` at the end.
"""
import sys
import random

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path[:0] = [_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/bench/device_side", _ROOT + "/host_tools/rigs/device_side"]

from blockdev import RAMBlockDev, mount  # noqa: E402
from coinche.game import Game  # noqa: E402
from coinche.record import validate  # noqa: E402
from app import App  # noqa: E402
from fakeboard import Board  # noqa: E402


def check(app):
    g = app.game
    for rec in g.deals:
        assert validate(g.rules, rec) == rec, rec
    fresh = Game(g.rules, g.deals, g.first_dealer)
    assert fresh.total == g.total, (fresh.total, g.total)
    over, winner = fresh.over, fresh.winner
    if (app.table.journal_rules or {}).get("end"):
        # a round ended on time (Menu > End the round) is over after the deals played
        total = fresh.total
        over = True
        winner = None if total["NS"] == total["EW"] else ("NS" if total["NS"] > total["EW"] else "EW")
    assert over == g.over and winner == g.winner, (over, g.over, winner, g.winner)


def main():
    n = int(sys.argv[1])
    seed = int(sys.argv[2])
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    random.seed(seed)
    mount(RAMBlockDev(4096, 352), "/flash")
    board = Board()
    app = App(board, {"rules": "classic2000"})
    screens = {}
    saved = 0
    games = 0
    presets = ("classic2000", "federation", "coinche1000", "coinche1001")
    for i in range(n):
        r = random.getrandbits(8)
        if r < 200:
            ev = r & 3  # PRESS, mostly
        elif r < 230:
            ev = (1 << 2) | (r & 1)  # REPEAT of UP/DOWN
        else:
            ev = (2 << 2) | (2 + (r & 1))  # LONG OK/BACK
        before = len(app.game.deals)
        g_before = app.game
        app.handle(ev)
        if app.game is not g_before:
            if len(app.game.deals) > before:
                saved += 1
            if not app.game.deals and g_before.deals and app.game.rules is not g_before.rules:
                games += 1
        board.now += random.getrandbits(9)
        app.poll()
        if i % every == 0 and app.dirty:
            app.render()
        screens[app.screen] = screens.get(app.screen, 0) + 1
        check(app)
        # now and then start a new game in another preset, so all rules get fuzzed
        if app.game.over and random.getrandbits(2) == 0:
            app.settings["rules"] = {"preset": presets[random.getrandbits(2)], "options": {}}
            app.new_game()
            games += 1
    print("fuzz ok", n, saved, games, len(screens))
    print("screens", sorted(screens.keys()))


main()
