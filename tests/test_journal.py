"""The journal on the real littlefs code (MicroPython unix port, VfsLfs2 on a RAM flash):
round trips, rejected actions, damaged, truncated, newer and garbage files."""
import json
import os
import subprocess
import zlib

import pytest
from conftest import FIRMWARE, ROOT, mpy_cross_path, run_mp

MPJ = os.path.join(ROOT, "tests", "mp_journal")


def mpj(code, heapsize="16M"):
    """Run code after `from jtest import *`; returns the JSON lines it printed."""
    prelude = "import sys\nsys.path.insert(0, %r)\nfrom jtest import *\n" % MPJ
    proc = run_mp(code=prelude + code, heapsize=heapsize)
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def one(code, **kw):
    res = mpj(code, **kw)
    assert len(res) == 1, res
    return res[0]


# ------------------------------------------------------------------ the line format

def test_line_crc_matches_zlib_in_both_implementations():
    r = one("""
from store import crc_bytecode, lines
data = [b"", b"a", b"123456789", bytes(range(256)) * 3]
out(c=[lines.checksum(d) for d in data], py=[crc_bytecode.crc32_py(d) for d in data])
""")
    expect = [zlib.crc32(d) for d in (b"", b"a", b"123456789", bytes(range(256)) * 3)]
    assert r["c"] == expect
    assert r["py"] == expect
    assert expect[2] == 0xCBF43926  # the CRC-32 check value


def test_line_round_trip_and_every_single_bit_flip_is_caught():
    r = one("""
from store import lines
rec = {"op": "add", "deal": {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 112,
       "belote": {"NS": 1, "EW": 0}, "melds": {"NS": ["tierce"], "EW": []}, "melds_to": None, "solo": False}}
line = lines.encode(rec)
ok = lines.decode(line[:-1]) == rec
caught = 0
bits = 0
for i in range(len(line) - 1):
    for b in range(8):
        bad = bytearray(line[:-1]); bad[i] ^= 1 << b
        bits += 1
        try:
            lines.decode(bytes(bad))
        except lines.LineError:
            caught += 1
out(ok=ok, bits=bits, caught=caught, text=line.decode())
""")
    assert r["ok"]
    assert r["bits"] > 1000 and r["caught"] == r["bits"]
    crc, body = r["text"][:8], r["text"][9:-1]
    assert r["text"][8] == " " and r["text"].endswith("\n")
    assert int(crc, 16) == zlib.crc32(body.encode())  # the documented format, checked from CPython
    assert json.loads(body)["deal"]["bid"] == 100


def test_the_example_line_in_the_docs_is_valid():
    with open(os.path.join(ROOT, "docs", "storage.md")) as f:
        examples = [ln for ln in f.read().splitlines() if len(ln) > 10 and ln[8] == " " and ln[9] == "{"
                    and ln[:8] != "cccccccc"]
    assert examples
    for ln in examples:
        assert int(ln[:8], 16) == zlib.crc32(ln[9:].encode()), ln
        json.loads(ln[9:])


def test_lines_reader_chunks_tail_and_too_long():
    r = one("""
from store import lines
import io
def run(data):
    it = lines.Lines(io.BytesIO(data))
    got = list(it)
    return [len(x) for x in got], len(it.tail), it.too_long
out(a=run(b"x" * 300 + b"\\n" + b"y" * 10 + b"\\n"), b=run(b"abc\\nde"), c=run(b"z" * 5000 + b"\\nq\\n"), d=run(b""))
""")
    assert r["a"] == [[300, 10], 0, False]
    assert r["b"] == [[3], 2, False]
    assert r["c"][0] == [] and r["c"][2] is True
    assert r["d"] == [[], 0, False]


# ------------------------------------------------------------------ normal use

