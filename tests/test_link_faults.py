"""A concours played by light tables (host_tools/rigs/light_table.py, the device's
protocol) through a real Mosquitto on 127.0.0.1 and the organiser's service, while
faults are injected: the broker killed with SIGKILL and started again mid-round, the
connection cut and stalled (a proxy), the same messages delivered twice and out of
order, the service killed with SIGKILL while a burst arrives, a table rebooted with
its outbox, forged and malformed messages. Afterwards the standings are the
calculator's totals and every action is stored exactly once."""
import json
import random
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from coinche.game import RunningScore
from coinche.rules import Rules
from host_tools.rigs import link_run
from host_tools.rigs.light_table import LightTable, simple_deal
from host_tools.club.service import Club
from link import protocol
from link_proxy import Proxy
from waiting import until

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

TEAMS = 8
DEALS = 12
RULES = Rules("classic2000", {"deals": DEALS})


def raw_client(config, port):
    """A client with a table's own credentials, to put exact bytes on the wire. The
    broker lets that user in with its own client id only: while it is connected, the
    table itself is not (publish_as: connect, publish, leave)."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=config["device"], protocol=mqtt.MQTTv311)
    client.username_pw_set(config["mqtt"]["user"], config["mqtt"]["password"])
    client.connect("127.0.0.1", port, keepalive=10)
    client.loop_start()
    until(client.is_connected, 10, "the raw client to connect")
    return client


def publish_as(config, port, messages):
    """Publishes [(topic, payload)] with a table's credentials, then disconnects. The
    table, reconnecting, takes its client id back and closes this connection: what
    was not acknowledged then goes again on a new one (the service stores each once)."""
    waiting = list(messages)
    for _ in range(10):
        client = raw_client(config, port)
        try:
            while waiting:
                info = client.publish(*waiting[0], qos=1)
                info.wait_for_publish(5)
                if not info.is_published():
                    break
                waiting.pop(0)
        except RuntimeError:  # closed by the table's own connection
            pass
        finally:
            client.disconnect()
            client.loop_stop()
        if not waiting:
            return
    raise AssertionError("%d messages not published in 10 connections" % len(waiting))


class Table:
    """A light table and what it played: the calculator's totals of its round."""

    def __init__(self, config, port, seed):
        self.config = config
        self.port = port
        self.link = LightTable(config, port=port, seq_start=100 * config["table"], seed=seed)
        self.rnd = random.Random(seed)
        self.scores = {}  # round -> the calculator's RunningScore of its deals
        self.score = None
        self.recorded = []

    def start_round(self, round_number, teams):
        self.score = self.scores[round_number] = RunningScore(RULES)
        self.recorded.append(self.link.new_round("classic2000", DEALS, round_number, self.config["table"], teams))

    def deal(self):
        record = simple_deal(RULES, self.rnd)
        self.score.add(record)
        self.recorded.append(self.link.add(record))

    def reboot(self):
        """A power cut: the client gone without a goodbye, then a new one with the same outbox (the journal)."""
        old = self.link
        old.stopping.set()
        old.client.loop_stop()
        sock = old.client.socket()
        if sock is not None:
            sock.close()
        new = LightTable(self.config, port=self.port, seed=0)
        with old.lock:
            new.outbox, new.acked, new.seq, new.prev, new.game = list(old.outbox), old.acked, old.seq, old.prev, old.game
        new.rnd = old.rnd
        self.link = new
        new.start()


