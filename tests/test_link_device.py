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
