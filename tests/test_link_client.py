"""The table's link pieces on the MicroPython unix port: the outbox on flash, the MQTT
client's timeouts driven by the board's clock, a table without network, and one
action through a real Mosquitto and the organiser's service (the bytes it costs)."""
import json
import socket
import subprocess
import sys
import threading

import pytest

from conftest import ROOT, run_mp
from host_tools.rigs import link_run

needs_mosquitto = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                     reason="mosquitto is not installed (Debian: apt-get install mosquitto)")


def last_json(proc):
    return json.loads(proc.stdout.strip().splitlines()[-1])


OUTBOX = """
import os
from link.outbox import Outbox
folder = %r
box = Outbox(folder, "t01-aaaaaa")
box.add(1, 5, b"sig {\\"seq\\":5}")
box.add(1, 7, b"sig {\\"seq\\":7}")
prev_before = box.prev()
with open(folder + "/out.log", "ab") as f:
    f.write(b"1 8 sig {\\"se")  # a power cut in the middle of the next line
again = Outbox(folder, "t01-aaaaaa")
after_cut = [again.pending, again.prev(), again.next_unacknowledged(0)[3].decode()]
again.acknowledge(1, 5)
acked_one = [again.pending, again.next_unacknowledged(0)[1]]
third = Outbox(folder, "t01-aaaaaa")
rebooted = [third.pending, third.acked_seq]
third.acknowledge(1, 7)
emptied = [third.pending, third.prev(), "out.log" in os.listdir(folder)]
third.add(2, 9, b"sig {}")
other = Outbox(folder, "t01-bbbbbb")  # provisioned again: a new device
print(json.dumps({"prev": prev_before, "after_cut": after_cut, "acked_one": acked_one, "rebooted": rebooted,
                  "emptied": emptied, "other": [other.pending, other.acked_seq, other.prev()]}))
"""


def test_outbox_keeps_its_messages_across_reboots_and_drops_a_torn_line(tmp_path):
    out = last_json(run_mp("import json\n" + OUTBOX % str(tmp_path / "link")))
    assert out["prev"] == 7
    assert out["after_cut"] == [2, 7, 'sig {"seq":5}']  # the torn line is gone, both others kept
    assert out["acked_one"] == [1, 7]
    assert out["rebooted"] == [1, 5]  # the acknowledgement was on flash
    assert out["emptied"] == [0, 7, False]  # all acknowledged: the file removed, prev kept
    assert out["other"] == [0, 0, 0]  # another device's outbox is not this one's


OFFLINE = """
import json, os
from blockdev import RAMBlockDev, mount
from fakeboard import Board
mount(RAMBlockDev(4096, 352), "/flash")
with open("/flash/club.json", "w") as f:
    json.dump(%s, f)
board = Board()
board.WIFI = True
board.CLUB_FILE = "/flash/club.json"
from app import App
from link import state
app = App(board, {"rules": "classic2000"})
for _ in range(50):
    board.now += 20
    app.poll()
app.table.save_deal({"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}, None)
for _ in range(50):
    board.now += 20
    app.poll()
figures = app.club.figures()
print(json.dumps({"state": state.state(), "deals": len(app.game.deals), "pending": figures["pending"],
                  "connects": figures["connects"], "files": os.listdir("/flash/link")}))
"""

CONFIG = {"v": 1, "wifi": {"ssid": "Club", "password": "club-wifi-pass"},
          "broker": {"host": "127.0.0.1", "port": 1}, "device": "t01-abcdef", "table": 1,
          "mqtt": {"user": "t01-abcdef", "password": "x"}, "key": "11" * 32}


def test_without_network_the_table_stays_offline_plays_and_keeps_its_outbox():
    """The unix port has no `network` module, as a board whose WiFi chip is missing: the
    link stays OFFLINE, the deal is saved and waits in the outbox."""
    out = last_json(run_mp(OFFLINE % json.dumps(CONFIG)))
    assert out["state"] == 0 and out["connects"] == 0
    assert out["deals"] == 1 and out["pending"] == 1 and "out.log" in out["files"]


