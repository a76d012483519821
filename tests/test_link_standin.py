"""The stand-in for the network that the link's device-time bench uses on the emulated
RP2040 (host_tools/mp/broker_standin.py), checked on the unix port: through it the
real link connects, publishes, is cut and reconnects, times out while it is silent,
and every action ends acknowledged by the (stood-in) organiser's signed acks."""
import json

from conftest import HOST_MP, run_mp

TABLE = """
import json, sys
sys.path.insert(0, %r)
from blockdev import RAMBlockDev, mount
from fakeboard import Board
import broker_standin
mount(RAMBlockDev(4096, 352), "/flash")
with open("/flash/club.json", "w") as f:
    json.dump({"v": 1, "wifi": {"ssid": "Club", "password": "club-wifi-pass"},
               "broker": {"host": "10.0.0.2", "port": 1883}, "device": "t01-abcdef", "table": 1,
               "mqtt": {"user": "t01-abcdef", "password": "x"}, "key": "11" * 32}, f)
board = Board()
board.WIFI = True
board.HOST_NETWORK = True
board.CLUB_FILE = "/flash/club.json"
broker_standin.load("/flash/club.json", board.ticks_ms)
sys.modules["socket"] = broker_standin
from app import App
app = App(board, {"rules": "classic2000"})
states = []
for step in range(3000):  # 30 s of the board's time: every phase of the stand-in
    board.now += 10
    app.poll()
    if step %% 100 == 50:
        app.table.save_deal({"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}, None)
    state = app.club.figures()["state"]
    if not states or states[-1] != state:
        states.append(state)
for step in range(1500):  # then answering again long enough to catch up
    board.now += 10
    app.poll()
figures = app.club.figures()
print(json.dumps({"counts": broker_standin.counts, "states": states, "pending": figures["pending"],
                  "connects": figures["connects"], "deals": len(app.game.deals)}))
"""


def test_the_link_runs_through_the_standin_and_every_action_is_acknowledged():
    out = json.loads(run_mp(TABLE % HOST_MP).stdout.strip().splitlines()[-1])
    counts = out["counts"]
    assert out["deals"] >= 10 and out["pending"] == 0  # all acknowledged (the game ends at its target)
    assert counts["phases"] == 4 and counts["drops"] >= 1 and counts["ignored"] >= 1
    assert counts["connects"] == out["connects"] >= 3  # a reconnect after the cut and after the silence
    assert counts["acks"] == counts["publishes"] >= out["deals"]
    assert 1 in out["states"] and 2 in out["states"]  # connecting and online, in turn
