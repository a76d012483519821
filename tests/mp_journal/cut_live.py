"""Live power cuts: run the scenario again for every k, with the device dying at
operation k (stopped or torn), then mount what survived and load.

micropython cut_live.py SCENARIO BLOCKS [STRIDE [START]]

Every STRIDE-th k from START (the sample of tests/sweep.py).

Slower than cut_all.py (the scenario runs again up to k each time), and it
checks that the PowerCut really escapes littlefs and the journal mid-write,
and that replayed images and live cuts leave the same states.
"""
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path[:0] = [_HERE, _HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]

import vfs  # noqa: E402

import cutdev  # noqa: E402
import model  # noqa: E402
import scenarios  # noqa: E402
from store.journal import Journal  # noqa: E402

PATH = "/flash"
ROOT = "/flash/data"


def main():
    name = sys.argv[1]
    blocks = int(sys.argv[2])
    stride = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    make, opts = scenarios.SCENARIOS[name]
    actions = make()
    expect = model.states(actions)
    cutdev.hold_files()
    fails = []
    checked = 0
    k = start
    total = 0
    while True:
        done = True
        for tear in (False, True):
            dev = cutdev.CutDev(4096, blocks)
            vfs.VfsLfs2.mkfs(dev, progsize=256)
            dev.ops = 0
            dev.cut_at = k
            dev.tear = tear
            cutdev.mount(dev, PATH)
            j = Journal(ROOT, **opts)
            a = 0
            try:
                j.load()
                while a < len(actions):
                    j.record(actions[a])
                    a += 1
            except cutdev.PowerCut:
                done = False
            cutdev.unmount(PATH)
            if done:
                total = dev.ops  # the run that finished: every operation the scenario makes
                break
            survivor = cutdev.CutDev(4096, blocks, under=dev.blocks)
            cutdev.mount(survivor, PATH)
            st = Journal(ROOT, **opts).load()
            checked += 1
            ok = model.same(st, expect[a]) or model.same(st, expect[a + 1])  # the archive reads the flash
            if not ok or st["notice"] is not None:
                fails.append("k=%d%s action %d: %s %s" % (k, " torn" if tear else "", a, model.describe(st), st["notice"]))
            cutdev.unmount(PATH)
        if done:
            break
        k += stride
    print(json.dumps({"scenario": name, "blocks": blocks, "ops": total, "cuts": len(range(start, total, stride)),
                      "checked": checked,
                      "failures": len(fails), "first": fails[:5]}))


main()
