"""A timed round's clock over the club link: the organiser's service sends it to the
tables on each clock action (start, pause, resume, minutes added), retained and
signed, with the seconds left then; the table (the firmware on the unix port) counts
it down from its own ticks, shows the time left on home on both boards, ignores a
clock for another round or not signed with its key, says "last deal" once no time
is left, and ends the round after the deal in play as Menu > End the round now does.
A timed round played through the simulator with the link is filed with the deals
played."""
import json
import os
import time
import urllib.request

import pytest

from conftest import run_mp
from host_tools.club.service import Club
from host_tools.rigs import link_run
from link import protocol
from test_link_draws import Site, pairs_event
from waiting import until

needs_mosquitto = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                     reason="mosquitto is not installed (Debian: apt-get install mosquitto)")

CONFIG = {"v": 1, "wifi": {"ssid": "Club", "password": "x"}, "broker": {"host": "127.0.0.1", "port": 1},
          "device": "t01-abcdef", "table": 1, "mqtt": {"user": "t01-abcdef", "password": "x"}, "key": "11" * 32}

TABLE_CLOCK = """
import binascii
import json
import micropython
import os
from blockdev import RAMBlockDev, mount
from fakeboard import Board, ColourBoard
from link import protocol
CONFIG = %s
KEY = binascii.unhexlify(CONFIG["key"])
DEAL = {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}
out = {}
for name, make in (("128x64", Board), ("240x135", ColourBoard)):
    try:
        os.umount("/flash")
    except OSError:
        pass
    mount(RAMBlockDev(4096, 352), "/flash")
    with open("/flash/club.json", "w") as f:
        json.dump(CONFIG, f)
    board = make()
    board.WIFI = True
    board.CLUB_FILE = "/flash/club.json"
    from app import App
    app = App(board, {"rules": "classic2000", "options": {"deals": 12}})
    club = app.club
    drawn = []
    label = app.layout.label
    def spy(text, *rest):
        drawn.append(text)
        return label(text, *rest)
    def run(ms):
        for _ in range(ms // 500):
            board.now += 500
            app.poll()
    def send(number, left, running, key=KEY):
        club.received(club.clock_topic, protocol.sign(key, protocol.clock_body(CONFIG["device"], number, left, running)))
        run(1000)
    def seen():
        # home drawn now: its line, and whether the layout drew it
        app.layout.label = spy
        del drawn[:]
        app.render()
        del app.layout.label
        line = app.view.last_line() if app.view.name == "home" else None
        return [app.view.name, line, line in drawn]
    steps = []
    app.start_round({"round": 2, "table": 1, "teams": {"NS": 5, "EW": 7}})
    run(1000)
    steps.append(seen())  # no clock yet: the round's own line
    send(2, 750, True)
    steps.append(seen())  # 12 min 30 s: the minutes rounded up
    run(60000)
    steps.append(seen())  # a minute later, by the table's own ticks
    send(2, 300, False)
    run(120000)
    steps.append(seen())  # paused: 5 minutes two minutes later
    send(2, 10, True, b"another key")
    steps.append(seen())  # not the organiser's: ignored
    send(3, 300, True)
    steps.append(seen())  # another round's clock: the round's own line again
    send(2, 50, True)
    steps.append(seen())
    app.save_deal(DEAL, None)
    run(20000)
    steps.append(seen())  # the next deal, 20 s later
    run(35000)
    steps.append(seen())  # no time left: the deal in play is the last
    app.render()
    micropython.heap_lock()
    try:
        app.render()
        locked = "drawn"
    except MemoryError:
        locked = "allocated"
    micropython.heap_unlock()
    app.save_deal(DEAL, None)  # the deal in play saved: the round ends on time
    run(1000)
    steps.append([app.view.name, app.game.over, app.table.journal_rules.get("end"), len(app.game.deals)])
    out[name] = {"steps": steps, "locked": locked, "figures": app.club.figures()["clock"]}
print(json.dumps(out))
"""