def test_round_trip_matches_the_model_and_load_writes_nothing():
    r = one("""
dev = setup()
acts = scenarios.main_game()
j = play(acts)
remount(dev)
w, e = dev.programmed, dev.erases
st = load()
st2 = load()
exp = model.states(acts)[-1]
out(same=model.same(st, exp), same2=model.same(st2, exp), notice=st["notice"], writes=dev.programmed - w,
    erases=dev.erases - e, names=names(), deals=len(st["game"]["deals"]), arch=[len(g["deals"]) for g in st["archive"]],
    settings=st["settings"], rules=st["game"]["rules"])
""")
    assert r["same"] and r["same2"]
    assert r["notice"] is None
    assert r["writes"] == 0 and r["erases"] == 0
    assert r["settings"] == {"lang": "en", "contrast": r["settings"]["contrast"]}
    assert r["rules"] == {"preset": "coinche1000", "options": {"target": 1000}}
    assert r["deals"] == 2 and r["arch"] == [24]
    # the layout of docs/storage.md: settings, one archived game, the new game's segment(s)
    assert "s3.log" in r["names"] and "a1.log" in r["names"]  # the third settings change
    assert all(n == "s3.log" or n == "a1.log" or n.startswith("g2.") for n in r["names"]), r["names"]


def test_fresh_device_no_directory_then_first_record_creates_it():
    r = one("""
dev = setup()
st = load()
miss = "data" not in os.listdir(PATH)
j = Journal(ROOT)
j.load()
j.record({"op": "set", "k": "lang", "v": "fr"})
j.record({"op": "new", "rules": {"preset": "federation", "options": {"target": 700}}})
remount(dev)
out(first=st, missing=miss, after=load())
""")
    assert r["first"] == {"settings": {}, "game": None, "archive": [], "notice": None}
    assert r["missing"]
    assert r["after"] == {"settings": {"lang": "fr"}, "game": {"rules": {"preset": "federation", "options": {"target": 700}},
                                                             "deals": []}, "archive": [], "notice": None}


def test_invalid_actions_raise_valueerror_and_write_nothing():
    r = one("""
dev = setup()
j = Journal(ROOT)
j.load()
res = []
d = {"taker": "NS", "bid": 80, "trump": "S", "coinche": 0, "points": 90}
def tryit(a):
    w = dev.programmed + dev.erases
    try:
        j.record(a)
        res.append("ok")
    except ValueError:
        res.append("ValueError")
    except TypeError:
        res.append("TypeError")
    res.append(dev.programmed + dev.erases - w)
tryit({"op": "add", "deal": d})              # no game yet
tryit({"op": "new", "rules": "classic2000"})  # rules must be a RULESPEC dict
tryit({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
tryit({"op": "edit", "i": 0, "deal": d})     # no deal 0
tryit({"op": "del", "i": 0})
tryit({"op": "add", "deal": [1, 2]})
tryit({"op": "add", "deal": d})
tryit({"op": "edit", "i": True, "deal": d})  # a bool is not an index
tryit({"op": "del", "i": -1})
tryit({"op": "swap"})
tryit("add")
tryit({"op": "set", "k": 3, "v": 1})
tryit({"op": "set", "k": "lang", "v": "fr"})
tryit({"op": "set", "k": "lang", "v": "fr"})  # no change: no write
tryit({"op": "add", "deal": {"taker": "NS", "x": set()}})  # not JSON
tryit({"op": "new", "rules": {"preset": "classic2000", "options": {}}, "result": {"x": set()}})
out(res=res, st=load())
""")
    res = r["res"]
    pairs = list(zip(res[::2], res[1::2]))
    assert pairs[0] == ("ValueError", 0)
    assert pairs[1] == ("ValueError", 0)
    assert pairs[2][0] == "ok" and pairs[2][1] > 0
    assert pairs[3:6] == [("ValueError", 0)] * 3
    assert pairs[6][0] == "ok"
    assert pairs[7:12] == [("ValueError", 0)] * 5
    assert pairs[12][0] == "ok" and pairs[12][1] > 0
    assert pairs[13] == ("ok", 0)
    assert pairs[14][0] in ("TypeError", "ValueError") and pairs[14][1] == 0
    assert pairs[15] == ("ValueError", 0)  # a result JSON cannot hold: the game is not archived half
    assert r["st"]["settings"] == {"lang": "fr"} and len(r["st"]["game"]["deals"]) == 1


def test_archive_keeps_the_last_20_games_oldest_first_and_prunes_files():
    r = one("""
dev = setup(128)
acts = scenarios.many_games(26)
play(acts)
remount(dev)
st = load()
exp = model.states(acts)[-1]
arcs = [n for n in names() if n.startswith("a")]
out(same=model.same(st, exp), n=len(st["archive"]), files=len(arcs), notice=st["notice"])
""")
    assert r["same"] and r["n"] == 20 and r["files"] == 20 and r["notice"] is None