@pytest.fixture
def concours(tmp_path):
    db = link_run.make_event(tmp_path, TEAMS, 2, DEALS)
    broker_port, web_port = link_run.free_port(), link_run.free_port()
    configs = link_run.provision_tables(db, TEAMS // 2, broker_port)
    broker = link_run.broker_process(db, broker_port).start()
    service = link_run.service_process(db, broker_port, web_port).start()
    proxy = Proxy(broker_port)
    tables = [Table(c, proxy.port, seed=c["table"]) for c in configs]
    clients = []
    try:
        yield db, broker, service, proxy, tables, clients, web_port
    finally:
        for table in tables:
            table.link.stop()
        for client in clients:
            client.loop_stop()
        proxy.close()
        service.stop()
        broker.stop()


def all_acked(tables):
    return all(not t.link.outbox for t in tables)


def test_fault_injected_concours(concours):
    db, broker, service, proxy, tables, clients, web_port = concours
    drawn = link_run.club(db, "draw")
    for table in tables:
        table.link.start()
    until(lambda: all(t.link.draw and t.link.draw["round"] == 1 for t in tables), 20, "round 1's draw on every table")
    for table in tables:
        seat = table.link.draw
        assert {"NS": seat["teams"]["NS"], "EW": seat["teams"]["EW"]} == {
            "NS": drawn["tables"][table.config["table"] - 1]["NS"], "EW": drawn["tables"][table.config["table"] - 1]["EW"]}
        table.start_round(1, seat["teams"])
    for _ in range(3):
        for table in tables:
            table.deal()
    until(lambda: all_acked(tables), 20, "the first deals acknowledged")

    # the broker killed mid-round: the tables keep playing, then catch up
    broker.kill()
    for _ in range(2):
        for table in tables:
            table.deal()
    broker.start()
    until(lambda: all_acked(tables), 30, "the deals played while the broker was down")
    assert "Permission denied" not in broker.log()

    # the connection cut, then stalled
    for table in tables:
        table.deal()
    proxy.cut()
    for table in tables:
        table.deal()
    proxy.stall()
    for table in tables:
        table.deal()
    time.sleep(1.5)
    proxy.resume()
    until(lambda: all_acked(tables), 30, "the deals sent through a cut and a stall")
    assert proxy.cuts == 1

    # the same messages twice and out of order, on the table's own topic
    first = tables[0]
    with Club(db) as opened:
        stored = [row["body"] for row in opened.store.actions(first.config["device"])]
    payloads = [protocol.sign(bytes.fromhex(first.config["key"]), json.loads(body)) for body in stored]
    payloads = payloads + payloads
    random.Random(1).shuffle(payloads)
    publish_as(first.config, broker.port, [(protocol.topic(first.config["device"], "up"), p) for p in payloads])

    # the service killed while a burst arrives, and a table rebooted mid-burst
    for table in tables:
        table.deal()
    service.kill()
    tables[1].reboot()
    for table in tables:
        table.deal()
    service.start()
    for _ in range(DEALS - 10):
        for table in tables:
            table.deal()
    until(lambda: all_acked(tables), 40, "round 1 acknowledged after the service came back")
    until(lambda: len(Club(db).store.results()) == len(tables), 10, "round 1's results filed")

    # round 2: the draw goes out, forged and malformed messages come in
    second = link_run.club(db, "draw")
    until(lambda: all(t.link.draw and t.link.draw["round"] == 2 for t in tables), 20, "round 2's draw")
    moves = tables[0].link.draw["next"]
    seats = {t["table"]: t for t in drawn["tables"]}
    where = {team: t["table"] for t in second["tables"] for team in (t["NS"], t["EW"])}
    assert moves["NS"] == {"team": seats[1]["NS"], "table": where[seats[1]["NS"]]}
    for table in tables:
        table.start_round(2, table.link.draw["teams"])
    key = bytes.fromhex(first.config["key"])
    other = tables[1].config
    up = protocol.topic(first.config["device"], "up")
    bad = [
        (up, protocol.sign(bytes.fromhex(other["key"]), protocol.action_body(first.config["device"], 9, 9000, {"op": "new", "rules": {}}, 0))),
        (up, b'{"v":1,"device":"%s","game":9,"seq":9001,"prev":0,"action":{"op":"add"}}' % first.config["device"].encode()),
        (up, b"0" * 64 + b" " + b"x" * 2000),
        (up, protocol.sign(key, {"v": 1, "device": first.config["device"], "game": "x"})),
        (up, protocol.sign(key, protocol.action_body(other["device"], 9, 9002, {"op": "add", "deal": {}}, 0))),
    ]
    for _ in range(DEALS // 2):
        for table in tables:
            table.deal()
        if bad:
            publish_as(first.config, broker.port, [bad.pop()])
    until(lambda: all_acked(tables), 30, "half of round 2 acknowledged")
    shown = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/projector.json" % web_port, timeout=10).read())
    halfway = {"counted": DEALS // 2, "deals": DEALS}
    assert sum(1 for t in shown["current"]["tables"] if t["live"] and halfway.items() <= t["live"].items()) \
        == len(tables), shown
    # the ACL: a table publishing as another is dropped by the broker
    publish_as(first.config, broker.port, [(protocol.topic(other["device"], "up"), protocol.sign(
        key, protocol.action_body(other["device"], 9, 9003, {"op": "add", "deal": {}}, 0)))])
    for _ in range(DEALS - DEALS // 2):
        for table in tables:
            table.deal()
    until(lambda: all_acked(tables), 40, "round 2 acknowledged")
    until(lambda: len(Club(db).store.results()) == 2 * len(tables), 10, "round 2's results filed")

    # every action once, the standings the calculator's
    with Club(db) as opened:
        for table in tables:
            stored = [(row["game"], row["seq"]) for row in opened.store.actions(table.config["device"])]
            assert sorted(seq for _, seq in stored) == sorted(table.recorded)
            assert len(set(stored)) == len(stored)
        standings = opened.standings()
        results = opened.store.results()
    expected = {n: [0, 0] for n in range(1, TEAMS + 1)}
    for round_number, draw in ((1, drawn), (2, second)):
        for seat in draw["tables"]:
            score = tables[seat["table"] - 1].scores[round_number]
            assert score.over
            assert (results[(round_number, seat["table"])]["NS"], results[(round_number, seat["table"])]["EW"]) == (
                score.total["NS"], score.total["EW"])
            expected[seat["NS"]][0] += score.total["NS"]
            expected[seat["NS"]][1] += score.total["EW"]
            expected[seat["EW"]][0] += score.total["EW"]
            expected[seat["EW"]][1] += score.total["NS"]
    assert {row["team"]: [row["points_for"], row["points_against"]] for row in standings["ranking"]} == expected
    log = service.log()
    assert log.count("link: refused") >= 5, log[-3000:]
    for reason in ("wrong signature", "no signature", "oversized", "forged", "malformed"):
        assert reason in log, reason
    assert "refused %s: wrong signature" % other["device"] not in log  # the ACL dropped it: never seen
    denied = "acl: the broker denied a publish on %s" % protocol.topic(other["device"], "up")
    until(lambda: denied in service.log(), 10, "the broker's denial read from its log (every second)")
    assert "link: duplicate" in log
    live = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/live.json" % web_port, timeout=10).read())
    assert sorted(row["table"] for row in live["tables"]) == [t.config["table"] for t in tables]
    assert all(row["round"] == 2 and row["counted"] == DEALS and row["over"] for row in live["tables"])
