"""The table's side of the club link: tables running the real firmware on the unix port
(the simulator with --club: the device's link, its MQTT client and its outbox on the
simulated flash) through a real Mosquitto on 127.0.0.1, a TCP proxy and the
organiser's service, playing a concours round while faults are injected: the broker
killed with SIGKILL and restarted, the connection cut and stalled, a table's power
cut while its publish is on the wire, the same messages twice and out of order, the
service killed with SIGKILL while deals arrive. Afterwards every action is stored
exactly once, the stored deals are the device's, and the filed results are the
calculator's totals. The tests' scenarios run at the same time, each on a club of its
own (the `scenarios` fixture); each test reports its own."""
import contextlib
import json
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import paho.mqtt.client as mqtt
import pytest

from coinche.game import RunningScore
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.rigs import link_run
from host_tools.club.service import Club
from host_tools.common.script import GAP_MS, PRESS_MS, parse_script
from host_tools.sim import Sim
from host_tools.sim.concours import round_presses, start_round
from link import protocol, state
from link_proxy import Proxy
from screens.menu import Menu
from test_ui_games import plan_edit
from vectors import gen_valid
from waiting import until

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

PRESET = "classic2000"
DEALS = 6
RULES = Rules(PRESET, {"deals": DEALS})
# A device with a club link spends its granted time for real (the network answers in
# real time), so a held key takes its whole length on the wall clock: a random deal is
# keyed in 0.6 to 6 s, 3 s on average. The link carries whatever deal it is given; the
# quickest to key of a few random ones is played (2 s on average).
CANDIDATES = 3
STEP_MS = 100  # the time granted between two looks at the link's figures


def keying_ms(steps):
    """How long the keys of a script take on the device."""
    total = 0
    for step in steps:
        if step[1] == "press":
            total += PRESS_MS + GAP_MS
        elif step[1] == "hold":
            total += step[3] + GAP_MS
        elif step[1] == "wait":
            total += step[2]
    return total


def quick_deal(rnd):
    """A random valid deal, with its keys: the quickest to key of CANDIDATES."""
    keyed = []
    for _ in range(CANDIDATES):
        record = gen_valid(RULES, rnd)
        keyed.append((record, parse_script(plan(RULES, [record])[0])))
    return min(keyed, key=lambda pair: keying_ms(pair[1]))


def run_together(devices, ms):
    """Let the devices' time (and their links) run for ms, for real, all at once (a
    device granted no time stands still, its link with it)."""
    for device in devices:
        device.sim.wait(ms)
        device.sim.flush()
    for device in devices:
        device.sim.sync()


def run_until(devices, check, what, timeout=40):
    """Run the devices together until check(link's figures) holds for each; those figures."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        run_together(devices, STEP_MS)
        links = [device.link() for device in devices]
        if all(check(link) for link in links):
            return links
    raise AssertionError("%s: %s" % (what, {device.number: device.link() for device in devices}))


def settle(devices):
    """Run the devices until each one's outbox is empty (everything acknowledged)."""
    return run_until(devices, lambda link: link["state"] == state.ONLINE and link["pending"] == 0,
                     "outbox not acknowledged")


def deal_together(devices):
    """One deal keyed on each device at the same time."""
    for device in devices:
        device.key_deal()
    run_together(devices, 100)


def start_rounds(devices, wanted):
    """Each device pressed into its round (wanted: (round, table, NS, EW) by device) through
    Menu > Concours, all at once (host_tools.sim.concours.start_round, for several)."""
    for device in devices:
        shown = device.sim.state()
        device.send([(0, "press", button) for button in
                     round_presses(shown["screen"], shown["settings"], wanted[device.number], shown)])
    for device in devices:
        held = device.sim.state()["concours"]
        assert (held["round"], held["table"], held["teams"]["NS"], held["teams"]["EW"]) == wanted[device.number]


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
        run_together([self], ms)

    def settle(self):
        return settle([self])[0]

    def send(self, steps):
        """Queue a script's keys (parsed steps) without waiting for the device."""
        self.sim.send_script(steps)

    def key_deal(self):
        """The keys of a new deal sent (not waited for); it counts in the table's score."""
        record, steps = quick_deal(self.rnd)
        self.score.add(record)
        self.send(steps)

    def deal(self):
        deal_together([self])

    def cut_after(self, presses, op=None):
        """The keys of one action, the power cut right after the journal saved it: the
        link had no poll to hand it to its outbox."""
        self.sim.cut_after_save(presses, op)
        self.sim.close()
        self.sim = None

    def cut_deal(self):
        self.cut_after(quick_deal(self.rnd)[1], "add")

    def power_cut(self):
        self.sim.kill()
        self.sim.close()
        self.sim = None


COMMANDS = threading.Lock()  # the club's command line swaps sys.stdin: one command at a time


def club_command(db, *argv, stdin=None):
    with COMMANDS:
        return link_run.club(db, *argv, stdin=stdin)


@contextlib.contextmanager
def running_club(folder):
    """An event of 4 teams with its 2 tables provisioned, its broker and service
    started: (db, broker, service, proxy, devices, folder); devices is for the
    scenario's tables, killed at the end."""
    with COMMANDS:
        db = link_run.make_event(folder, 4, 1, DEALS)
    broker_port, web_port = link_run.free_port(), link_run.free_port()
    proxy = Proxy(broker_port)
    with COMMANDS:
        link_run.provision_tables(db, 2, proxy.port)  # the tables reach the broker through the proxy
    broker = link_run.broker_process(db, broker_port).start()
    service = link_run.service_process(db, broker_port, web_port).start()
    devices = []
    try:
        yield db, broker, service, proxy, devices, folder
    finally:
        for device in devices:
            if device.sim is not None:
                device.sim.kill()
                device.sim.close()
        proxy.close()
        service.stop()
        broker.stop()


