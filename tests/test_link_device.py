"""The table's side of the club link: tables running the real firmware on the unix port
(the simulator with --club: the device's link, its MQTT client and its outbox on the
simulated flash) through a real Mosquitto on 127.0.0.1, a TCP proxy and the
organiser's service, playing a concours round while faults are injected: the broker
killed with SIGKILL and restarted, the connection cut and stalled, a table's power
cut while its publish is on the wire, the same messages twice and out of order, the
service killed with SIGKILL while deals arrive. Afterwards every action is stored
exactly once, the stored deals are the device's, and the filed results are the
calculator's totals."""
import json
import os
import random
import time

import paho.mqtt.client as mqtt
import pytest

from coinche.game import RunningScore
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.club import link_run
from host_tools.club.service import Club
from host_tools.sim import Sim
from host_tools.sim.concours import round_presses, start_round
from link import protocol, state
from link_proxy import Proxy
from screens.menu import Menu
from test_ui_games import plan_edit
from vectors import gen_valid

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

PRESET = "classic2000"
DEALS = 6
RULES = Rules(PRESET, {"deals": DEALS})


def until(check, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError("timed out after %ss waiting for %s" % (timeout, what))


class Device:
    """A simulated table joined to the club: its flash kept across power cuts."""

    def __init__(self, folder, number, seed):
        self.number = number
        self.club_path = os.path.join(folder, "table%d.json" % number)
        with open(self.club_path, encoding="utf-8") as f:
            self.config = json.load(f)
        self.flash = os.path.join(folder, "flash%d.img" % number)
        self.rnd = random.Random(seed)
        self.score = RunningScore(RULES)
        self.sim = None

    def boot(self):
        self.sim = Sim(rules=PRESET, options={"deals": DEALS}, flash=self.flash, club=self.club_path, timeout=60)
        return self

    def link(self):
        return self.sim.state()["link"]

    def run(self, ms):
        """Let the device's time (and the link) run for ms, for real."""
        self.sim.wait(ms)
        self.sim.sync()

    def run_until(self, check, what, timeout=40):
        """Run the device until check(its link's figures) holds; those figures."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.run(300)
            link = self.link()
            if check(link):
                return link
        raise AssertionError("table %d: %s: %s" % (self.number, what, self.link()))

    def settle(self):
        """Run the device until its outbox is empty (everything acknowledged)."""
        return self.run_until(lambda link: link["state"] == state.ONLINE and link["pending"] == 0,
                              "outbox not acknowledged")

    def deal(self):
        record = gen_valid(RULES, self.rnd)
        self.score.add(record)
        self.sim.run_script(plan(RULES, [record])[0])
        self.run(100)

    def cut_after(self, presses, op=None):
        """The keys of one action, the power cut right after the journal saved it: the
        link had no poll to hand it to its outbox."""
        self.sim.cut_after_save(presses, op)
        self.sim.close()
        self.sim = None

    def cut_deal(self):
        self.cut_after(plan(RULES, [gen_valid(RULES, self.rnd)])[0], "add")

    def power_cut(self):
        self.sim.kill()
        self.sim.close()
        self.sim = None


@pytest.fixture
def club(tmp_path):
    db = link_run.make_event(tmp_path, 4, 1, DEALS)
    broker_port, web_port = link_run.free_port(), link_run.free_port()
    proxy = Proxy(broker_port)
    link_run.provision_tables(db, 2, proxy.port)  # the tables reach the broker through the proxy
    broker = link_run.broker_process(db, broker_port).start()
    service = link_run.service_process(db, broker_port, web_port).start()
    devices = []
    try:
        yield db, broker, service, proxy, devices, tmp_path
    finally:
        for device in devices:
            if device.sim is not None:
                device.sim.kill()
                device.sim.close()
        proxy.close()
        service.stop()
        broker.stop()


def replay(config, port, payloads):
    """The table's stored messages published again by a client holding its credentials."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="replayer", protocol=mqtt.MQTTv311)
    client.username_pw_set(config["mqtt"]["user"], config["mqtt"]["password"])
    client.connect("127.0.0.1", port, keepalive=10)
    client.loop_start()
    try:
        for payload in payloads:
            client.publish(protocol.topic(config["device"], "up"), payload, qos=1).wait_for_publish(5)
    finally:
        client.disconnect()
        client.loop_stop()


def test_real_firmware_tables_play_a_round_through_faults(club):
    db, broker, service, proxy, devices, folder = club
    drawn = link_run.club(db, "draw")
    devices.extend(Device(str(folder), number, seed=number).boot() for number in (1, 2))
    for device in devices:
        link = device.run_until(lambda link: link["draw"] is not None, "no draw")
        assert link["draw"]["round"] == 1 and link["draw"]["table"] == device.number  # the draw reached it
        seat = drawn["tables"][device.number - 1]
        assert link["draw"]["teams"] == {"NS": seat["NS"], "EW": seat["EW"]}
        wanted = (1, device.number, seat["NS"], seat["EW"])
        shown = device.sim.state()
        # Menu > Concours offers the drawn round: OK on each value, nothing to change
        assert round_presses(shown["screen"], shown["settings"], wanted, shown) == (
            ["OK"] + ["DOWN"] * Menu.ITEMS.index("m_concours") + ["OK", "DOWN", "DOWN", "DOWN", "DOWN", "OK"])
        start_round(device.sim, wanted)
        device.deal()
    for device in devices:
        device.settle()

    # the broker killed with SIGKILL mid-round: a deal played while it is down, then caught up
    broker.kill()
    for device in devices:
        device.deal()
        assert device.link()["pending"] >= 1
    broker.start()
    for device in devices:
        device.settle()

    # every connection cut, then stalled (bytes held, nothing closed)
    proxy.cut()
    devices[0].deal()
    proxy.stall()
    devices[1].deal()
    devices[1].run(1500)
    proxy.resume()
    for device in devices:
        device.settle()

    # a power cut while the table's publish is on the wire: held in the stalled proxy,
    # the table killed, the connection dropped with the bytes; the table boots again
    first = devices[0]
    proxy.stall()
    first.deal()
    first.run(500)
    assert first.link()["pending"] == 1
    first.power_cut()
    proxy.cut()
    proxy.resume()
    first.boot()
    assert first.link()["pending"] == 1  # the outbox came back from the flash
    first.settle()

    # the same messages twice and out of order, on the table's own topic
    with Club(db) as opened:
        stored = [row["body"] for row in opened.store.actions(first.config["device"])]
    key = bytes.fromhex(first.config["key"])
    payloads = [protocol.sign(key, json.loads(body)) for body in stored] * 2
    random.Random(1).shuffle(payloads)
    replay(first.config, broker.port, payloads)

    # the service killed with SIGKILL while a deal arrives, started again
    service.kill()
    for device in devices:
        device.deal()
    service.start()
    for device in devices:
        while device.score.count < DEALS:
            device.deal()
    for device in devices:
        device.settle()
        assert device.sim.state()["over"]
    until(lambda: len(Club(db).store.results()) == 2, 20, "the round's results filed")

    with Club(db) as opened:
        results = opened.store.results()
        for device in devices:
            rows = opened.store.actions(device.config["device"])
            ids = [(row["game"], row["seq"]) for row in rows]
            assert len(ids) == len(set(ids)) == DEALS + 1  # the round's "new" and each deal, once
            bodies = [json.loads(row["body"]) for row in rows]
            adds = [body["action"]["deal"] for body in sorted(bodies, key=lambda b: b["seq"])
                    if body["action"]["op"] == "add"]
            assert adds == device.sim.state()["deals"]  # what the table holds, as it holds it
            result = results[(1, device.number)]
            assert (result["NS"], result["EW"]) == (device.score.total["NS"], device.score.total["EW"])
    log = service.log()
    assert "link: duplicate" in log


def joined(club, number=1):
    """One table booted, joined to the club, with the draw of round 1: (device, its round)."""
    db, _, _, _, devices, folder = club
    drawn = link_run.club(db, "draw")
    device = Device(str(folder), number, seed=number).boot()
    devices.append(device)
    device.run_until(lambda link: link["draw"] is not None, "no draw")
    seat = drawn["tables"][number - 1]
    return device, (1, number, seat["NS"], seat["EW"])


def organiser_deals(rows):
    """The deals of the last game the organiser holds: its stored actions, in order."""
    deals = []
    for body in sorted((json.loads(row["body"]) for row in rows), key=lambda body: body["seq"]):
        action = body["action"]
        if action["op"] == "new":
            deals = []
        elif action["op"] == "add":
            deals.append(action["deal"])
        elif action["op"] == "edit":
            deals[action["i"]] = action["deal"]
        elif action["op"] == "del":
            deals.pop(action["i"])
    return deals


def stored_once(db, device):
    """The device's stored actions, each id once, and what they replay to is what the
    device holds: the ops, in order."""
    with Club(db) as opened:
        rows = opened.store.actions(device.config["device"])
    ids = [(row["game"], row["seq"]) for row in rows]
    assert len(ids) == len(set(ids))
    assert organiser_deals(rows) == device.sim.state()["deals"]
    return [json.loads(row["body"])["action"]["op"] for row in sorted(rows, key=lambda row: row["seq"])]


def test_a_power_cut_right_after_a_save_still_reports_it_once(club):
    db = club[0]
    device, wanted = joined(club)
    shown = device.sim.state()
    device.cut_after(round_presses(shown["screen"], shown["settings"], wanted, shown), "new")
    device.boot()
    assert device.sim.state()["concours"]["round"] == 1  # the journal kept the round's start
    device.settle()
    assert stored_once(db, device) == ["new"]  # its report, rebuilt from the journal
    device.deal()
    device.settle()
    device.cut_deal()
    device.boot()
    device.settle()
    assert stored_once(db, device) == ["new", "add", "add"]


def test_a_power_cut_after_deals_the_broker_never_got_loses_none(club):
    db, broker = club[0], club[1]
    device, wanted = joined(club)
    start_round(device.sim, wanted)
    device.settle()
    broker.kill()
    device.deal()
    device.deal()
    assert device.link()["pending"] == 2  # in the outbox file, the broker away
    device.cut_deal()  # the third one only in the journal
    broker.start()
    device.boot()
    device.settle()
    assert stored_once(db, device) == ["new", "add", "add", "add"]


def test_a_power_cut_right_after_an_edit_or_an_undo_reports_it_once(club):
    db = club[0]
    device, wanted = joined(club)
    start_round(device.sim, wanted)
    for _ in range(3):
        device.deal()
    device.settle()
    old = device.sim.state()["deals"][1]
    rnd = random.Random(7)
    new = gen_valid(RULES, rnd)
    while new == old:
        new = gen_valid(RULES, rnd)
    history = ["OK", "DOWN", "OK", "UP", "OK"]  # menu > History (the last deal) > deal 2 > its menu
    device.cut_after(history + plan_edit(RULES, old, new), "edit")
    device.boot()
    assert device.sim.state()["deals"][1] != old
    device.settle()
    assert stored_once(db, device) == ["new", "add", "add", "add", "edit"]
    device.cut_after(["BACK", "OK"], "del")  # undo the last deal
    device.boot()
    assert len(device.sim.state()["deals"]) == 2
    device.settle()
    assert stored_once(db, device) == ["new", "add", "add", "add", "edit", "del"]