def test_a_broker_given_by_name_is_never_resolved_the_table_stays_offline():
    """getaddrinfo on a name blocks a Pico W's loop: a file holding one (written by hand
    or an older tool) leaves the link OFFLINE with the host's network there, while the
    same file with an address in dots tries to connect (port 1: refused, CONNECTING)."""
    with_network = OFFLINE.replace("board.WIFI = True\n", "board.WIFI = True\nboard.HOST_NETWORK = True\n")
    named = last_json(run_mp(with_network % json.dumps(dict(CONFIG, broker={"host": "localhost", "port": 1}))))
    numeric = last_json(run_mp(with_network % json.dumps(CONFIG)))
    assert named["state"] == 0 and named["connects"] == 0 and named["pending"] == 1
    assert numeric["state"] == 1


def test_only_an_ipv4_address_in_dots_is_numeric():
    out = last_json(run_mp("""
import json
from link.mqtt import numeric_ipv4
print(json.dumps([numeric_ipv4(host) for host in ("192.168.1.10", "127.0.0.1", "0.0.0.0", "localhost",
    "broker.local", "256.1.1.1", "1.2.3", "1.2.3.4.5", "1..2.3", "01234.1.1.1", "", "::1")]))
"""))
    assert out == [True, True, True] + [False] * 9


SILENT = """
import json
from link import mqtt
clock = [1000]
seen = []
client = mqtt.Mqtt("127.0.0.1", %d, b"t01", b"u", b"p", (b"a",), lambda t, p: None, lambda: None, lambda: clock[0])
for step in range(400):
    client.poll()
    if not seen or seen[-1][0] != client.state:
        seen.append([client.state, clock[0] - 1000, client.backoff])
    clock[0] += 50
    if step %% 20 == 0:
        import time
        time.sleep_ms(5)  # the TCP handshake's own time on loopback
print(json.dumps(seen))
"""


def test_a_silent_broker_times_out_in_the_boards_time_and_backs_off():
    """A broker that accepts the connection and never answers: CONNECT waits
    CONNECT_TIMEOUT_MS of the board's clock, then the connection is dropped and tried
    again after a backoff that doubles."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        seen = last_json(run_mp(SILENT % listener.getsockname()[1]))
    finally:
        listener.close()
        for sock in accepted:
            sock.close()
    states = [state for state, _, _ in seen]
    assert states[:4] == [1, 2, 0, 1]  # opening, greeting, down, opening again
    greeting_at = seen[1][1]
    down_at, backoff = seen[2][1], seen[2][2]
    assert down_at - greeting_at >= 5000 and backoff == 500
    assert seen[3][1] - down_at >= 500
    later_backoffs = [backoff for state, _, backoff in seen if state == 0]
    assert later_backoffs[:2] == [500, 1000]


ONE_ACTION = """
import json, time, binascii
from link import mqtt, protocol
config = json.loads(%r)
key = binascii.unhexlify(config["key"])
device = config["device"]
got = []
ready = []
client = mqtt.Mqtt("127.0.0.1", config["broker"]["port"], device.encode(), config["mqtt"]["user"].encode(),
                   config["mqtt"]["password"].encode(),
                   (protocol.topic(device, "ack").encode(), protocol.topic(device, "draw").encode()),
                   lambda topic, payload: got.append((topic, payload)), lambda: ready.append(1), time.ticks_ms)
start = time.ticks_ms()
while not client.ready() and time.ticks_diff(time.ticks_ms(), start) < 10000:
    client.poll()
    time.sleep_ms(2)
time.sleep_ms(300)
for _ in range(100):
    client.poll()
got.clear()
before = [client.bytes_sent, client.bytes_received, client.packets_sent, client.packets_received]
rules = {"preset": "classic2000", "options": {"deals": 12}, "dealer": "N"}
message = protocol.sign(key, protocol.action_body(device, 1, 3, {"op": "new", "rules": rules}, 0))
client.publish(protocol.topic(device, "up").encode(), message)
acked = None
start = time.ticks_ms()
while acked is None and time.ticks_diff(time.ticks_ms(), start) < 10000:
    client.poll()
    for topic, payload in got:
        body = protocol.open_message(key, payload)
        if topic.endswith(b"/ack") and body["seq"] == 3:
            acked = body
    time.sleep_ms(2)