def test_archive_is_a_lazy_view_that_follows_new_games_and_has_cheap_summaries():
    r = one("""
dev = setup(128)
acts = scenarios.many_games(8)
j = play(acts[:-1])
st = j.load()
view = st["archive"]
n0 = len(view)
j.record(acts[-1])                      # a "new": the finished game joins the same view
exp = model.states(acts)[-1]["archive"]
sums = [view.summary(i) for i in range(len(view))]
out(n0=n0, n1=len(view), same=list(view) == exp, last=view[-1] == exp[-1], rev=[len(g["deals"]) for g in reversed(view)],
    want=[len(g["deals"]) for g in exp], sl=view[-2:] == exp[-2:], sums=sums, nums=view.numbers(), fresh=j.archive() == exp)
""")
    assert r["n1"] == r["n0"] + 1 and r["same"] and r["fresh"] and r["last"] and r["sl"]
    assert r["rev"] == r["want"][::-1]
    assert [s["n"] for s in r["sums"]] == r["want"]
    assert any(s["result"] == {"NS": 7, "EW": 0} for s in r["sums"])
    assert r["nums"] == sorted(r["nums"])


def test_long_game_compacts_into_a_base_and_stays_small():
    r = one("""
from flash_stats import sample_game
dev = setup(64)
acts = sample_game(120, seed=9)   # one very long game: more than MAX_SEGS segments
play(acts)
remount(dev)
st = load()
segs = segments()
sizes = [len(read(n)) for n in segs]
out(same=model.same(st, model.states(acts)[-1]), nsegs=len(segs), first=segs[0], notice=st["notice"], big=max(sizes))
""")
    assert r["same"] and r["notice"] is None
    assert r["nsegs"] <= 32
    assert r["first"] != "g1.0.log"  # the first segments were folded into a base and removed


# ------------------------------------------------------------------ damage

def test_every_corrupted_line_of_the_current_game_keeps_the_prefix_and_moves_bytes_aside():
    """Flip one bit in each line of each segment in turn: load keeps every action
    before that line, moves the damaged file(s) aside byte for byte, says so; the
    next load is clean and the journal keeps recording."""
    r = one("""
from flash_stats import sample_game
dev = setup(64)
acts = [{"op": "set", "k": "lang", "v": "fr"}] + sample_game(14, seed=5)
play(acts)
base = dev.image()
game = game_part(acts)
segs = segments()
plan = []   # (segment, byte offset of a line, game actions before that line)
n = 0
for name in segs:
    data = read(name)
    pos = 0
    first = True
    for line in data.split(b"\\n")[:-1]:
        if first:
            first = False
        else:
            plan.append((name, pos + 20, n))
            n += 1
        pos += len(line) + 1
bad = []
for name, pos, before in plan:
    d = cutdev.CutDev(4096, 64, under=base)
    cutdev.mount(d, PATH)
    flip(name, pos)
    damaged = read(name)
    later = segs[segs.index(name):]
    later_bytes = [read(s) for s in later]
    st = load()
    exp = expect_with_game(acts, before + 1)   # + 1: the "new" of the game
    ok = model.same(st, exp) and st["notice"] is not None and "deal" in st["notice"]
    kept = [read(x) for x in names() if x.startswith("damaged-")]
    ok = ok and all(b in kept for b in later_bytes) and damaged in kept
    st2 = load()
    ok = ok and model.same(st2, exp) and st2["notice"] is None
    j = Journal(ROOT)
    j.load()
    j.record({"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "S", "coinche": 0, "points": 81}})
    remount(d)
    st3 = load()
    ok = ok and st3["notice"] is None and st3["game"]["deals"] == exp["game"]["deals"] + [{"taker": "NS", "bid": 80, "trump": "S", "coinche": 0, "points": 81}]
    if not ok:
        bad.append([name, pos, before, model.describe(st), st["notice"]])
out(cases=len(plan), bad=bad[:3], nbad=len(bad), game_actions=len(game))
""")
    assert r["cases"] >= r["game_actions"] - 1 >= 12
    assert r["nbad"] == 0, r["bad"]


