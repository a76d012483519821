"""Heap use of load() with the largest state: 20 archived games and a current one, 40 deals each.

micropython memory.py build IMAGE   (any heap) writes the flash image file
micropython -X heapsize=N memory.py load IMAGE   loads it from the file, so the
flash itself takes no heap, and prints what load() keeps and what it needed.
"""
import gc
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path[:0] = [_HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]

import vfs  # noqa: E402

import blockdev  # noqa: E402
from store.journal import Journal  # noqa: E402

ROOT = "/flash/data"


def build(path):
    from flash_stats import sample_game
    dev = blockdev.FileBlockDev(path)
    blockdev.mount(dev, "/flash")
    j = Journal(ROOT)
    j.load()
    for g in range(21):
        for a in sample_game(40, seed=g):
            j.record(a)
    vfs.umount("/flash")
    dev.close()
    print(json.dumps({"built": path}))


def load(path):
    dev = blockdev.FileBlockDev(path)
    vfs.mount(vfs.VfsLfs2(dev, progsize=blockdev.PROG_SIZE), "/flash")
    gc.collect()
    a0 = gc.mem_alloc()
    st = Journal(ROOT).load()
    gc.collect()
    kept = gc.mem_alloc() - a0
    deals = []
    for game in st["archive"]:  # one game in RAM at a time
        deals.append(len(game["deals"]))
        game = None
    print(json.dumps({"kept": kept, "current": len(st["game"]["deals"]), "archive": deals,
                      "notice": st["notice"], "free": gc.mem_free()}))


(build if sys.argv[1] == "build" else load)(sys.argv[2])