for _ in range(50):
    client.poll()  # our PUBACK of the ack goes out
    time.sleep_ms(2)
after = [client.bytes_sent, client.bytes_received, client.packets_sent, client.packets_received]
print(json.dumps({"ready": len(ready), "acked": acked, "message": len(message),
                  "delta": [a - b for a, b in zip(after, before)]}))
"""


@needs_mosquitto
def test_one_action_goes_up_and_is_acknowledged_through_mosquitto_and_the_service(tmp_path):
    db = link_run.make_event(tmp_path, 4, 1, 12)
    broker_port, web_port = link_run.free_port(), link_run.free_port()
    config = link_run.provision_tables(db, 1, broker_port)[0]
    broker = link_run.broker_process(db, broker_port).start()
    service = link_run.service_process(db, broker_port, web_port).start()
    try:
        out = last_json(run_mp(ONE_ACTION % json.dumps(config), timeout=60))
    finally:
        service.stop()
        broker.stop()
    assert out["ready"] == 1
    assert out["acked"] == {"v": 1, "device": config["device"], "game": 1, "seq": 3}
    sent, received, packets_sent, packets_received = out["delta"]
    assert packets_sent == 2 and packets_received == 2  # PUBLISH and our PUBACK; the PUBACK and the ack
    topic = len("coinche/%s/up" % config["device"])
    remaining = 2 + topic + 2 + out["message"]  # topic, packet id, payload
    assert sent == 1 + (1 if remaining < 128 else 2) + remaining + 4  # the PUBLISH and a PUBACK, counted
    assert received > 4 + 64


DRAW_TEXTS = """
import json
from render import languages
from link.table_link import draw_notices
from coinche.result_code import MAX_ROUND, MAX_TABLE, MAX_TEAM
draw = {"v": 1, "device": "t49-abcdef", "round": MAX_ROUND, "table": MAX_TABLE,
        "teams": {"NS": MAX_TEAM, "EW": MAX_TEAM - 1}, "names": {"NS": "a", "EW": "b"},
        "next": {"NS": {"team": MAX_TEAM, "table": MAX_TABLE}, "EW": {"team": MAX_TEAM - 1, "table": 0}}}
empty = {"v": 1, "device": "t49-abcdef", "round": 2, "table": 7, "teams": {"NS": None, "EW": None},
         "names": {"NS": None, "EW": None}}
out = {}
for code in languages.LANGS:
    texts = languages.load(code)
    out[code] = [draw_notices(draw, texts), draw_notices(empty, texts)]
print(json.dumps(out))
"""


def test_the_draw_is_told_in_every_language_in_texts_that_fit_a_line():
    """At a round's end: where each team goes (a bye too), the round and table, the teams;
    the largest numbers the concours allows still fit one line of the 128x64 screen
    (16 characters; the 240x135 screen has more). A table with no game this round is told
    only its round."""
    out = last_json(run_mp(DRAW_TEXTS))
    assert set(out) == {"fr", "de", "it", "en"}
    for code, (full, empty) in out.items():
        assert len(full) == 4 and len(empty) == 1, (code, full, empty)
        assert "99" in full[0] and "49" in full[0] and "98" in full[1] and "49" not in full[1]
        assert "9" in full[2] and "49" in full[2]
        for text in full + empty:
            assert len(text) <= 16, (code, text)
    assert out["en"][0] == ["Team 99: T49", "Team 98: bye", "Round 9: T49", "NS 99 - EW 98"]


def test_sim_refuses_a_missing_club_file_with_status_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", "-", "--club", str(tmp_path / "none.json")],
                          input="", cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--club" in proc.stderr and "provision" in proc.stderr


DRAW_TOASTS = """
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from link import protocol
mount(RAMBlockDev(4096, 352), "/flash")
config = %s
with open("/flash/club.json", "w") as f:
    json.dump(config, f)