def test_flash_bit_flip_in_an_archive_data_block_is_caught_by_the_checksum():
    """A flip in the flash itself: littlefs does not checksum file data blocks, the journal does."""
    r = one("""
dev = setup(64)
acts = scenarios.main_game(24)
play(acts)
remount(dev)
blob = read("a1.log")
# find the archive's data block on the raw flash and flip a bit in its line 20 (deal 19)
needle = blob.split(b"\\n")[20]
hit = None
for b, data in dev.blocks.items():
    i = bytes(data).find(needle)
    if i >= 0:
        hit = (b, i)
dev.blocks[hit[0]][hit[1] + 30] ^= 4
remount(dev)
st = load()
exp = model.states(acts)[-1]
arch = st["archive"][0]
out(hit=hit is not None, deals=len(arch["deals"]), want=exp["archive"][0]["deals"][:19] == arch["deals"],
    notice=st["notice"], names=names(), other=st["game"] == exp["game"] and st["settings"] == exp["settings"],
    kept=[n for n in names() if n.startswith("damaged")], again=load())
""")
    assert r["hit"]
    assert r["deals"] == 19 and r["want"] and r["other"]
    assert "archived game 1" in r["notice"]
    assert r["kept"] == ["damaged-1.bin"]
    assert r["again"]["notice"] is None and len(r["again"]["archive"][0]["deals"]) == 19


@pytest.mark.parametrize("cut", ["mid-line", "line-boundary", "header-only"])
def test_truncated_segment_and_archive(cut):
    r = one("""
dev = setup(64)
acts = scenarios.main_game(10)[:-2]    # ends in the second game, after three adds and a del
play(acts)
cut = %r
seg = segments()[0]
data = read(seg)
ends = [i for i in range(len(data)) if data[i] == 10]
if cut == "mid-line":
    write(seg, data[:ends[1] + 15])        # header, one action, a piece of the next
    keep = 1
elif cut == "line-boundary":
    write(seg, data[:ends[1] + 1])         # header and one complete action; the next segment says 2
    keep = 1
else:
    write(seg, data[:ends[0] + 1])
    keep = 0
arc = read("a1.log")
aends = [i for i in range(len(arc)) if arc[i] == 10]
write("a1.log", arc[:aends[5] + 1])        # header + 5 deals: fewer lines than its count
st = load()
exp = expect_with_game(acts, keep + 1)
out(game=st["game"] == exp["game"], arch=len(st["archive"][0]["deals"]),
    arch_ok=st["archive"][0]["deals"] == model.states(acts)[-1]["archive"][0]["deals"][:5],
    notice=st["notice"], again=load()["notice"], kept=len([n for n in names() if n.startswith("damaged")]))
""" % cut)
    assert r["arch"] == 5 and r["arch_ok"]
    assert r["notice"] is not None and "archived game 1" in r["notice"]
    assert r["again"] is None
    assert r["game"]
    # set aside: the archive, the segment after the cut, and the cut segment unless it ends on a line
    assert r["kept"] == (3 if cut == "mid-line" else 2)


def test_newer_format_files_are_not_misread_but_set_aside():
    r = one("""
from store import lines
dev = setup(64)
acts = scenarios.main_game(8)
play(acts)
segs = segments()
# a newer firmware appended a segment, rewrote the settings and archived a game in a v2 format
last = segs[-1]
g, s = last[1:-4].split(".")
write("g%s.%d.log" % (g, int(s) + 1), lines.encode({"v": 2, "t": "log", "g": int(g), "s": int(s) + 1, "p": 99})
      + lines.encode({"op": "add", "deal": {"taker": "NS"}, "extra": 1}))
write(settings_file(), lines.encode({"v": 2, "t": "set", "s": {"lang": "fr"}, "theme": "dark"}))
write("a1.log", lines.encode({"v": 2, "t": "arc", "g": 1, "n": 0, "rules": {}, "zip": True}))
st = load()
exp = model.states(acts)[-1]
kept = [n for n in names() if n.startswith("damaged")]
out(game=st["game"] == exp["game"], arch=st["archive"] == [], settings=st["settings"], notice=st["notice"],
    kept=len(kept), again=load())
""")
    assert r["game"] and r["arch"]
    assert r["settings"] == {}  # the v2 settings file cannot be read: defaults, file kept aside
    assert "newer format" in r["notice"] and "settings reset" in r["notice"]
    assert r["kept"] == 3
    assert r["again"]["notice"] is None and r["again"]["game"] is not None


