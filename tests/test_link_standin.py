"""The stand-in for the network that the link's device-time bench uses on the emulated
RP2040 (host_tools/rigs/device_side/broker_standin.py), checked on the unix port: through it the
real link connects, publishes, is cut and reconnects, times out while it is silent,
and every action ends acknowledged by the (stood-in) organiser's signed acks."""
import json

import pytest
from conftest import run_mp
from host_tools.common.paths import RIGS_DEVICE

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


@pytest.fixture(scope="module")
def through_standin():
    """One run of 45 s of the board's time through every phase of the stand-in (a run is
    half a minute of the unix port: the situations below read the same run)."""
    return json.loads(run_mp(TABLE % RIGS_DEVICE).stdout.strip().splitlines()[-1])


def test_through_the_standin_the_link_connects_and_goes_online(through_standin):
    assert through_standin["states"][:2] == [1, 2]  # connecting, then online
    assert through_standin["counts"]["connects"] >= 1


def test_the_standin_acknowledges_every_published_action(through_standin):
    counts = through_standin["counts"]
    assert through_standin["deals"] >= 10 and through_standin["pending"] == 0  # the game ends at its target
    assert counts["acks"] == counts["publishes"] >= through_standin["deals"]


def test_a_connection_the_standin_closes_is_reconnected(through_standin):
    counts = through_standin["counts"]
    assert counts["drops"] >= 1
    assert counts["connects"] == through_standin["connects"] >= 2


def test_while_the_standin_is_silent_the_link_times_out_and_comes_back(through_standin):
    counts = through_standin["counts"]
    assert counts["phases"] == 4 and counts["ignored"] >= 1
    assert counts["connects"] >= 3  # after the cut and after the silence
    assert through_standin["states"].count(2) >= 2  # online again after a time-out


ORDER = TABLE.split("from app import App")[0] + """
from app import App
app = App(board, {"rules": "classic2000"})
for step in range(200):  # online through the stand-in first
    board.now += 10
    app.poll()
order = []
render = app.render
link_poll = app.club.poll
def recorded_render():
    order.append("render")
    render()
def recorded_link_poll(app_now):
    order.append("link" if app.club.noted else "link-idle")
    link_poll(app_now)
app.render = recorded_render
app.club.poll = recorded_link_poll
app.table.save_deal({"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}, None)
app.dirty = True  # what the saving press leaves to draw
board.now += 10
app.poll()
print(json.dumps({"order": order, "state": app.club.figures()["state"]}))
"""


def test_a_saved_deal_is_drawn_before_the_link_signs_and_writes_it():
    """The poll that handled the saving press draws first, then gives the link its slice
    (signing the action, writing it to the outbox file): the press's pixels never wait
    for the link."""
    out = json.loads(run_mp(ORDER % RIGS_DEVICE).stdout.strip().splitlines()[-1])
    assert out["state"] == 2  # online through the stand-in
    assert out["order"] == ["render", "link"]
