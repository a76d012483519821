"""The link's edge, tried as an attacker holding one table's credentials would, with
a real Mosquitto as `broker` configures it and the organiser's service as `serve`
runs it, on 127.0.0.1: no table can pass for the organiser or another table, crowd
out another table's deals, file a round the event did not draw, be told an action
was kept that was not, or leave anything refused unlogged."""
import json
import math
import os
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from coinche.rules import Rules
from host_tools.rigs import link_run
from host_tools.rigs.light_table import LightTable
from host_tools.club.link_broker import service_password
from host_tools.club.service import Club
from host_tools.club.words import Words
from link import protocol
from screens.menu import Menu
from waiting import until

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

DEALS = 12
RULES = Rules("classic2000", {"deals": DEALS})
DEAL = {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}


class Site:
    """An event of 4 teams, round 1 drawn, 2 provisioned tables, the broker and the service."""

    def __init__(self, folder):
        self.db = link_run.make_event(folder, 4, 2, DEALS)
        self.port, self.web = link_run.free_port(), link_run.free_port()
        self.configs = link_run.provision_tables(self.db, 2, self.port)
        self.drawn = link_run.club(self.db, "draw")
        self.broker = link_run.broker_process(self.db, self.port).start()
        self.service = link_run.service_process(self.db, self.port, self.web)
        self.clients = []

    def start_service(self):
        before = self.service.log().count("link: connected") if os.path.exists(self.service.log_path) else 0
        self.service.start()
        until(lambda: self.service.log().count("link: connected") > before, 15, "the service to connect")
        time.sleep(0.5)  # its readers subscribe

    def seat(self, table):
        return next(t for t in self.drawn["tables"] if t["table"] == table)

    def stored(self, config):
        with Club(self.db) as opened:
            return [row["seq"] for row in opened.store.actions(config["device"])]

    def results(self):
        with Club(self.db) as opened:
            return opened.store.results()

    def live(self):
        return json.loads(urllib.request.urlopen("http://127.0.0.1:%d/live.json" % self.web, timeout=10).read())

    def client(self, user, password, client_id, clean=True, subscribe=None, inflight=20):
        """A connected client (its messages in .got), or an AssertionError."""
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                             protocol=mqtt.MQTTv311)
        client.max_inflight_messages_set(inflight)
        client.username_pw_set(user, password)
        client.got = []
        client.on_message = lambda c, u, message: client.got.append(message)
        if subscribe:
            client.on_connect = lambda c, u, f, reason, p: c.subscribe(subscribe, qos=1)
        client.connect("127.0.0.1", self.port, keepalive=10)
        client.loop_start()
        self.clients.append(client)
        until(client.is_connected, 10, "%s to connect" % client_id)
        return client

    def refused(self, user, password, client_id, clean=True):
        """The CONNACK's reason code of a connection the broker refuses (it closes it
        then), or an AssertionError when the broker lets it in."""
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean,
                             protocol=mqtt.MQTTv311)
        client.username_pw_set(user, password)
        answer = []
        client.on_connect = lambda c, u, f, reason, p: answer.append(reason)
        client.connect("127.0.0.1", self.port, keepalive=10)
        client.loop_start()
        try:
            until(lambda: answer, 10, "the broker's answer to %s as %s" % (user, client_id))
        finally:
            client.disconnect()
            client.loop_stop()
        assert answer[0].is_failure and "authori" in str(answer[0]), (user, client_id, answer[0])
        return answer[0]

    def table_refused(self, config, client_id, clean=True):
        return self.refused(config["mqtt"]["user"], config["mqtt"]["password"], client_id, clean)

    def secret(self):
        with Club(self.db) as opened:
            return service_password(opened)

    def as_table(self, config, client_id=None, clean=True, subscribe=None, inflight=20):
        return self.client(config["mqtt"]["user"], config["mqtt"]["password"], client_id or config["device"], clean,
                           subscribe, inflight)

    def close(self):
        for client in self.clients:
            client.disconnect()
            client.loop_stop()
        self.service.stop()
        self.broker.stop()


class Chain:
    """One table's journal actions, signed as the device signs them."""

    def __init__(self, config):
        self.config = config
        self.key = bytes.fromhex(config["key"])
        self.seq = self.prev = 0
        self.topic = protocol.topic(config["device"], "up")

    def message(self, action, game=1):
        self.seq += 1
        payload = protocol.sign(self.key, protocol.action_body(self.config["device"], game, self.seq, action, self.prev))
        self.prev = self.seq
        return payload

    def new(self, round_number, table, teams, deals=DEALS, preset="classic2000"):
        spec = Rules(preset, {"deals": deals}).spec()
        spec["dealer"] = "N"
        spec["concours"] = {"round": round_number, "table": table, "teams": teams}
        return self.message({"op": "new", "rules": spec})

    def deal(self, record=None):
        return self.message({"op": "add", "deal": dict(record or DEAL)})