def test_unknown_action_in_a_v1_file_stops_there():
    r = one("""
from store import lines
dev = setup(64)
acts = scenarios.main_game(6)[:-2]
play(acts)
seg = segments()[-1]
with open(ROOT + "/" + seg, "ab") as f:
    f.write(lines.encode({"op": "swap", "i": 0, "j": 1}))
    f.write(lines.encode({"op": "add", "deal": {"taker": "NS", "bid": 80}}))
st = load()
out(same=model.same(st, model.states(acts)[-1]), notice=st["notice"])
""")
    assert r["same"] and "newer format" in r["notice"]


def test_garbage_files_never_crash_and_foreign_files_are_left_alone():
    r = one("""
dev = setup(64)
acts = scenarios.main_game(8)
play(acts)
os.mkdir(ROOT + "/g7.0.log")               # a directory with a journal name
write("notes.txt", b"hello")
write("g99.0.log", bytes(range(256)) * 3)   # a high game number, garbage
write("g2.77.log", b"\\xff" * 600)          # in the current game, above everything
write("a5.log", b"not a journal\\n")         # above the current game: taken for a leftover, ignored
write("a0.log", b"x")                       # not a valid name (game 0): foreign
write("g01.0.log", b"x")                    # not canonical: foreign
write("damaged-x.bin", b"?")
st = load()
exp = model.states(acts)[-1]
out(same=model.same(st, exp), notice=st["notice"], names=names(), again=load())
""")
    assert r["same"], r
    assert r["notice"] is not None
    for foreign in ("notes.txt", "a0.log", "g01.0.log", "damaged-x.bin", "g7.0.log", "a5.log"):
        assert foreign in r["names"]
    assert "g99.0.log" not in r["names"] and "g2.77.log" not in r["names"]
    assert sum(n.startswith("damaged-") and n != "damaged-x.bin" for n in r["names"]) == 2
    assert r["again"]["notice"] is None


def test_garbage_everywhere_random_bytes_never_raise():
    r = one("""
import random
random.seed(4)
dev = setup(64)
play(scenarios.main_game(6))
crashes = 0
for i in range(60):
    for n in names():
        if n.startswith("damaged"):
            os.remove(ROOT + "/" + n)
    targets = [n for n in names() if n.endswith(".log")]
    t = targets[random.getrandbits(8) % len(targets)]
    data = bytearray(read(t))
    for _ in range(1 + random.getrandbits(3)):
        data[random.getrandbits(16) % len(data)] = random.getrandbits(8)
    if random.getrandbits(1):
        data = data[:random.getrandbits(16) % (len(data) + 1)]
    write(t, bytes(data))
    try:
        st = load()
        assert isinstance(st["settings"], dict)
        st = load()
        j = Journal(ROOT); j.load()
        j.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
        j.record({"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "S", "coinche": 0, "points": 90}})
        st = load()
        assert st["notice"] is None and len(st["game"]["deals"]) == 1, st
    except Exception as e:
        crashes += 1
        print(repr(e))
out(crashes=crashes)
""")
    assert r["crashes"] == 0


def test_a_crowd_of_garbage_segments_in_the_current_game():
    r = one("""
dev = setup(96)
acts = scenarios.main_game(6)
play(acts)
for s in range(100, 180):
    write("g2.%d.log" % s, b"junk %d\\n" % s)
st = load()
exp = model.states(acts)[-1]
again = load()
j = Journal(ROOT); j.load()
j.record({"op": "del", "i": 0})
out(same=model.same(st, exp), notice=st["notice"], again=again["notice"], left=[n for n in names() if n in ["g2.%d.log" % s for s in range(100, 180)]],
    moved=len([n for n in names() if n.startswith("damaged")]), after=len(load()["game"]["deals"]))
""")
    assert r["same"] and r["notice"] and r["again"] is None
    assert r["left"] == [] and r["moved"] == 80
    assert r["after"] == 1


def test_damaged_settings_reset_and_next_set_works():
    r = one("""
dev = setup()
play([{"op": "set", "k": "lang", "v": "fr"}, {"op": "set", "k": "dim", "v": 30}])
flip(settings_file(), 25)
st = load()
j = Journal(ROOT); j.load()
j.record({"op": "set", "k": "lang", "v": "en"})
out(st=st, after=load(), kept=[n for n in names() if n.startswith("damaged")])
""")
    assert r["st"]["settings"] == {} and "settings reset" in r["st"]["notice"]
    assert r["after"]["settings"] == {"lang": "en"} and r["after"]["notice"] is None
    assert r["kept"] == ["damaged-1.bin"]


