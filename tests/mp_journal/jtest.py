"""Helpers for the journal tests that run on MicroPython (one fresh littlefs each)."""
import json
import os

import cutdev
import model
import scenarios
from store.journal import Journal

PATH = "/flash"
ROOT = "/flash/data"


def setup(blocks=64):
    """A fresh Pico-like littlefs at PATH; returns the (counting) device."""
    return cutdev.fresh(blocks, PATH)


def remount(dev):
    """Unmount and mount the same medium again, as after a reboot."""
    cutdev.mount(dev, PATH)


def play(actions, **opts):
    j = Journal(ROOT, **opts)
    j.load()
    for a in actions:
        j.record(a)
    return j


def load(**opts):
    return Journal(ROOT, **opts).load()


def names():
    return sorted(os.listdir(ROOT))


def read(name):
    with open(ROOT + "/" + name, "rb") as f:
        return f.read()


def write(name, data):
    with open(ROOT + "/" + name, "wb") as f:
        f.write(data)


def flip(name, pos, bit=0):
    """Flip one bit of a file (through the filesystem: littlefs stays consistent)."""
    b = bytearray(read(name))
    b[pos] ^= 1 << bit
    write(name, bytes(b))


def settings_file():
    """The name of the settings file in use (s<N>.log, the highest N)."""
    found = [n for n in names() if n.startswith("s") and n.endswith(".log") and n[1:-4].isdigit()]
    return max(found, key=lambda n: int(n[1:-4])) if found else None


def segments(g=None):
    """Segment names of game g (default: the highest), in order."""
    segs = []
    for n in names():
        if n.startswith("g") and n.endswith(".log"):
            gg, ss = n[1:-4].split(".")
            segs.append((int(gg), int(ss), n))
    if not segs:
        return []
    if g is None:
        g = max(s[0] for s in segs)
    return [s[2] for s in sorted(segs) if s[0] == g]


def game_part(actions):
    """The actions of the last game (from its "new"), without settings."""
    i = max(k for k in range(len(actions)) if actions[k]["op"] == "new")
    return [a for a in actions[i:] if a["op"] != "set"]


def expect_with_game(actions, n_game_actions):
    """Final settings and archive, the last game after its first n actions."""
    final = model.states(actions)[-1]
    g = model.states(game_part(actions)[:n_game_actions])[-1]["game"]
    return {"settings": final["settings"], "game": g, "archive": final["archive"]}


def plain(x):
    """JSON-able copy: the lazy Archive becomes a list."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if hasattr(x, "numbers"):
        return [plain(v) for v in x]
    return x


def out(**kw):
    print(json.dumps(plain(kw)))


__all__ = ["Journal", "cutdev", "model", "scenarios", "os", "json", "setup", "remount", "play", "load",
           "names", "read", "write", "flip", "settings_file", "segments", "game_part", "expect_with_game", "out", "ROOT", "PATH"]
