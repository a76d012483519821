"""The device's flash layout (store/partitions.py, decision D1) and its mount policy, the
journal's two copies, and the damage suite: every single damaged block of a saved game.

All on the real littlefs of the MicroPython unix port."""
import json
import os

import pytest

import sweep
from conftest import ROOT, run_mp
from host_tools.sim import Sim

MPJ = os.path.join(ROOT, "tests", "mp_journal")


def one(code, heapsize="64M"):
    prelude = "import sys\nsys.path.insert(0, %r)\n" % MPJ
    proc = run_mp(code=prelude + code, heapsize=heapsize)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, proc.stdout + proc.stderr
    return lines[0]


MOUNT = """
import json, os, vfs
import blockdev
from store import partitions
from store.journal import Journal

def umount():
    for p in ("/flash", "/data_a", "/data_b"):
        try:
            vfs.umount(p)
        except OSError:
            pass

def boot(dev):
    umount()
    roots, notices = partitions.mount_storage(lambda first, count: blockdev.Window(dev, first, count), vfs,
                                              user_mount="/flash", data_mounts=("/data_a", "/data_b"))
    return roots, notices, list(partitions.formatted)

def play(dev, deals):
    roots, notices, _ = boot(dev)
    j = Journal(roots, notices=notices)
    j.load()
    j.record({"op": "set", "k": "lang", "v": "de"})
    j.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
    for i in range(deals):
        j.record({"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "H", "coinche": 1, "points": 80 + i}})
    return j

def load(dev):
    roots, notices, formatted = boot(dev)
    st = Journal([r for r in roots if r], notices=notices).load()
    return roots, st, formatted

def garbage(dev, first, count):
    for block in range(first, first + count):
        dev.blocks[block] = bytearray(bytes((block * 7 + i) % 251 for i in range(256)) * 16)
"""


def test_layout_constants_are_decision_d1():
    r = one("""
from store import partitions
import json
print(json.dumps({"user": partitions.USER_PARTITION, "data": partitions.DATA_PARTITIONS, "blocks": partitions.STORAGE_BLOCKS,
                  "size": partitions.BLOCK_SIZE, "aside": partitions.ASIDE_DIRECTORY}))
""")
    assert r["user"] == ["user", 0, 160, "/"]
    assert r["data"] == [["data_a", 160, 96, "/data_a"], ["data_b", 256, 96, "/data_b"]]
    assert r["blocks"] == 352 and r["size"] == 4096 and r["aside"] == "aside"
    # the three partitions tile the storage region exactly
    spans = [(r["user"][1], r["user"][2])] + [(d[1], d[2]) for d in r["data"]]
    assert [first for first, _ in spans] == [0, 160, 256] and sum(n for _, n in spans) == 352


def test_blank_flash_is_formatted_silently_and_holds_two_copies():
    r = one(MOUNT + """
dev = blockdev.RAMBlockDev()
roots, notices, formatted = boot(dev)
j = play(dev, 5)
roots2, st, formatted2 = load(dev)
print(json.dumps({"roots": roots, "notices": notices, "formatted": formatted, "again": formatted2,
                  "deals": len(st["game"]["deals"]), "notice": st["notice"],
                  "a": sorted(os.listdir("/data_a")), "b": sorted(os.listdir("/data_b"))}))
""")
    assert r["roots"] == ["/data_a", "/data_b"] and r["notices"] == []
    assert r["formatted"] == ["user", "data_a", "data_b"] and r["again"] == []
    assert r["deals"] == 5 and r["notice"] is None
    assert r["a"] == r["b"] and any(n.startswith("g") for n in r["a"])  # the same files in both copies


def test_unmountable_data_partition_is_set_aside_never_formatted_first():
    """A partition littlefs cannot mount: its raw bytes go to /aside/ (read back equal), then it is
    formatted and refilled from the other copy; nothing is lost and the device says so."""
    r = one(MOUNT + """
dev = blockdev.RAMBlockDev()
play(dev, 7)
umount()
garbage(dev, 160, 2)  # partition A's superblock pair
raw = b"".join(bytes(dev.blocks.get(b, b"\\xff" * 4096)) for b in range(160, 256))
roots, st, formatted = load(dev)
aside = sorted(os.listdir("/flash/aside"))
with open("/flash/aside/" + aside[0], "rb") as f:
    kept = f.read() == raw
roots2, st2, _ = load(dev)  # the next boot: repaired, quiet
print(json.dumps({"roots": roots, "deals": len(st["game"]["deals"]), "notice": st["notice"],
                  "aside": aside, "kept": kept, "formatted": formatted, "settings": st["settings"],
                  "again": [len(st2["game"]["deals"]), st2["notice"]]}))
""")
    assert r["roots"] == ["/data_a", "/data_b"] and r["formatted"] == []
    assert r["deals"] == 7 and r["settings"] == {"lang": "de"}
    assert r["aside"] == ["data_a-1.bin"] and r["kept"]
    assert "data_a damaged: kept in /flash/aside/data_a-1.bin" in r["notice"]
    assert r["again"] == [7, None]