def test_the_table_counts_the_clock_down_on_home_and_ends_the_round_after_the_deal_in_play():
    """Both boards: the time left on home's line (drawn there, a redraw allocating
    nothing), paused, given other minutes, another round's clock and a forged one
    ignored, then "last deal", and the round over once that deal is saved."""
    proc = run_mp(TABLE_CLOCK % json.dumps(CONFIG))
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    for board in ("128x64", "240x135"):
        steps = out[board]["steps"]
        assert steps[:-1] == [
            ["home", "R2 T1 1/12", True],
            ["home", "1/12 13 min", True],
            ["home", "1/12 12 min", True],
            ["home", "1/12 5 min", True],
            ["home", "1/12 5 min", True],
            ["home", "R2 T1 1/12", True],
            ["home", "1/12 0:49", True],
            ["home", "2/12 0:29", True],
            ["home", "Dernière donne", True],
        ], board
        assert steps[-1] == ["roundover", True, "time", 2], board
        assert out[board]["locked"] == "drawn", board


CLOCK_TEXTS = """
import json
from render import languages
from link.table_link import clock_line
out = {}
for code in languages.LANGS:
    texts = languages.load(code)
    out[code] = [clock_line(texts, 12, 12, seconds) for seconds in (5999, 3600, 61, 60, 59, 1, 0)]
print(json.dumps(out))
"""


def test_the_clock_is_told_in_every_language_in_texts_that_fit_a_line():
    """The longest lines (99 minutes, the twelfth deal) and "last deal" fit one line of the
    128x64 screen (16 characters) in every language; the layouts' fit: tests/test_text_fit_*.py."""
    out = json.loads(run_mp(CLOCK_TEXTS).stdout.strip().splitlines()[-1])
    assert set(out) == {"fr", "de", "it", "en"}
    for code, lines in out.items():
        for text in lines:
            assert 0 < len(text) <= 16, (code, text)
    assert out["en"] == ["12/12 100 min", "12/12 60 min", "12/12 2 min", "12/12 1 min", "12/12 0:59", "12/12 0:01",
                         "Last deal"]
    assert out["fr"][-1] == "Dernière donne" and out["de"][-1] == "Letzte Gabe" and out["it"][-1] == "Ultima mano"


def clocks(client):
    """The clock bodies a table's client got, in order."""
    return [body for payload, body in client.draws if "left" in body]


@needs_mosquitto
def test_the_service_sends_the_clock_on_each_action_retained_and_signed(tmp_path):
    site = Site(tmp_path, lambda db: pairs_event(db, minutes=30))
    try:
        for client in site.tables:
            client.subscribe(protocol.topic(client.config["device"], "clock"), qos=1)
        time.sleep(1.5)
        assert clocks(site.tables[0]) == []  # no clock started: nothing sent
        link_run.club(site.db, "clock", "start")
        for client in site.tables:  # every table, each its own, signed with its key
            until(lambda client=client: clocks(client), 10, "the clock at a table")
            body = clocks(client)[-1]
            assert body["device"] == client.config["device"] and body["round"] == 1 and body["running"] is True
            assert 30 * 60 - 5 <= body["left"] <= 30 * 60
        link_run.club(site.db, "clock", "pause")
        until(lambda: len(clocks(site.tables[0])) >= 2, 10, "the pause")
        paused = clocks(site.tables[0])[-1]
        assert paused["running"] is False and 30 * 60 - 5 <= paused["left"] <= 30 * 60
        link_run.club(site.db, "clock", "add", 5)
        until(lambda: len(clocks(site.tables[0])) >= 3, 10, "the minutes added")
        assert clocks(site.tables[0])[-1] == dict(paused, left=paused["left"] + 300)
        link_run.club(site.db, "clock", "resume")
        until(lambda: len(clocks(site.tables[0])) >= 4, 10, "the resume")
        resumed = clocks(site.tables[0])[-1]
        # (the event counts whole seconds: its resume may round one away)
        assert resumed["running"] is True and paused["left"] + 298 <= resumed["left"] <= paused["left"] + 300
        time.sleep(2.5)
        assert len(clocks(site.tables[0])) == 4  # no action: nothing more within the refresh's minute
        assert "link: clock -: round 1: %d s left, running, published to 2 tables" % resumed["left"] \
            in site.service.log()
        # retained: a table connecting now reads the clock as last sent
        late = site.table(site.configs[1])
        late.subscribe(protocol.topic(site.configs[1]["device"], "clock"), qos=1)
        until(lambda: clocks(late), 10, "the retained clock")
        assert clocks(late)[-1]["running"] is True and clocks(late)[-1]["round"] == 1
        late.disconnect()
        late.loop_stop()
    finally:
        site.close()