def send(client, topic, payloads, retain=False):
    for payload in payloads:
        client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)


@pytest.fixture
def site(tmp_path):
    running = Site(tmp_path)
    try:
        yield running
    finally:
        running.close()


def test_a_table_cannot_take_the_organisers_session_or_clear_its_queue(site):
    site.start_service()
    first, second = site.configs
    organiser_ids = ("coinche-organiser", "organiser", "organiser-" + second["device"], "organiser-" + first["device"])
    for client_id in organiser_ids * 3:
        site.table_refused(first, client_id)
    time.sleep(0.5)
    assert "link: disconnected" not in site.service.log()
    # the service away: table 2's deals wait in its queue; table 1's credentials try to
    # take that queue over with a clean session, under every organiser's client id
    site.service.stop()
    chain = Chain(second)
    table = site.as_table(second)
    send(table, chain.topic, [chain.new(1, 2, {"NS": site.seat(2)["NS"], "EW": site.seat(2)["EW"]}),
                              chain.deal(), chain.deal(), chain.deal()])
    for client_id in organiser_ids:
        site.table_refused(first, client_id, clean=True)
    site.start_service()
    until(lambda: site.stored(second) == [1, 2, 3, 4], 15, "table 2's actions stored")


def test_a_table_cannot_kick_another_table_off(site):
    site.start_service()
    first, second = site.configs
    table = LightTable(second, seed=1)
    table.start()
    try:
        until(lambda: table.connects == 1, 10, "table 2 to connect")
        for _ in range(10):
            site.table_refused(first, second["device"])
        time.sleep(1.0)
        assert table.connects == 1 and table.client.is_connected()
    finally:
        table.stop()


def test_a_table_cannot_clear_what_is_queued_for_another_table(site):
    """Table 2 away with a persistent session, an acknowledgement queued for it at the
    broker: table 1's credentials with table 2's client id and a clean session are
    refused, and table 2 gets the acknowledgement when it comes back."""
    first, second = site.configs
    ack = protocol.topic(second["device"], "ack")
    table = site.as_table(second, clean=False, subscribe=ack)
    time.sleep(0.5)  # subscribed
    table.disconnect()
    table.loop_stop()
    organiser = site.client("organiser", site.secret(), "organiser")  # the service is not running
    payload = protocol.sign(bytes.fromhex(second["key"]), protocol.ack_body(second["device"], 1, 7))
    organiser.publish(ack, payload, qos=1).wait_for_publish(10)
    for clean in (True, False):
        site.table_refused(first, second["device"], clean=clean)
    table = site.as_table(second, clean=False)
    until(lambda: table.got, 10, "the queued acknowledgement")
    assert [m.payload for m in table.got] == [payload]


def test_the_organisers_users_connect_only_with_their_own_client_ids(site):
    first, second = site.configs
    secret = site.secret()
    reader = "organiser-" + first["device"]
    for user, client_id in ((reader, "organiser"), (reader, "organiser-" + second["device"]), (reader, first["device"]),
                            (reader, "x"), ("organiser", reader), ("organiser", "coinche-organiser")):
        site.refused(user, secret, client_id)
    for user in ("organiser", reader):
        site.client(user, secret, user)


def test_one_tables_flood_never_drops_another_tables_deal(site):
    site.start_service()
    site.service.stop()
    first, second = site.configs
    flooder = site.as_table(first, inflight=200)
    topic = protocol.topic(first["device"], "up")
    infos = [flooder.publish(topic, b"x", qos=1) for _ in range(10100)]
    for info in infos:
        info.wait_for_publish(120)
    chain = Chain(second)
    table = site.as_table(second)
    send(table, chain.topic, [chain.new(1, 2, {"NS": site.seat(2)["NS"], "EW": site.seat(2)["EW"]}),
                              chain.deal(), chain.deal(), chain.deal()])
    site.start_service()
    until(lambda: site.stored(second) == [1, 2, 3, 4], 60, "every action of table 2 stored once")


def test_a_round_the_event_did_not_set_is_never_filed(site):
    site.start_service()
    first, second = site.configs
    seat = site.seat(2)
    chain = Chain(second)
    table = site.as_table(second)
    send(table, chain.topic, [chain.new(1, 2, {"NS": seat["NS"], "EW": seat["EW"]}, deals=1), chain.deal()])
    until(lambda: site.stored(second) == [1, 2], 15, "the actions stored")
    until(lambda: "wrong set-up" in site.service.log(), 10, "the wrong set-up logged")
    time.sleep(0.5)
    assert site.results() == {}
    assert "1 deals, the event's rounds have 12" in site.service.log()
    row, = site.live()["tables"]
    assert row["table"] == 2 and row["problem"] == "wrong_setup"
    assert site.live()["refused"] == {"wrong_setup": 1}
    shown = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/projector.json" % site.web, timeout=10).read())
    assert Words(shown["lang"]).problem_wrong_setup.format(table=2) in shown["link"]["problems"]


