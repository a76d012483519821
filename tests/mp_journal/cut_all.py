"""Cut the power at every block operation of a scenario, remount, load, compare.

micropython cut_all.py SCENARIO BLOCKS [stop|tear|both] [STRIDE] [LAYOUT] [START]

LAYOUT (tests/mp_journal/layouts.py): single (one copy, the default), dirs
(two copies in two folders of one littlefs) or device (two copies on the
two data partitions of store/partitions.py; BLOCKS is then 352).

Runs the scenario once on a recording device, then for every k (every
STRIDE-th from START, and the uncut end: the sample of tests/sweep.py) rebuilds the medium a cut at program/erase k leaves (Replay),
mounts a fresh littlefs on it, loads, and checks the state is the one before
the action that was running, or the one after it, never anything else (nor
back from "after" to "before" within one action). Then it records one more
action on the survivor and loads again, so the journal is also writable
after the cut (the lost action again, as a user would, or the next one).
Prints one JSON line: counts and the first failures.
"""
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path[:0] = [_HERE, _HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]

import cutdev  # noqa: E402
import layouts  # noqa: E402
import model  # noqa: E402
import scenarios  # noqa: E402
from flash_stats import _Rand, sample_deal  # noqa: E402
from store.journal import Journal  # noqa: E402

PATH = "/flash"
LAYOUT = sys.argv[5] if len(sys.argv) > 5 else "single"
ROOT = layouts.roots(LAYOUT)


def mount(dev):
    layouts.mount(dev, LAYOUT)


def unmount():
    layouts.unmount(LAYOUT)


def main():
    name = sys.argv[1]
    blocks = int(sys.argv[2])
    modes = sys.argv[3] if len(sys.argv) > 3 else "both"
    stride = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    start = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    make, opts = scenarios.SCENARIOS[name]
    actions = make()
    expect = model.states(actions)

    dev = layouts.fresh(LAYOUT, blocks, record=True)
    snapshot = dev.image()
    j = Journal(ROOT, **opts)
    j.load()
    marks = []
    for a in actions:
        marks.append(len(dev.log))
        j.record(a)
    marks.append(len(dev.log))
    total = len(dev.log)
    final = Journal(ROOT, **opts).load()
    fails = []
    if not model.same(final, expect[-1]):
        fails.append("uncut run: " + model.describe(final))
    unmount()

    replay = cutdev.Replay(snapshot, dev.log, dev.block_size, blocks)
    tears = {"stop": (False,), "tear": (True,), "both": (False, True)}[modes]
    a = 0
    after_seen = {}
    checked = 0
    nested = 0
    r = _Rand(7)
    cuts = list(range(start, total, stride)) + [total]
    for k in cuts:
        while a < len(actions) and k >= marks[a + 1]:
            a += 1
        for tear in tears:
            if tear and k == total:
                continue
            where = "k=%d%s action %d (%s)" % (k, " torn" if tear else "", a, actions[a]["op"] if a < len(actions) else "-")
            img = replay.at(k, tear)
            survivor = img.image()
            mount(img)
            jj = Journal(ROOT, **opts)
            st = jj.load()
            if img.ops:
                # load() wrote (it finished an interrupted clean-up or repaired a copy): cut that too
                nested += cut_the_load(survivor, blocks, opts, st, fails, where)
                mount(img)
            before, after = expect[a], expect[min(a + 1, len(actions))]
            if model.same(st, after) and (k < total):
                after_seen[(a, tear)] = True
                got = after
            elif model.same(st, before) and not after_seen.get((a, tear)):
                got = before
            else:
                fails.append(where + ": got " + model.describe(st))
                got = None
            if st["notice"] is not None:
                fails.append(where + ": notice " + st["notice"])
            if got is not None:
                # the action again if it was lost (a retry), else the next one
                if got is before and a < len(actions):
                    nxt = actions[a]
                elif a + 1 < len(actions):
                    nxt = actions[a + 1]
                else:
                    nxt = {"op": "add", "deal": sample_deal(r)}
                jj.record(nxt)
                again = Journal(ROOT, **opts).load()
                if not model.same(again, model.step(got, nxt)) or again["notice"] is not None:
                    fails.append(where + ": after one more action: " + model.describe(again))
            unmount()
            checked += 1
    print(json.dumps({"scenario": name, "blocks": blocks, "layout": LAYOUT, "actions": len(actions), "ops": total,
                      "cuts": len(cuts), "checked": checked, "nested": nested, "failures": len(fails), "first": fails[:5]}))


def cut_the_load(survivor, blocks, opts, want, fails, where):
    """Every cut of a load() that writes: the next load must give the same state."""
    rec = cutdev.CutDev(4096, blocks, record=True, under=survivor)
    mount(rec)
    Journal(ROOT, **opts).load()
    unmount()
    replay = cutdev.Replay(survivor, rec.log, 4096, blocks)
    n = 0
    for k in range(len(rec.log) + 1):
        for tear in (False, True):
            if tear and k == len(rec.log):
                continue
            mount(replay.at(k, tear))
            st = Journal(ROOT, **opts).load()
            if not model.same(st, want) or st["notice"] is not None:
                fails.append("%s, then load cut at %d%s: %s %s" % (where, k, " torn" if tear else "",
                                                                  model.describe(st), st["notice"]))
            unmount()
            n += 1
    return n


main()
