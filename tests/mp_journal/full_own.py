"""The journal alone fills its filesystem (as on a data partition): what must still work.

micropython full_own.py BLOCKS GAMES DEALS

GAMES finished games of DEALS deals each, then one game that grows until
record() refuses an "add" (ENOSPC). Older finished games are dropped to make
room first (the archive keeps the newest; the last one always stays). At the
refusal: nothing is lost (same state, fresh load), and an undo, a setting, a
new game and then deals in the new game all record and load back.
Prints one JSON line.
"""
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path[:0] = [_HERE, _HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]

import cutdev  # noqa: E402
import model  # noqa: E402
from flash_stats import RULES, _Rand, sample_deal  # noqa: E402
from scenarios import OTHER  # noqa: E402
from store.journal import Journal  # noqa: E402

PATH = "/flash"
ROOT = "/flash/data"
ENOSPC = 28


def same_but_older_games(loaded, expected):
    """Settings and game equal; the archive is the newest part of the expected one."""
    archive = list(loaded["archive"])
    want = expected["archive"]
    return (loaded["settings"] == expected["settings"] and loaded["game"] == expected["game"]
            and 1 <= len(archive) <= len(want) and archive == want[len(want) - len(archive):])


def main():
    blocks, games, deals = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    fails = []
    rand = _Rand(11)
    device = cutdev.fresh(blocks, PATH)
    journal = Journal(ROOT)
    journal.load()
    state = model.initial()

    def record(action):
        nonlocal state
        journal.record(action)
        state = model.step(state, action)

    record({"op": "set", "k": "lang", "v": "de"})
    for number in range(games):
        record({"op": "new", "rules": OTHER if number % 2 else RULES, "result": {"NS": number, "EW": 0}})
        for _ in range(deals):
            record({"op": "add", "deal": sample_deal(rand)})
    record({"op": "new", "rules": RULES, "result": {"NS": 1, "EW": 2}})
    grown = 0
    error = None
    while error is None and grown < 100000:
        try:
            record({"op": "add", "deal": sample_deal(rand)})
            grown += 1
        except OSError as e:
            error = e
    if error is None or error.errno != ENOSPC:
        fails.append("no ENOSPC: %r" % (error,))
    loaded = Journal(ROOT).load()
    if not same_but_older_games(loaded, state) or loaded["notice"]:
        fails.append("at the refusal: " + model.describe(loaded) + " " + str(loaded["notice"]))
    archived = len(list(loaded["archive"]))
    reserved = [{"op": "del", "i": grown - 1}, {"op": "set", "k": "contrast", "v": 9},
                {"op": "del", "i": grown - 2}, {"op": "new", "rules": OTHER, "result": {"NS": 3, "EW": 4}},
                {"op": "set", "k": "lang", "v": "it"}]
    reserved += [{"op": "add", "deal": sample_deal(rand)} for _ in range(3)]
    for action in reserved:
        try:
            record(action)
        except OSError as e:
            fails.append("%s refused when full: %r" % (action["op"], e))
            break
    cutdev.mount(device, PATH)  # as after a reboot
    loaded = Journal(ROOT).load()
    if not same_but_older_games(loaded, state) or loaded["notice"]:
        fails.append("after the reserved actions: " + model.describe(loaded) + " " + str(loaded["notice"]))
    print(json.dumps({"blocks": blocks, "grown": grown, "archived_at_refusal": archived,
                      "games": games, "failures": len(fails), "first": fails[:5]}))


main()
