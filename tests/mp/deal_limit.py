"""A game at the deal limit: started, played and archived at a given heap (the real App).

    micropython -X heapsize=16M deal_limit.py build IMAGE DEALS [TREE]
    micropython -X heapsize=N   deal_limit.py run IMAGE [TREE]

TREE: the firmware compiled to .mpy (host_tools/bench/tree.py: build_tree), as on the
device: bytecode the heap must hold, but no compiler run.

build: a flash image (the device layout, host_tools/sim/device_side/flash_image.py) holding
20 finished 40-deal games and a current game of DEALS - 1 deals: 10 full
records (with belote) and then all-passed deals, the only
way a game gets that long (classic2000 to 3000 points).
run: boot the App on it (start-up), save one more deal through the UI's own
path (the game is now at the limit), try one more (refused with the limit
message, nothing written), undo it and save it again, boot again (start-up
at the limit), then start a new game (the game is archived), and boot once more. Prints one JSON line; a
MemoryError anywhere is reported as {"memory_error": where}.
"""
import gc
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_TREE = sys.argv[4] if sys.argv[1] == "build" and len(sys.argv) > 4 else (
    sys.argv[3] if sys.argv[1] == "run" and len(sys.argv) > 3 else None)
sys.path[:0] = [_HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]
if _TREE:
    sys.path[:0] = [_TREE + "/firmware", _TREE + "/host_tools/sim/device_side", _TREE + "/host_tools/bench/device_side",
                     _TREE + "/host_tools/rigs/device_side"]

import flash_image  # noqa: E402

RULES = {"preset": "classic2000", "options": {"target": 3000}, "dealer": "N"}


def full_record(number):
    taker = ("NS", "EW")[number % 2]
    other = "EW" if taker == "NS" else "NS"
    return {"taker": taker, "bid": 80, "trump": "H", "coinche": 0, "points": 40 + number % 20,
            "belote": {taker: 1, other: 0}}


def build(path, deals):
    from coinche.game import Game
    from coinche.rules import Rules
    from flash_stats import sample_game
    from store.journal import Journal

    flash_image.mount_flash(path)
    journal = Journal(flash_image.ROOTS)
    journal.load()
    for number in range(20):
        for action in sample_game(40, seed=number):
            journal.record(action)
    journal.record({"op": "new", "rules": RULES, "result": {"NS": 1, "EW": 2, "winner": "NS"}})
    game = Game(Rules.from_spec(RULES), (), "N")
    for number in range(deals - 1):
        record = full_record(number) if number < 10 else {"bid": "pass"}
        plan = game.plan_add(record)
        journal.record({"op": "add", "deal": plan[0][-1]})
        game = Game(game.rules, (), "N").commit(plan)
    assert not game.over, game.total
    print(json.dumps({"built": path, "deals": len(game.deals)}))


def run(path):
    import fakeboard
    import app as app_module
    from screens.table_screens import start_entry

    where = "mount"
    out = {}
    try:
        flash_image.mount_flash(path)
        where = "start-up"
        board = fakeboard.Board(flash_image.ROOTS[0])
        app = app_module.App(board)
        gc.collect()
        out["after_start"] = gc.mem_alloc()
        out["start_deals"] = len(app.game.deals)
        where = "play"
        app.save_deal({"bid": "pass"}, None)
        out["played_deals"] = len(app.game.deals)
        where = "one too many"
        app.toast_msg = None
        start_entry(app, "NS")
        out["limit_message"] = app.toast_msg
        app.save_deal({"bid": "pass"}, None)  # the UI's save path refuses it too
        out["after_refusal"] = len(app.game.deals)
        where = "undo"
        app.delete_deal(len(app.game.deals) - 1)
        app.save_deal({"bid": "pass"}, None)
        out["after_undo_and_save"] = len(app.game.deals)
        where = "start-up at the limit"
        board.app = app = None  # as after a reset: nothing of the first App stays
        gc.collect()
        board = fakeboard.Board(flash_image.ROOTS[0])
        app = app_module.App(board)
        out["restart_at_limit"] = len(app.game.deals)
        where = "archive"
        app.new_game()
        out["archived"] = len(app.archive)
        out["new_game_deals"] = len(app.game.deals)
        where = "start-up again"
        board.app = app = None
        gc.collect()
        board = fakeboard.Board(flash_image.ROOTS[0])
        app = app_module.App(board)
        out["restart_deals"] = len(app.game.deals)
        out["restart_archive"] = [app.archive.summary(len(app.archive) - 1)["n"]]
    except MemoryError as error:
        out["memory_error"] = where
        if "-v" in sys.argv:
            sys.print_exception(error)
    gc.collect()
    out["free"] = gc.mem_free()
    print(json.dumps(out))


if sys.argv[1] == "build":
    build(sys.argv[2], int(sys.argv[3]))
else:
    run(sys.argv[2])