def test_no_room_to_set_aside_leaves_the_partition_untouched_and_still_records():
    r = one(MOUNT + """
dev = blockdev.RAMBlockDev()
play(dev, 4)
boot(dev)
number = 0
try:  # the user filesystem fills up: no room for a 384 KB copy
    while True:
        with open("/flash/filler%d" % number, "wb") as f:
            f.write(b"x" * 16384)
        number += 1
except OSError:
    pass
umount()
garbage(dev, 256, 2)  # partition B
before = {b: bytes(dev.blocks[b]) for b in range(256, 352) if b in dev.blocks}
roots, notices, _ = boot(dev)
j = Journal([r for r in roots if r], notices=notices)
st = j.load()
j.record({"op": "add", "deal": {"taker": "EW", "bid": 90, "trump": "S", "coinche": 1, "points": 100}})
after = {b: bytes(dev.blocks[b]) for b in range(256, 352) if b in dev.blocks}
roots2, st2, _ = load(dev)
print(json.dumps({"roots": roots, "notices": notices, "deals": len(st["game"]["deals"]),
                  "untouched": before == after, "after": len(st2["game"]["deals"])}))
""")
    assert r["notices"] == ["data_b damaged: left untouched"]
    assert r["roots"] == ["/data_a", "/flash/data_b"]  # copy B moves to a folder of the user filesystem
    assert r["deals"] == 4 and r["after"] == 5 and r["untouched"]


def test_damaged_user_filesystem_is_left_untouched():
    r = one(MOUNT + """
dev = blockdev.RAMBlockDev()
play(dev, 3)
umount()
garbage(dev, 0, 2)
before = [bytes(dev.blocks[b]) for b in (0, 1)]
roots, st, formatted = load(dev)
print(json.dumps({"roots": roots, "deals": len(st["game"]["deals"]), "notice": st["notice"],
                  "untouched": before == [bytes(dev.blocks[b]) for b in (0, 1)], "formatted": formatted}))
""")
    assert r["roots"] == ["/data_a", "/data_b"] and r["deals"] == 3 and r["untouched"]
    assert "user filesystem damaged: left untouched" in r["notice"] and r["formatted"] == []


def test_simulator_never_formats_a_damaged_image(tmp_path):
    """The launcher mounts --flash by the device's policy: a damaged partition is set aside, the
    game is still there, the device says so (L lines; the app shows a notice)."""
    img = str(tmp_path / "game.img")
    with Sim(flash=img) as s:
        s.press("ok")
        s.sync()
        assert s.flash_status == "formatted"
    with open(img, "r+b") as f:  # partition A's superblock pair becomes garbage
        f.seek(160 * 4096)
        f.write(bytes(range(256)) * 32)
    with Sim(flash=img) as s:
        st = s.state()
        assert s.flash_status == "recovered"
        assert any("data_a damaged: kept in /flash/aside/data_a-1.bin" in line for line in s.log), s.log
    with open(img, "rb") as f:
        data = f.read()
    assert len(data) == 352 * 4096
    assert st["rules"] is not None


def test_damage_suite_every_single_block_keeps_every_deal():
    """The saved game of host_tools/rigs/device_side/damage.py in the device layout: every used block flipped
    (one bit per programmed page), zeroed and erased in turn; every boot keeps every confirmed
    deal, the right game, and records the next deal (checked after one more boot)."""
    proc = run_mp(script=os.path.join(ROOT, "host_tools", "rigs", "device_side", "damage.py"), args=["device"], heapsize="64M")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["used_blocks"] >= 12
    for kind in ("flipped", "zeroed", "erased"):
        assert r["kinds"][kind] == {"all": r["used_blocks"], "fewer": 0, "other": 0, "nostart": 0}, r["failures"]
    assert r["records"] == {"ok": 3 * r["used_blocks"], "lost": 0}, r["failures"]


CUT_STRIDE = 12