board = Board()
board.WIFI = True
board.CLUB_FILE = "/flash/club.json"
from app import App
app = App(board, {"rules": "classic2000"})
import binascii
key = binascii.unhexlify(config["key"])
club = app.club
draw = protocol.draw_body(config["device"], 2, 1, {"NS": 5, "EW": 7}, {"NS": "Team 5", "EW": "Team 7"},
                          {"NS": {"team": 3, "table": 4}, "EW": {"team": 8, "table": 0}})
club.received(club.draw_topic, protocol.sign(key, draw))
club.received(club.draw_topic, protocol.sign(b"another key", dict(draw, round=3)))  # not the organiser's: ignored
shown = []
for _ in range(1000):
    board.now += 20
    app.poll()
    if app.toast_msg is not None and (not shown or shown[-1] != app.toast_msg):
        shown.append(app.toast_msg)
from screens.concours import Concours
print(json.dumps({"shown": shown, "offered": Concours(app).info}))
"""


def test_a_draw_is_told_as_toasts_and_offered_by_menu_concours():
    out = last_json(run_mp(DRAW_TOASTS % json.dumps(CONFIG)))
    assert out["shown"] == ["Équipe 3: T4", "Éq. 8: exempte", "Partie 2: T1", "NS 5 - EO 7"]
    assert out["offered"] == {"round": 2, "table": 1, "teams": {"NS": 5, "EW": 7}}


SETUP_WRONG = """
import gc
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from link import protocol
mount(RAMBlockDev(4096, 352), "/flash")
config = %s
with open("/flash/club.json", "w") as f:
    json.dump(config, f)
board = Board()
board.WIFI = True
board.CLUB_FILE = "/flash/club.json"
from app import App
from render import languages
from screens.concours import Concours
app = App(board, {"rules": "classic2000", "options": {"deals": 12}})
import binascii
club = app.club
draw = protocol.draw_body(config["device"], 2, 1, {"NS": 5, "EW": 7}, {"NS": "Team 5", "EW": "Team 7"}, None)
club.received(club.draw_topic, protocol.sign(binascii.unhexlify(config["key"]), draw))
out = {}
def settle():
    for _ in range(300):
        board.now += 20
        app.poll()
app.start_round({"round": 2, "table": 3, "teams": {"NS": 5, "EW": 7}})
settle()
home = app.view
out["wrong"] = [app.setup_wrong, home.name, home.last_line(), len(app.game.deals)]
out["offered"] = Concours(app).info
gc.collect()
gc.disable()
def checks(count):
    before = gc.mem_alloc()
    for _ in range(count):
        app.set_up_check()
    return gc.mem_alloc() - before
checks(1)
out["allocated"] = [checks(10), checks(1000)]
gc.enable()
app.start_round({"round": 2, "table": 1, "teams": {"NS": 7, "EW": 5}})  # the other way round: as drawn
settle()
out["right"] = [app.setup_wrong, app.view.last_line()]
out["texts"] = {code: languages.load(code)["l_setup"] for code in languages.LANGS}
print(json.dumps(out))
"""


def test_a_round_started_otherwise_than_drawn_says_so_on_home_before_its_first_deal():
    """The draw says round 2, table 1; the round started at table 3: home's line says
    so before any deal (in a text that fits a line in every language), checking it
    again builds nothing, and Menu > Concours offers the drawn round and table first.
    Started as drawn (the teams the other way round count), the line is the round's."""
    out = last_json(run_mp(SETUP_WRONG % json.dumps(CONFIG)))
    assert out["wrong"] == [True, "home", "Pas le tirage !", 0]
    assert out["offered"] == {"round": 2, "table": 1, "teams": {"NS": 5, "EW": 7}}
    assert out["allocated"][1] == out["allocated"][0]  # the same for 10 checks and 1000: none per check
    assert out["right"] == [False, "R2 T1 1/12"]
    for code, text in out["texts"].items():
        assert 0 < len(text) <= 16, (code, text)