def test_cut_during_the_repair_of_a_damaged_journal():
    """load() writes when it repairs; cut it at every one of those writes: the next
    load still gives the recovered state and the damaged bytes are never lost."""
    r = one("""
dev = setup(48)
acts = scenarios.main_game(12)[:-2]
play(acts)
segs = segments()
flip(segs[1], 30)                 # the current game's second segment
damaged = [read(s) for s in segs[1:]]
cutdev.unmount(PATH)
snap = dev.image()
rec = cutdev.CutDev(4096, 48, record=True, under=snap)
cutdev.mount(rec, PATH)
want = load()
log = rec.log
cutdev.unmount(PATH)
replay = cutdev.Replay(snap, log, 4096, 48)
bad = []
for k in range(len(log) + 1):
    for tear in (False, True):
        if tear and k == len(log):
            continue
        d = replay.at(k, tear)
        cutdev.mount(d, PATH)
        st = load()
        if not model.same(st, want):
            bad.append([k, tear, model.describe(st)])
        have = [read(n) for n in names()]
        if not all(x in have for x in damaged):
            bad.append([k, tear, "damaged bytes lost"])
        if load()["notice"] is not None:
            bad.append([k, tear, "second load not clean"])
        cutdev.unmount(PATH)
out(ops=len(log), bad=bad[:4], nbad=len(bad), notice=want["notice"], deals=len(want["game"]["deals"]))
""")
    assert r["ops"] > 3
    assert r["nbad"] == 0, r["bad"]
    assert r["notice"] is not None


# ------------------------------------------------------------------ firmware rules

UPPER_LAYERS = ("app", "screens", "table", "render", "events")  # what the journal never imports


def test_store_compiles_for_the_pico_and_imports_nothing_from_the_scoring_core():
    mpy_cross = mpy_cross_path()
    assert mpy_cross, "mpy-cross missing"
    store = os.path.join(FIRMWARE, "store")
    for name in sorted(os.listdir(store)):
        if name.endswith(".py"):
            src = os.path.join(store, name)
            with open(src) as f:
                text = f.read()
            for line in text.splitlines():
                words = line.split()
                if words[:1] in (["import"], ["from"]) and words[1] != "coinche.compat":  # const: the interpreter's, not scoring
                    assert "coinche" not in line and words[1].split(".")[0] not in UPPER_LAYERS, (name, line)
            subprocess.run([mpy_cross, "-march=armv6m", "-o", os.devnull, src], check=True)


def test_a_dealer_correction_is_one_durable_action():
    """{"op": "dealer", "fix": [...]}, a correction of the next dealer: the current game's rules carry the corrections
    from then on, through a reload; a malformed one writes nothing."""
    r = one("""
dev = setup()
j = Journal(ROOT)
j.load()
d = {"taker": "NS", "bid": 80, "trump": "S", "coinche": 0, "points": 90}
bad = []
for a in ({"op": "dealer", "fix": [[0, "E"]]}, ):
    try:
        j.record(a)
        bad.append("ok")
    except ValueError:
        bad.append("ValueError")
j.record({"op": "new", "rules": {"preset": "classic2000", "options": {}, "dealer": "N"}})
j.record({"op": "add", "deal": d})
w = dev.programmed + dev.erases
for a in ({"op": "dealer", "fix": [[1, "X"]]}, {"op": "dealer", "fix": "E"}, {"op": "dealer", "fix": [[-1, "E"]]},
          {"op": "dealer", "fix": [["1", "E"]]}):
    try:
        j.record(a)
        bad.append("ok")
    except ValueError:
        bad.append("ValueError")
bad.append(dev.programmed + dev.erases - w)
j.record({"op": "dealer", "fix": [[1, "E"]]})
j.record({"op": "add", "deal": d})
remount(dev)
st = load()
out(bad=bad, rules=st["game"]["rules"], deals=len(st["game"]["deals"]), notice=st["notice"])
""")
    assert r["bad"] == ["ValueError"] * 5 + [0]
    assert r["rules"] == {"preset": "classic2000", "options": {}, "dealer": "N", "fix": [[1, "E"]]}
    assert r["deals"] == 2 and r["notice"] is None