def test_an_action_that_fails_while_filing_acknowledges_nothing_after_it(site):
    """The service away, table 2 sends a `new` whose teams are a list, then valid
    deals: they reach the service in one batch. No acknowledgement may cover an
    action that is not stored, and the chain goes on."""
    site.start_service()
    site.service.stop()
    first, second = site.configs
    chain = Chain(second)
    table = site.as_table(second, subscribe=protocol.topic(second["device"], "ack"))
    send(table, chain.topic, [chain.new(1, 2, [1, 2], deals=1), chain.deal(), chain.deal()])
    site.start_service()
    until(lambda: table.got, 15, "an acknowledgement")
    time.sleep(1.0)
    stored = site.stored(second)
    for message in table.got:
        acked = protocol.open_message(bytes.fromhex(second["key"]), message.payload)["seq"]
        assert all(seq in stored for seq in range(1, acked + 1)), (acked, stored)
    assert stored == [1, 2, 3]
    assert site.results() == {}


def test_deals_the_scoring_core_refuses_are_refused_each_time(site):
    site.start_service()
    first, second = site.configs
    seat = site.seat(2)
    chain = Chain(second)
    table = site.as_table(second)
    bad = [dict(DEAL, points=-50), dict(DEAL, points=10 ** 20), dict(DEAL, bid=85), dict(DEAL, points=math.inf)]
    send(table, chain.topic, [chain.new(1, 2, {"NS": seat["NS"], "EW": seat["EW"]})] +
         [chain.deal(record) for record in bad] + [chain.deal(), chain.deal()])
    until(lambda: len(site.stored(second)) == 7, 15, "the actions judged")
    until(lambda: site.service.log().count("refused deal") == 4, 10, "each refused deal logged")
    row, = site.live()["tables"]
    assert row["counted"] == 2 and row["problem"] == "refused_deal"  # the later valid deals are scored
    assert site.live()["refused"] == {"refused_deal": 4}
    shown = json.loads(urllib.request.urlopen("http://127.0.0.1:%d/projector.json" % site.web, timeout=10).read())
    assert Words(shown["lang"]).problem_refused_deal.format(table=2) in shown["link"]["problems"]


def test_acl_denials_and_oversized_packets_are_logged_for_the_organiser(site):
    site.start_service()
    first, second = site.configs
    probe = site.as_table(first)
    send(probe, protocol.topic(second["device"], "up"), [Chain(first).deal()])
    until(lambda: "acl: the broker denied a publish on %s" % protocol.topic(second["device"], "up")
          in site.service.log(), 10, "the denial logged")
    assert site.live()["refused"] == {"acl": 1}
    probe = site.as_table(first)
    probe.publish(protocol.topic(first["device"], "up"), b"x" * 5000, qos=1)  # over the broker's packet limit
    until(lambda: "oversized: the broker closed the connection" in site.service.log(), 10, "the oversize logged")
    assert site.live()["refused"] == {"acl": 1, "oversized": 1}


def test_a_retained_message_on_a_tables_up_is_refused_and_cleared(site):
    site.start_service()
    first, second = site.configs
    probe = site.as_table(first)
    chain = Chain(first)
    send(probe, chain.topic, [b"junk"], retain=True)
    site.service.stop()
    site.start_service()  # a retained message comes again at every subscription
    until(lambda: "retained" in site.service.log(), 10, "the retained message refused")
    time.sleep(0.5)
    reader = site.client("organiser-" + first["device"], site.secret(), "organiser-" + first["device"],
                         subscribe=chain.topic)
    time.sleep(1.0)
    assert [m for m in reader.got if m.retain] == []


def test_live_json_names_tables_not_devices(site):
    site.start_service()
    first, second = site.configs
    chain = Chain(second)
    table = site.as_table(second)
    send(table, chain.topic, [chain.new(1, 2, {"NS": site.seat(2)["NS"], "EW": site.seat(2)["EW"]}), chain.deal()])
    until(lambda: site.live()["tables"], 10, "the table on the live page")
    text = json.dumps(site.live())
    assert site.live()["tables"][0]["table"] == 2
    for config in site.configs:
        assert config["device"] not in text


