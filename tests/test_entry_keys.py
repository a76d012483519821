"""The keys of the contract and check-and-save steps on the real App
(MicroPython unix port, in-process): the coinche as a held BACK on the contract,
the card points by one on check-and-save (scored live, none on a capot), each team's
announces behind its hold (a three-way picker, fresh for each team), and BACK
from check-and-save back to the tens. The key planner and the held-out games
prove the rest through the simulator (tests/test_keys.py, tests/test_ui_games.py).
"""
import json

from conftest import run_mp

PLAY = """
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP, event

mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": "federation"})
out = {}

def key(button, kind=PRESS):
    app.handle(event(kind, button))
    app.render()

def look(name):
    v = app.view
    d = getattr(v, "draft", None)
    out[name] = {"screen": app.screen, "toast": app.toast_msg,
                 "bid": d and d.bid, "coinche": d and d.coinche, "points": d and d.takers_points(),
                 "melds": d and {"NS": list(d.melds["NS"]), "EW": list(d.melds["EW"])}, "belote": d and list(d.belote),
                 "score": getattr(v, "scored", None) and v.scored[0].score}
    app.toast_msg = None

key(UP)                       # NS took: the contract starts at 80
look("start")
key(BACK, LONG)               # coinche x2, then x4
look("x2")
key(BACK, LONG)
look("x4")
key(BACK, LONG)               # none again
key(BACK, LONG)               # x2
key(OK)                       # check and save: 80, the contract's figure
look("confirm")
key(DOWN)                     # 79, scored at once
look("down")
key(UP)
key(UP)
key(UP)                       # 80, 81, 82
look("up x3")
key(OK, LONG)                 # NS announces: a three-way screen
look("ns picker")
key(DOWN)                     # DOWN: a tierce
look("ns tierce")
key(BACK, LONG)               # EW announces: a fresh picker
look("ew picker")
key(OK, LONG)                 # held OK: a quarte
look("ew quarte")
key(BACK, LONG)
key(OK)                       # OK: the others, a list (quinte first)
look("ew list")
key(OK)                       # the quinte
look("ew quinte")
key(OK, LONG)
key(BACK)                     # BACK closes the picker: nothing added
look("closed")
key(BACK)                     # BACK: the tens, nothing lost
look("tens")
key(UP, LONG)                 # nothing for a held UP
for _ in range(9):
    key(UP)                   # tens 8 -> 16 -> capot (all tricks)
look("capot")
key(OK)
key(UP)                       # a capot has no units: a message, nothing changes
look("no units")
print(json.dumps(out))
"""


def test_contract_and_check_step_keys():
    out = json.loads(run_mp(code=PLAY).stdout.strip().splitlines()[-1])
    assert out["start"]["screen"] == "entry-bid" and out["start"]["bid"] == 80
    assert [out[k]["coinche"] for k in ("x2", "x4")] == [1, 2]
    c = out["confirm"]
    assert c["screen"] == "entry-confirm" and c["coinche"] == 1 and c["points"] == 80
    assert out["down"]["points"] == 79 and out["up x3"]["points"] == 82
    assert out["down"]["score"] != out["up x3"]["score"]  # scored live (failed at 79, made at 82)
    assert out["ns picker"]["screen"] == "entry-meld"
    assert out["ns tierce"]["screen"] == "entry-confirm" and out["ns tierce"]["melds"] == {"NS": ["tierce"], "EW": []}
    assert out["ew picker"]["screen"] == "entry-meld"
    assert out["ew quarte"]["melds"]["EW"] == ["quarte"]
    assert out["ew list"]["screen"] == "entry-meld-list"
    assert out["ew quinte"]["melds"]["EW"] == ["quarte", "quinte"]
    assert out["closed"]["screen"] == "entry-confirm" and out["closed"]["melds"] == out["ew quinte"]["melds"]
    t = out["tens"]
    assert t["screen"] == "entry-tens" and t["points"] == 82 and t["melds"] == out["closed"]["melds"]
    assert out["capot"]["points"] == 162
    n = out["no units"]
    assert n["screen"] == "entry-confirm" and n["toast"] and n["points"] == 162
