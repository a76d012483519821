"""The draw each table holds, and what the live path files, with a real Mosquitto and
the organiser's service (`serve`) on 127.0.0.1: a table's draw is published again
whenever the event changes it (a swap, an undone round, a redraw, a withdrawal's
forfeit); an individual event's tables get their pair numbers and four names and
their rounds are filed under those pair numbers; a timed event's round ended on
time is filed with the deals played, an untimed one's is not. The firmware reads
the draws the service makes (the unix port)."""
import json
import os
import random
import time
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from conftest import run_mp
from coinche.game import RunningScore
from coinche.rules import Rules
from host_tools.rigs import link_run
from host_tools.rigs.light_table import simple_deal
from host_tools.club.link_service import draw_bodies, fitted
from host_tools.club.service import Club
from link import protocol
from waiting import until

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

DEALS = 12


class Site:
    """An event (made by `make`), `tables` provisioned tables, the broker and the service;
    each table a client that reads its own draw (as the device does) and sends actions."""

    def __init__(self, folder, make, tables=2):
        self.db = os.path.join(str(folder), "event.db")
        make(self.db)
        link_run.club(self.db, "password", stdin=link_run.ADMIN_PASSWORD + "\n")
        self.port, self.web = link_run.free_port(), link_run.free_port()
        self.configs = link_run.provision_tables(self.db, tables, self.port)
        self.broker = link_run.broker_process(self.db, self.port).start()
        self.service = link_run.service_process(self.db, self.port, self.web).start()
        until(lambda: "link: connected" in self.service.log(), 15, "the service to connect")
        self.tables = [self.table(config) for config in self.configs]
        time.sleep(0.5)  # the service's readers subscribe

    def table(self, config):
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=config["device"], clean_session=True,
                             protocol=mqtt.MQTTv311)
        client.username_pw_set(config["mqtt"]["user"], config["mqtt"]["password"])
        client.draws = []
        key = bytes.fromhex(config["key"])
        client.on_message = lambda c, u, message: client.draws.append(
            (bytes(message.payload), protocol.open_message(key, bytes(message.payload))))
        client.on_connect = lambda c, u, f, reason, p: c.subscribe(protocol.topic(config["device"], "draw"), qos=1)
        client.connect("127.0.0.1", self.port, keepalive=10)
        client.loop_start()
        until(client.is_connected, 10, "table %d to connect" % config["table"])
        client.seq = client.prev = 0
        client.config = config
        return client

    def draw_after(self, table, count, timeout=10):
        """The draw body table `table` holds once it got `count` draws."""
        client = self.tables[table - 1]
        until(lambda: len(client.draws) >= count, timeout, "draw %d at table %d" % (count, table))
        time.sleep(0.3)
        return client.draws[-1][1]

    def send(self, table, action, game=1):
        client = self.tables[table - 1]
        config = client.config
        client.seq += 1
        payload = protocol.sign(bytes.fromhex(config["key"]),
                                protocol.action_body(config["device"], game, client.seq, action, client.prev))
        client.prev = client.seq
        client.publish(protocol.topic(config["device"], "up"), payload, qos=1).wait_for_publish(10)

    def new(self, table, round_number, teams):
        spec = Rules("classic2000", {"deals": DEALS}).spec()
        spec["dealer"] = "N"
        spec["concours"] = {"round": round_number, "table": table, "teams": teams}
        self.send(table, {"op": "new", "rules": spec})

    def live(self):
        return json.loads(urllib.request.urlopen("http://127.0.0.1:%d/live.json" % self.web, timeout=10).read())

    def row(self, table):
        return next((r for r in self.live()["tables"] if r["table"] == table), None)

    def results(self):
        with Club(self.db) as opened:
            return opened.store.results()

    def close(self):
        for client in self.tables:
            client.disconnect()
            client.loop_stop()
        self.service.stop()
        self.broker.stop()


@pytest.fixture
def sites(tmp_path):
    made = []

    def make(how, tables=2):
        made.append(Site(tmp_path, how, tables))
        return made[-1]
    yield make
    for site in made:
        site.close()


def pairs_event(db, minutes=None):
    link_run.club(db, "new", "--name", "Concours", "--rounds", 3, "--deals", DEALS, "--rules", "classic2000",
                  "--seed", 7, *(["--minutes", minutes] if minutes else []))
    link_run.club(db, "team", "add", *["Team %d" % n for n in range(1, 5)])
    link_run.club(db, "draw")


PLAYERS = ["Anne", "Bruno", "Chloé", "David", "Élise", "Fanny", "Gilles", "Hugo"]


def individual_event(db):
    link_run.club(db, "new", "--name", "Individuel", "--rounds", 3, "--deals", DEALS, "--rules", "classic2000",
                  "--seed", 3, "--format", "individual")
    link_run.club(db, "player", "add", *PLAYERS)
    link_run.club(db, "draw")


def seat(site, table):
    with Club(site.db) as opened:
        return next(t for t in opened.store.rounds()[-1]["tables"] if t["table"] == table)