def test_an_unexpected_error_undoes_one_action_and_acknowledges_nothing_after_it(site, monkeypatch):
    """Whatever raises while an action is filed (here the set-up check, made to fail
    once) undoes that action alone; the next ones of the same batch are stored but
    not acknowledged past the gap, and the chain resumes when the action comes again."""
    from host_tools.club import link_ingest
    from host_tools.club.link_service import LinkService
    first, second = site.configs
    seat = site.seat(2)
    failing = [True]
    real = link_ingest.setup_problem

    def fails_once(club, spec, table):
        if failing[0]:
            failing[0] = False
            raise RuntimeError("a fault while filing")
        return real(club, spec, table)

    monkeypatch.setattr(link_ingest, "setup_problem", fails_once)
    lines = []
    service = LinkService(site.db, "127.0.0.1:%d" % site.port, log=lambda *line: lines.append(line))
    service.start()
    try:
        until(service.connected.is_set, 10, "the service to connect")
        time.sleep(0.5)
        chain = Chain(second)
        table = site.as_table(second, subscribe=protocol.topic(second["device"], "ack"))
        new = chain.new(1, 2, {"NS": seat["NS"], "EW": seat["EW"]})
        deals = [chain.deal(), chain.deal()]
        send(table, chain.topic, [new] + deals)
        until(lambda: site.stored(second) == [2, 3], 10, "the deals after the undone action stored")
        time.sleep(0.5)
        key = bytes.fromhex(second["key"])
        assert all(protocol.open_message(key, m.payload)["seq"] == 0 for m in table.got)
        assert any(kind == "refused" and "error" in text for kind, _, text in lines)
        send(table, chain.topic, [new])  # the table sends it again, as it does without an ack
        until(lambda: site.stored(second) == [1, 2, 3], 10, "the action stored when sent again")
        until(lambda: protocol.open_message(key, table.got[-1].payload)["seq"] == 3, 10, "the chain acknowledged")
    finally:
        service.stop()


def run_sim(sim, ms):
    sim.wait(ms)
    sim.flush()
    sim.sync()


def test_sim_concours_sets_the_device_as_the_menu_does_and_a_wrong_set_up_shows_at_once(site):
    """`sim --club --concours` while the draw is on its way (it may reach the device
    before the menu opens or after): the device holds the round asked for. A round
    started at another table than drawn says so on home before its first deal, the
    organiser sees it, and Menu > Concours offers the drawn round and table first."""
    from host_tools.sim import Sim
    from host_tools.sim.concours import start_round
    site.start_service()
    until(lambda: "round 1 published" in site.service.log(), 10, "the draw published")
    seat = site.seat(2)
    path = os.path.join(os.path.dirname(site.db), "table2.json")
    sim = Sim(rules="classic2000", options={"deals": DEALS}, club=path, timeout=60)
    try:
        start_round(sim, (1, 2, seat["NS"], seat["EW"]))  # raises unless the device holds it
        deadline = time.monotonic() + 20
        while not (sim.state()["link"] or {}).get("draw") and time.monotonic() < deadline:
            run_sim(sim, 100)
        shown = sim.state()
        assert shown["link"]["draw"]["table"] == 2 and shown["setup_wrong"] is False
        # the same table now sets itself to table 1: said at once, before any deal
        start_round(sim, (1, 1, seat["NS"], seat["EW"]))
        run_sim(sim, 200)
        shown = sim.state()
        assert shown["screen"] == "home" and shown["setup_wrong"] is True and shown["deals"] == []
        until(lambda: any(row.get("problem") == "wrong_setup" for row in site.live()["tables"]), 20,
              "the organiser shown the wrong set-up")
        # Menu > Concours offers the drawn round and table first
        for button in ["OK"] + ["DOWN"] * Menu.ITEMS.index("m_concours") + ["OK"]:
            sim.press(button)
        sim.sync()
        assert sim.state()["offered"] == {"round": 1, "table": 2, "teams": {"NS": seat["NS"], "EW": seat["EW"]}}
    finally:
        sim.close()


def test_a_table_provisioned_while_the_service_runs_is_read_once_the_broker_restarts(site):
    """Each table has its own reader at the organiser: one provisioned while the service
    runs gets its reader, which the broker lets in once restarted (as the table)."""
    site.start_service()
    third, = [c for c in link_run.provision_tables(site.db, 3, site.port) if c["table"] == 3]
    site.broker.stop()
    site.broker.start()
    until(lambda: site.service.log().count("link: connected") >= 2, 15, "the service back on the broker")
    chain = Chain(third)
    table = site.as_table(third)
    messages = [chain.message({"op": "new", "rules": RULES.spec()}), chain.deal()]
    for _ in range(6):  # as the device does until it is acknowledged: the reader may not be subscribed yet
        send(table, chain.topic, messages)
        try:
            until(lambda: site.stored(third) == [1, 2], 3, "the new table's actions stored")
            break
        except AssertionError:
            continue
    assert site.stored(third) == [1, 2]
