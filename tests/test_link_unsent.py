"""The link's rebuild of what is unsent, from the journal itself (link/unsent.py), on
the MicroPython unix port with the real journal on a littlefs RAM flash: every
action above a sequence number comes back as the journal holds it, including the
one a base swallowed (a game's "new", the action folded into a compaction), and
settings never do."""
import json

from conftest import run_mp

JOURNAL = """
import json
from blockdev import RAMBlockDev, mount
from store.journal import Journal
from link import unsent
mount(RAMBlockDev(4096, 352), "/flash")
journal = Journal("/flash/j", segment_bytes=%d, max_segments=%d)
journal.load()
DEAL = {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}
"""


def run(segment_bytes, max_segments, body):
    proc = run_mp(JOURNAL % (segment_bytes, max_segments) + body)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_action_after_a_sequence_comes_back_and_settings_do_not():
    out = run(512, 32, """
journal.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
journal.record({"op": "add", "deal": DEAL})
journal.record({"op": "set", "k": "lang", "v": "de"})
journal.record({"op": "edit", "i": 0, "deal": dict(DEAL, points=90)})
journal.record({"op": "del", "i": 0})
print(json.dumps({"all": unsent.unsent(journal, 0), "after_add": unsent.unsent(journal, 2),
                  "none": unsent.unsent(journal, 5), "newest": unsent.newest(journal)}))
""")
    assert [(game, seq, action["op"]) for game, seq, action in out["all"]] == [
        (1, 1, "new"), (1, 2, "add"), (1, 4, "edit"), (1, 5, "del")]
    assert out["all"][0][2] == {"op": "new", "rules": {"preset": "classic2000", "options": {}}}
    assert out["all"][2][2] == {"op": "edit", "i": 0, "deal": dict(
        {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}, points=90)}
    assert [seq for _, seq, _ in out["after_add"]] == [4, 5]
    assert out["none"] == [] and out["newest"] == 5


def test_the_action_folded_into_a_compaction_comes_back_from_its_base():
    out = run(160, 2, """
journal.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
bases = []
for points in range(60, 150, 10):  # the last base, then one more line
    journal.record({"op": "add", "deal": dict(DEAL, points=points)})
    copy = journal.copies[0]
    bases.append(copy.base_segment)
compacted = bases.index(max(bases)) + 2  # the seq of the add that wrote the newest base
print(json.dumps({"bases": bases, "compacted": compacted, "back": unsent.unsent(journal, compacted - 1)}))
""")
    assert max(out["bases"]) > 0  # the journal did compact
    back = out["back"]
    assert [seq for _, seq, _ in back] == [out["compacted"], out["compacted"] + 1]
    assert [action["deal"]["points"] for _, _, action in back] == list(range(60, 150, 10))[out["compacted"] - 2:]


def test_a_new_game_comes_back_with_its_rules_from_its_first_base():
    out = run(512, 32, """
journal.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
journal.record({"op": "add", "deal": DEAL})
journal.record({"op": "new", "rules": {"preset": "classic1000", "options": {}}, "result": {"NS": 182, "EW": 0}})
print(json.dumps({"back": unsent.unsent(journal, 2)}))
""")
    assert out["back"] == [[2, 3, {"op": "new", "rules": {"preset": "classic1000", "options": {}}}]]


def test_a_new_outbox_starts_at_the_journals_sequence_and_keeps_it():
    out = run(512, 32, """
from link.outbox import Outbox
journal.record({"op": "new", "rules": {"preset": "classic2000", "options": {}}})
journal.record({"op": "add", "deal": DEAL})
box = Outbox("/flash/link", "t01-aaaaaa", unsent.newest(journal))
journal.record({"op": "add", "deal": DEAL})
again = Outbox("/flash/link", "t01-aaaaaa", unsent.newest(journal))  # a reboot: "from" was kept
print(json.dumps({"first": [box.handed(), box.prev()], "again": [again.handed(), again.prev()],
                  "back": [seq for _, seq, _ in unsent.unsent(journal, again.handed())]}))
""")
    assert out["first"] == [2, 0]  # what came before provisioning is not reported; the chain starts at 0
    assert out["again"] == [2, 0] and out["back"] == [3]