@pytest.mark.parametrize("scenario,layout", [("checkpoints", "device"), ("checkpoints", "dirs")])
def test_cut_at_every_operation_with_two_copies(scenario, layout):
    """Every program/erase of the scenario cut (stopped and torn; `make test`: every
    CUT_STRIDE-th, tests/sweep.py), on both copies: the state before or after the running
    action, never a notice; a load that repairs is cut too. (The longer "main" scenario
    passes too, in about a minute of CPU per layout:
    micropython tests/mp_journal/cut_all.py main 352 both 1 device)"""
    stride, start = sweep.stride(CUT_STRIDE), sweep.start(CUT_STRIDE)
    proc = run_mp(script=os.path.join(MPJ, "cut_all.py"),
                  args=[scenario, "352", "both", str(stride), layout, str(start)], heapsize="64M")
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["failures"] == 0, r["first"]
    assert r["cuts"] == len(range(start, r["ops"], stride)) + 1
    assert r["checked"] == 2 * r["cuts"] - 1 and r["layout"] == layout
    assert r["nested"] > 0  # cuts between the two copies: the next load repaired one, cut too


def test_settings_with_bad_values_fall_back_to_their_defaults_with_a_notice():
    """Lines that pass their checksum but hold values the app cannot use: each falls back to
    its default, the start says "Recovered", Settings opens and draws, and a new value saves."""
    r = one("""
import json, fakeboard, cutdev
from store.journal import Journal
from app import App
from screens import settings as settings_screens
dev = cutdev.fresh(352, "/flash")
j = Journal(["/flash/data_a", "/flash/data_b"])
j.load()
for k, v in (("dim", "abc"), ("contrast", "x"), ("lang", 7), ("dealer", "Q"), ("rules", "classic"),
             ("dir", "up"), ("names", "abc"), ("team", "kept")):
    j.record({"op": "set", "k": k, "v": v})
board = fakeboard.Board(["/flash/data_a", "/flash/data_b"])
app = App(board)
toast = app.toast_msg
for _ in range(30):  # polls: dimming reads "dim"
    board.now += 10000
    app.poll()
app.go(settings_screens.Settings(app))
app.render()
for key in range(8):
    app.handle(1)  # DOWN through every item, each drawn
    app.render()
app.change_setting("s_dim", 60)
again = App(fakeboard.Board(["/flash/data_a", "/flash/data_b"]))
print(json.dumps({"settings": app.settings, "toast": toast, "recovered": app.texts["recovered"],
                  "again": again.settings, "again_toast": again.toast_msg}))
""")
    assert r["toast"] == r["recovered"]
    assert r["settings"] == {"team": "kept", "dim": 60}  # every bad value dropped; unknown keys kept
    # the bad values were cleared in the journal at that start: the next one is quiet
    assert r["again"] == {"team": "kept", "dim": 60} and r["again_toast"] is None


def test_a_journal_of_the_single_copy_firmware_is_taken_over_once():
    """The stock firmware kept one copy in /data: the first start with two copies reads it
    (never writes or removes it) and fills both copies; after the first new action it is
    no longer read."""
    r = one(MOUNT + """
import cutdev, os
cutdev.fresh(352, "/flash")
old = Journal("/flash/data")
old.load()
old.record({"op": "set", "k": "lang", "v": "it"})
old.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
for i in range(3):
    old.record({"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "H", "coinche": 1, "points": 80 + i}})
old.record({"op": "new", "rules": {"preset": "coinche1000", "options": {}}, "result": {"NS": 1, "EW": 0}})
old.record({"op": "add", "deal": {"taker": "EW", "bid": 90, "trump": "S", "coinche": 1, "points": 100}})
before = sorted(os.listdir("/flash/data"))
roots = ["/flash/data_a", "/flash/data_b"]
st = Journal(roots, legacy="/flash/data").load()
copies = [sorted(os.listdir(r)) for r in roots]
untouched = sorted(os.listdir("/flash/data")) == before
j = Journal(roots, legacy="/flash/data")
j.load()
j.record({"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "C", "coinche": 1, "points": 120}})
old.record({"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "D", "coinche": 1, "points": 90}})
after = Journal(roots, legacy="/flash/data").load()
print(json.dumps({"settings": st["settings"], "deals": len(st["game"]["deals"]), "archive": len(st["archive"]),
                  "notice": st["notice"], "legacy_untouched": untouched,
                  "a_eq_b": copies[0] == copies[1] and len(copies[0]) > 0,
                  "after": [len(after["game"]["deals"]), len(after["archive"]), after["notice"]]}))
""")
    assert r["settings"] == {"lang": "it"} and r["deals"] == 1 and r["archive"] == 1 and r["notice"] is None
    assert r["a_eq_b"] and r["legacy_untouched"]
    assert r["after"] == [2, 1, None]  # the copies' own action; later legacy changes ignored