def test_a_swap_reaches_the_tables_whose_teams_changed(sites):
    site = sites(pairs_event)
    first = [site.draw_after(table, 1) for table in (1, 2)]
    assert first[0]["round"] == 1 and first[0]["teams"] == {"NS": seat(site, 1)["NS"], "EW": seat(site, 1)["EW"]}
    one, two = seat(site, 1)["NS"], seat(site, 2)["NS"]
    link_run.club(site.db, "draw", "--swap", one, two)
    for table in (1, 2):
        body = site.draw_after(table, 2)
        assert body["round"] == 1 and body["teams"] == {"NS": seat(site, table)["NS"], "EW": seat(site, table)["EW"]}
    assert site.draw_after(1, 2)["teams"]["NS"] == two and site.draw_after(2, 2)["teams"]["NS"] == one


def test_an_undone_round_is_cleared_at_every_table_and_its_redraw_sent_again(sites):
    site = sites(pairs_event)
    site.draw_after(1, 1)
    for table in (1, 2):
        link_run.club(site.db, "result", "--round", 1, "--table", table, "--ns", 1000, "--ew", 620)
    link_run.club(site.db, "draw")
    second = site.draw_after(1, 2)
    assert second["round"] == 2 and second["teams"] is not None and "next" in second
    link_run.club(site.db, "draw", "--undo")
    for table in (1, 2):
        cleared = site.draw_after(table, 3)
        assert (cleared["round"], cleared["table"], cleared["teams"], cleared["names"], cleared["cleared"]) == \
            (2, table, None, None, "undone")
    link_run.club(site.db, "draw")
    again = site.draw_after(1, 4)
    assert again["round"] == 2 and again["teams"] == {"NS": seat(site, 1)["NS"], "EW": seat(site, 1)["EW"]}
    # the service started again publishes what the tables hold already: the same bytes
    held = [client.draws[-1][0] for client in site.tables]
    site.service.stop()
    site.service.start()
    until(lambda: site.service.log().count("link: connected") >= 2, 15, "the service to connect again")
    time.sleep(DRAW_SETTLE)
    assert [client.draws[-1][0] for client in site.tables] == held


DRAW_SETTLE = 2.5  # the service's draw poll runs every second


def test_a_withdrawal_clears_the_forfeit_tables_draw_only(sites):
    site = sites(pairs_event)
    site.draw_after(1, 1)
    site.draw_after(2, 1)
    link_run.club(site.db, "team", "withdraw", seat(site, 2)["EW"])
    cleared = site.draw_after(2, 2)
    assert (cleared["round"], cleared["teams"], cleared["cleared"]) == (1, None, "forfeit")
    time.sleep(DRAW_SETTLE)
    assert len(site.tables[0].draws) == 1  # table 1's draw did not change: not sent again


def test_an_individual_table_gets_its_pair_numbers_and_four_names_seat_by_seat(sites):
    site = sites(individual_event)
    for table in (1, 2):
        body = site.draw_after(table, 1)
        drawn = seat(site, table)
        assert body["teams"] == {"NS": 2 * table - 1, "EW": 2 * table}
        names = [PLAYERS[n - 1] for n in drawn["NS"] + drawn["EW"]]
        assert body["seats"] == dict(zip(("N", "S", "E", "W"), names))
        assert body["players"] == {"NS": drawn["NS"], "EW": drawn["EW"]}
        assert body["names"] == {"NS": " & ".join(names[:2]), "EW": " & ".join(names[2:])}


def play_round(site, table, teams, deals, seed=1):
    """A round's new and `deals` deals from table `table`; the calculator's totals."""
    site.new(table, 1, teams)
    rules = Rules("classic2000", {"deals": DEALS})
    score = RunningScore(rules)
    rnd = random.Random(seed)
    for _ in range(deals):
        deal = simple_deal(rules, rnd)
        score.add(deal)
        site.send(table, {"op": "add", "deal": deal})
    return dict(score.total)


def test_an_individual_round_is_filed_under_its_pair_numbers_and_other_pairs_are_a_wrong_set_up(sites):
    site = sites(individual_event)
    total = play_round(site, 1, {"NS": 2, "EW": 1}, DEALS)  # the pairs the other way round: still as drawn
    until(lambda: (1, 1) in site.results(), 15, "table 1's round to be filed")
    filed = site.results()[(1, 1)]
    assert (filed["NS"], filed["EW"]) == (total["EW"], total["NS"]) and filed["source"] == "code"
    site.new(2, 1, {"NS": 3, "EW": 5})
    until(lambda: (site.row(2) or {}).get("problem") == "wrong_setup", 10, "table 2's wrong set-up")
    assert "the draw puts pair 3 (NS) against 4 (EW)" in site.service.log()


