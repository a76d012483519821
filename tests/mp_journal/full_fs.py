"""A full filesystem: record() raises ENOSPC and nothing is lost.

micropython full_fs.py BLOCKS STEP [STRIDE [START]]

For each amount of free space (a filler file takes the rest, STEP bytes
less each round; every STRIDE-th round from START, the sample of tests/sweep.py), the main scenario runs until record() fails. Checks: the
error is OSError ENOSPC; the same journal and a fresh one on a remount load
exactly the state before the failed action, with no notice; after the filler
goes, the failed action records fine and loads back. Prints one JSON line.
"""
import json
import os
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path[:0] = [_HERE, _HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]

import cutdev  # noqa: E402
import model  # noqa: E402
import scenarios  # noqa: E402
from store.journal import Journal  # noqa: E402

PATH = "/flash"
ROOT = "/flash/data"
ENOSPC = 28


def fill(nbytes):
    chunk = b"\x55" * 1024
    with open(PATH + "/fill", "wb") as f:
        while nbytes > 0:
            f.write(chunk[:min(nbytes, 1024)])
            nbytes -= 1024


def main():
    blocks = int(sys.argv[1])
    step = int(sys.argv[2])
    stride = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    actions = scenarios.main_game()
    expect = model.states(actions)
    fails = []
    hit = {}
    size = blocks * 4096 - start * step
    rounds = 0
    while size > 0:
        size -= step * stride
        dev = cutdev.fresh(blocks, PATH)
        try:
            fill(size)
        except OSError:
            cutdev.unmount(PATH)
            continue
        rounds += 1
        j = Journal(ROOT)
        j.load()
        a = 0
        err = None
        try:
            while a < len(actions):
                j.record(actions[a])
                a += 1
        except OSError as e:
            err = e
        if err is None:
            cutdev.unmount(PATH)
            break  # enough room for everything: smaller fillers change nothing
        where = "fill=%d action %d (%s)" % (size, a, actions[a]["op"])
        hit[actions[a]["op"]] = hit.get(actions[a]["op"], 0) + 1
        if err.errno != ENOSPC:
            fails.append(where + ": errno %r" % (err.errno,))
        st = j.load()
        if not model.same(st, expect[a]) or st["notice"]:
            fails.append(where + ": same journal: " + model.describe(st) + " " + str(st["notice"]))
        cutdev.mount(dev, PATH)
        st = Journal(ROOT).load()
        if not model.same(st, expect[a]) or st["notice"]:
            fails.append(where + ": remount: " + model.describe(st) + " " + str(st["notice"]))
        os.remove(PATH + "/fill")
        j = Journal(ROOT)
        j.load()
        try:
            for b in range(a, len(actions)):
                j.record(actions[b])
        except OSError as e:
            fails.append(where + ": after freeing space: %r" % (e,))
        cutdev.mount(dev, PATH)
        st = Journal(ROOT).load()
        if not model.same(st, expect[-1]) or st["notice"]:
            fails.append(where + ": final: " + model.describe(st) + " " + str(st["notice"]))
        cutdev.unmount(PATH)
    print(json.dumps({"blocks": blocks, "rounds": rounds, "failed_ops": hit, "failures": len(fails), "first": fails[:5]}))


main()