def live(port):
    return json.loads(urllib.request.urlopen("http://127.0.0.1:%d/live.json" % port, timeout=10).read())


@needs_mosquitto
def test_a_timed_round_played_through_the_simulator_is_ended_by_the_clock_after_the_deal_in_play(tmp_path):
    """The issue's "done when": a timed round (6 deals or 30 minutes) played with the
    simulator and the link; two deals, then the organiser takes the 30 minutes away
    (clock add -30): the table says "last deal", the deal in play is played and saved,
    the table ends the round on time by itself, and the organiser files the three deals
    played, the calculator's totals."""
    from test_link_device import DEALS, Device, run_until, settle, start_rounds
    db = os.path.join(str(tmp_path), "event.db")
    link_run.club(db, "new", "--name", "Chrono", "--rounds", 1, "--deals", DEALS, "--rules", "classic2000",
                  "--seed", 7, "--minutes", 30)
    link_run.club(db, "team", "add", *["Team %d" % n for n in range(1, 5)])
    link_run.club(db, "password", stdin=link_run.ADMIN_PASSWORD + "\n")
    broker_port, web_port = link_run.free_port(), link_run.free_port()
    link_run.provision_tables(db, 1, broker_port)
    broker = link_run.broker_process(db, broker_port).start()
    service = link_run.service_process(db, broker_port, web_port).start()
    device = None
    try:
        until(lambda: "link: connected" in service.log(), 15, "the service to connect")
        drawn = link_run.club(db, "draw")
        link_run.club(db, "clock", "start")
        seat = next(t for t in drawn["tables"] if t["table"] == 1)
        device = Device(str(tmp_path), 1, 5).boot()
        start_rounds([device], {1: (1, 1, seat["NS"], seat["EW"])})
        shown = run_until([device], lambda link: link["line"], "the clock on home")[0]
        assert shown["line"] in ("1/%d 30 min" % DEALS, "1/%d 29 min" % DEALS)
        device.deal()
        device.deal()
        settle([device])
        link_run.club(db, "clock", "add", -30)
        run_until([device], lambda link: link["line"] == "Dernière donne", "last deal on home")
        state = device.sim.state()
        assert state["screen"] == "home" and len(state["deals"]) == 2 and not state["over"]
        device.deal()  # the deal in play, saved: the round ends on time
        run_until([device], lambda link: link["line"] is None, "the round's end")
        state = device.sim.state()
        assert state["screen"] == "roundover" and state["over"] and state["ended"] and len(state["deals"]) == 3
        settle([device])
        with Club(db) as opened:
            until(lambda: (1, 1) in opened.store.results(), 15, "the round filed")
            filed = opened.store.results()[(1, 1)]
        total = dict(device.score.total)
        assert (filed["NS"], filed["EW"]) == (total["NS"], total["EW"])
        row = next(r for r in live(web_port)["tables"] if r["table"] == 1)
        assert row["over"] and row["counted"] == 3 and row["problem"] is None
    finally:
        if device is not None and device.sim is not None:
            device.sim.kill()
            device.sim.close()
        service.stop()
        broker.stop()