def test_a_timed_round_ended_on_time_is_filed_with_the_deals_played(sites):
    site = sites(lambda db: pairs_event(db, minutes=30))
    drawn = seat(site, 1)
    total = play_round(site, 1, {"NS": drawn["NS"], "EW": drawn["EW"]}, 3)
    time.sleep(1)
    assert (1, 1) not in site.results()  # 3 deals of 12, not ended: the round goes on
    site.send(1, {"op": "end", "end": "time"})
    until(lambda: (1, 1) in site.results(), 15, "the round ended on time to be filed")
    filed = site.results()[(1, 1)]
    assert (filed["NS"], filed["EW"]) == (total["NS"], total["EW"])
    row = site.row(1)
    assert row["over"] and row["counted"] == 3 and row["problem"] is None
    site.send(1, {"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}})
    until(lambda: (site.row(1) or {}).get("problem") == "refused_deal", 10, "a deal after the end refused")
    assert "a deal after the round's end on time" in site.service.log()
    site.service.stop()  # read back from the event: the same round, filed once
    site.service.start()
    until(lambda: site.service.log().count("link: connected") >= 2, 15, "the service to connect again")
    until(lambda: site.row(1) is not None, 10, "table 1 read back")
    row = site.row(1)
    assert row["over"] and row["counted"] == 3 and site.results()[(1, 1)] == filed


def test_a_round_ended_on_time_in_an_untimed_event_is_not_filed(sites):
    site = sites(pairs_event)
    drawn = seat(site, 1)
    play_round(site, 1, {"NS": drawn["NS"], "EW": drawn["EW"]}, 3)
    site.send(1, {"op": "end", "end": "time"})
    until(lambda: (site.row(1) or {}).get("problem") == "wrong_setup", 10, "the wrong set-up")
    assert "ended on time after 3 deals, but the event's rounds are not timed" in site.service.log()
    assert (1, 1) not in site.results()


LONG = "😀" * 40  # 40 characters, each written \ud83d\ude00 in the JSON: 12 bytes


def test_a_draw_with_the_longest_names_fits_the_links_message_size(tmp_path):
    db = os.path.join(str(tmp_path), "event.db")
    link_run.club(db, "new", "--name", "Individuel", "--rounds", 2, "--deals", DEALS, "--rules", "classic2000",
                  "--seed", 3, "--format", "individual")
    link_run.club(db, "player", "add", *[LONG[:-1] + str(n) for n in range(1, 5)])
    link_run.club(db, "draw")
    device = {"id": "t49-abcdef", "table_number": 1, "key_hex": "11" * 32}
    with Club(db) as opened:
        body = draw_bodies(opened, [device])["t49-abcdef"]
    message = fitted(bytes.fromhex(device["key_hex"]), body)
    opened_body = protocol.open_message(b"\x11" * 32, message)
    assert len(message) <= protocol.MAX_MESSAGE
    names = list(opened_body["seats"].values()) + list(opened_body["names"].values())
    assert len({len(name) for name in names[:4]}) == 1 and 0 < len(names[0]) < 40
    assert opened_body["teams"] == {"NS": 1, "EW": 2} and opened_body["players"] == body["players"]


TABLE_READS = """
import binascii
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
mount(RAMBlockDev(4096, 352), "/flash")
config = %s
with open("/flash/club.json", "w") as f:
    json.dump(config, f)
board = Board()
board.WIFI = True
board.CLUB_FILE = "/flash/club.json"
from app import App
from screens.concours import Concours
app = App(board, {"rules": "classic2000", "options": {"deals": 12}})
club = app.club
def settle():
    for _ in range(400):
        board.now += 20
        app.poll()
out = {}
club.received(club.draw_topic, binascii.unhexlify(%r))
settle()
out["offered"] = Concours(app).info
app.start_round(out["offered"])
settle()
out["as_drawn"] = app.setup_wrong
club.received(club.draw_topic, binascii.unhexlify(%r))
settle()
out["cleared"] = [app.setup_wrong, app.view.last_line(), Concours(app).info["round"]]
print(json.dumps(out))
"""


def test_the_firmware_reads_an_individual_draw_and_a_cleared_one(tmp_path):
    """What the service sends, read by the table's own code on the unix port: Menu >
    Concours offers the pair numbers; once the round is undone, the round started says
    "not as drawn" on home."""
    db = os.path.join(str(tmp_path), "event.db")
    individual_event(db)
    config = {"v": 1, "wifi": {"ssid": "Club", "password": "x"}, "broker": {"host": "127.0.0.1", "port": 1},
              "device": "t01-abcdef", "table": 1, "mqtt": {"user": "t01-abcdef", "password": "x"}, "key": "11" * 32}
    device = {"id": config["device"], "table_number": 1, "key_hex": config["key"]}
    with Club(db) as opened:
        drawn = fitted(b"\x11" * 32, draw_bodies(opened, [device])[device["id"]])
    link_run.club(db, "draw", "--undo")
    with Club(db) as opened:
        cleared = fitted(b"\x11" * 32, draw_bodies(opened, [device])[device["id"]])
    proc = run_mp(TABLE_READS % (json.dumps(config), drawn.hex(), cleared.hex()))
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["offered"] == {"round": 1, "table": 1, "teams": {"NS": 1, "EW": 2}}
    assert out["as_drawn"] is False
    assert out["cleared"] == [True, "Pas le tirage !", 2]