def play(scenario, folder):
    with running_club(folder) as club:
        scenario(club)


@pytest.fixture(scope="module")
def scenarios(request, tmp_path_factory):
    """What each selected test's scenario ended with (None, or what it raised), all of
    them run at once, each on its own club (broker, service, proxy, event): a table's
    time runs for real here, so each one mostly waits on the wall clock, and their
    waits overlap rather than add up."""
    names = [item.name[len("test_"):] for item in request.session.items
             if item.module is request.module and item.name[len("test_"):] in SCENARIOS]
    with ThreadPoolExecutor(len(names) or 1) as pool:
        running = {name: pool.submit(play, SCENARIOS[name], str(tmp_path_factory.mktemp(name)))
                   for name in names}
        return {name: future.exception() for name, future in running.items()}


def outcome_of(scenarios, name):
    failure = scenarios[name]
    if failure is not None:
        raise failure


def replay(config, port, payloads):
    """The table's stored messages published again by a client holding its credentials
    (and so its client id, the only one the broker lets that user in with)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=config["device"], protocol=mqtt.MQTTv311)
    client.username_pw_set(config["mqtt"]["user"], config["mqtt"]["password"])
    client.connect("127.0.0.1", port, keepalive=10)
    client.loop_start()
    try:
        for payload in payloads:
            client.publish(protocol.topic(config["device"], "up"), payload, qos=1).wait_for_publish(5)
    finally:
        client.disconnect()
        client.loop_stop()


def real_firmware_tables_play_a_round_through_faults(club):
    db, broker, service, proxy, devices, folder = club
    drawn = club_command(db, "draw")
    devices.extend(Device(str(folder), number, seed=number).boot() for number in (1, 2))
    wanted = {}
    for device, link in zip(devices, run_until(devices, lambda link: link["draw"] is not None, "no draw")):
        assert link["draw"]["round"] == 1 and link["draw"]["table"] == device.number  # the draw reached it
        seat = drawn["tables"][device.number - 1]
        assert link["draw"]["teams"] == {"NS": seat["NS"], "EW": seat["EW"]}
        wanted[device.number] = (1, device.number, seat["NS"], seat["EW"])
        shown = device.sim.state()
        # Menu > Concours offers the drawn round on its start row: OK, then OK to its question
        assert round_presses(shown["screen"], shown["settings"], wanted[device.number], shown) == (
            ["OK"] + ["UP"] * (len(Menu.ITEMS) - Menu.ITEMS.index("m_concours")) + ["OK", "OK", "OK"])
    start_rounds(devices, wanted)
    deal_together(devices)
    settle(devices)

    # the broker killed with SIGKILL mid-round: a deal played while it is down, then caught up
    broker.kill()
    deal_together(devices)
    for device in devices:
        assert device.link()["pending"] >= 1
    broker.start()
    settle(devices)

    # every connection cut, then stalled (bytes held, nothing closed)
    proxy.cut()
    devices[0].deal()
    proxy.stall()
    devices[1].deal()
    devices[1].run(1500)
    proxy.resume()
    settle(devices)

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
    deal_together(devices)
    service.start()
    while any(device.score.count < DEALS for device in devices):
        deal_together([device for device in devices if device.score.count < DEALS])
    settle(devices)
    for device in devices:
        assert device.sim.state()["over"]
    until(lambda: len(filed(db)) == 2, 20, "the round's results filed")

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


def filed(db):
    with Club(db) as opened:
        return opened.store.results()


def joined(club, number=1):
    """One table booted, joined to the club, with the draw of round 1: (device, its round)."""
    db, _, _, _, devices, folder = club
    drawn = club_command(db, "draw")
    device = Device(str(folder), number, seed=number).boot()
    devices.append(device)
    run_until([device], lambda link: link["draw"] is not None, "no draw")
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


def a_power_cut_right_after_a_save_still_reports_it_once(club):
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


def a_power_cut_after_deals_the_broker_never_got_loses_none(club):
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


def a_power_cut_right_after_an_edit_or_an_undo_reports_it_once(club):
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


SCENARIOS = {scenario.__name__: scenario for scenario in (
    real_firmware_tables_play_a_round_through_faults, a_power_cut_right_after_a_save_still_reports_it_once,
    a_power_cut_after_deals_the_broker_never_got_loses_none,
    a_power_cut_right_after_an_edit_or_an_undo_reports_it_once)}


def test_real_firmware_tables_play_a_round_through_faults(scenarios):
    outcome_of(scenarios, "real_firmware_tables_play_a_round_through_faults")


def test_a_power_cut_right_after_a_save_still_reports_it_once(scenarios):
    outcome_of(scenarios, "a_power_cut_right_after_a_save_still_reports_it_once")


def test_a_power_cut_after_deals_the_broker_never_got_loses_none(scenarios):
    outcome_of(scenarios, "a_power_cut_after_deals_the_broker_never_got_loses_none")


def test_a_power_cut_right_after_an_edit_or_an_undo_reports_it_once(scenarios):
    outcome_of(scenarios, "a_power_cut_right_after_an_edit_or_an_undo_reports_it_once")
