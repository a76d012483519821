"""Flash cost of the journal, counted at the block device: bytes programmed, blocks erased.

For the bench and docs/storage.md. Run on the MicroPython unix port:

    micropython host_tools/bench/device_side/flash_stats.py [DEALS] [BLOCKS]

prints one JSON object. From code: measure(sample_game(40)).
The journal runs unchanged on littlefs mounted like the Pico's
(4096-byte blocks, progsize 256, 352 blocks); only the flash is RAM.
"""
import sys

sys.path.append((__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/../../rigs/device_side")  # cutdev
sys.path.append((__file__.rsplit("/", 1)[0] if "/" in __file__ else ".") + "/../../sim/device_side")  # blockdev
import cutdev  # noqa: E402

try:
    from store.journal import Journal
except ImportError:  # run as a script: the firmware is two folders up
    _here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    sys.path.append(_here + "/../../../firmware")
    from store.journal import Journal

RULES = {"preset": "classic2000", "options": {}}


class _Rand:
    """A tiny LCG: the same game on every run and every port."""

    def __init__(self, seed):
        self.x = seed & 0x7FFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def sample_deal(r):
    """A deal record with every field present (the largest common form)."""
    bids = (80, 90, 100, 110, 120, 130, 140, 150, 160, "capot")
    taker = ("NS", "EW")[r.below(2)]
    other = "EW" if taker == "NS" else "NS"
    melds = ("tierce", "quarte", "quinte", "carre_J")
    return {
        "taker": taker,
        "bid": bids[r.below(len(bids))],
        "trump": ("S", "H", "D", "C")[r.below(4)],
        "coinche": (0, 0, 0, 1, 2)[r.below(5)],
        "points": r.below(163),
        "tricks": r.below(9),
        "solo": False,
        "belote": {taker: r.below(2), other: 0},
        "melds": {taker: [melds[r.below(4)]] if r.below(3) == 0 else [], other: []},
        "melds_to": None,
    }


def sample_game(deals=40, seed=1, rules=RULES, edits=True):
    """The actions of one game: a new game, `deals` deals, with an edit every
    7th deal, an undo (delete the last deal, enter it again) every 11th and a
    settings change halfway."""
    r = _Rand(seed)
    acts = [{"op": "new", "rules": rules}]
    n = 0
    while n < deals:
        acts.append({"op": "add", "deal": sample_deal(r)})
        n += 1
        if edits and n % 7 == 0:
            acts.append({"op": "edit", "i": r.below(n), "deal": sample_deal(r)})
        if edits and n % 11 == 0:
            acts.append({"op": "del", "i": n - 1})
            acts.append({"op": "add", "deal": sample_deal(r)})
        if edits and n == deals // 2:
            acts.append({"op": "set", "k": "contrast", "v": 40 + r.below(200)})
    return acts


def _fresh_device_layout():
    """The device's layout (store/partitions.py): data partitions A and B of one flash,
    formatted and mounted at /data_a and /data_b; returns (device, roots)."""
    import vfs

    from blockdev import PROG_SIZE, Window

    dev = cutdev.CutDev(4096, 352)
    roots = []
    for (first, count), point in (((160, 96), "/data_a"), ((256, 96), "/data_b")):
        cutdev.unmount(point)
        vfs.VfsLfs2.mkfs(Window(dev, first, count), progsize=PROG_SIZE)
        vfs.mount(vfs.VfsLfs2(Window(dev, first, count), progsize=PROG_SIZE), point)
        roots.append(point)
    dev.programmed = dev.erases = 0
    return dev, roots


def measure(actions, block_count=352, path="/flash", root="/flash/data", device_layout=False, **journal_opts):
    """Run actions on a fresh littlefs and count what reached the flash.

    device_layout: the journal's two copies on the device's two data partitions
    (both counted) instead of one copy in root.
    Returns totals and a split by action ("add", "edit", "del", "set", "new"):
    [count, bytes programmed, blocks erased]."""
    if device_layout:
        dev, root = _fresh_device_layout()
    else:
        dev = cutdev.fresh(block_count, path)
    j = Journal(root, **journal_opts)
    j.load()
    by = {}
    b0, e0 = dev.programmed, dev.erases
    for a in actions:
        b, e = dev.programmed, dev.erases
        j.record(a)
        row = by.setdefault(a["op"], [0, 0, 0])
        row[0] += 1
        row[1] += dev.programmed - b
        row[2] += dev.erases - e
    b, e = dev.programmed, dev.erases
    st = j.load()
    deals = sum(1 for a in actions if a["op"] == "add") - sum(1 for a in actions if a["op"] == "del")
    out = {
        "actions": len(actions),
        "deals": deals,
        "bytes": b - b0,
        "erases": e - e0,
        "bytes_per_deal": (b - b0) // max(deals, 1),
        "erases_per_deal": round((e - e0) / max(deals, 1), 3),
        "by_op": by,
        "load_writes": dev.programmed - b,
        "notice": st["notice"],
    }
    cutdev.unmount(path)
    if device_layout:
        cutdev.unmount("/data_a")
        cutdev.unmount("/data_b")
    return out


def naive(actions, layout, block_count=352, path="/flash"):
    """The same actions stored the simple ways, for comparison (no recovery logic):

    "append": one file per game, each action appended as a line (open, write,
    close), the finished game renamed into the archive;
    "rewrite": the whole game rewritten to a temp file and renamed over the
    old one on every action. Returns (bytes programmed, blocks erased)."""
    import os

    from store.lines import encode

    dev = cutdev.fresh(block_count, path)
    os.mkdir(path + "/d")
    b0, e0 = dev.programmed, dev.erases
    lines = []
    game = 0
    for a in actions:
        line = encode(a)  # the same bytes the journal writes
        if a["op"] == "new":
            if game:
                os.rename(path + "/d/cur", path + "/d/a%d" % game)
            game += 1
            lines = []
        lines.append(line)
        if layout == "append":
            with open(path + "/d/cur", "ab") as f:
                f.write(line)
        else:
            with open(path + "/d/tmp", "wb") as f:
                for x in lines:
                    f.write(x)
            os.rename(path + "/d/tmp", path + "/d/cur")
    out = (dev.programmed - b0, dev.erases - e0)
    cutdev.unmount(path)
    return out


def game_stats(deals=40, block_count=352, device_layout=False):
    """The documented figure: one game of `deals` deals, closed by the next
    "new" (which archives it), on a fresh Pico-sized filesystem (or the device's
    two data partitions, both copies counted)."""
    acts = sample_game(deals) + [{"op": "new", "rules": RULES}]
    return measure(acts, block_count, device_layout=device_layout)


if __name__ == "__main__":
    import json

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    blocks = int(sys.argv[2]) if len(sys.argv) > 2 else 352
    res = game_stats(n, blocks)
    device = game_stats(n, device_layout=True)
    res["two_copies"] = {key: device[key] for key in ("bytes_per_deal", "erases_per_deal", "by_op", "load_writes")}
    acts = sample_game(n) + [{"op": "new", "rules": RULES}]
    for layout in ("append", "rewrite"):
        b, e = naive(acts, layout, blocks)
        res[layout] = {"bytes_per_deal": b // n, "erases_per_deal": round(e / n, 3)}
    print(json.dumps(res))
