"""The organiser's ingest without the network (host_tools/club/link_ingest.py): each
message judged, stored once, acknowledged at the end of the unbroken chain, rounds
filed as typed codes; provisioning and the broker's files from the command line."""
import base64
import hashlib
import io
import json
import os
import random

import pytest

from coinche.game import RunningScore
from coinche.rules import Rules
from host_tools.club.cli import main
from host_tools.rigs.light_table import simple_deal
from host_tools.club.link_broker import DYNSEC_NAME, link_folder, mosquitto_hash
from host_tools.club.link_ingest import Ingest
from host_tools.rigs.link_run import ADMIN_PASSWORD, club, make_event, provision_tables
from host_tools.club.service import Club
from link import protocol

RULES = Rules("classic2000", {"deals": 12})


@pytest.fixture
def event(tmp_path):
    db = make_event(tmp_path, 4, 2, 12)
    configs = provision_tables(db, 2, 1883)
    drawn = club(db, "draw")
    logged = []
    opened = Club(db)
    ingest = Ingest(opened, lambda kind, device, text: logged.append((kind, device, text)))
    yield db, configs, drawn, ingest, logged
    opened.close()


def messages_of_round(config, seat, seed, gaps=(3, 7)):
    """[(topic, payload)] of a whole round at one table, journal-numbered with gaps; its totals."""
    rnd = random.Random(seed)
    key = bytes.fromhex(config["key"])
    spec = RULES.spec()
    spec["dealer"] = "N"
    spec["concours"] = {"round": 1, "table": seat["table"], "teams": {"NS": seat["NS"], "EW": seat["EW"]}}
    actions = [{"op": "new", "rules": spec}]
    score = RunningScore(RULES)
    for _ in range(12):
        deal = simple_deal(RULES, rnd)
        score.add(deal)
        actions.append({"op": "add", "deal": deal})
    out, seq, prev = [], 10, 0
    for index, action in enumerate(actions):
        seq += 2 if index in gaps else 1
        out.append((protocol.topic(config["device"], "up"),
                    protocol.sign(key, protocol.action_body(config["device"], 1, seq, action, prev))))
        prev = seq
    return out, dict(score.total)


def ack_of(replies, config):
    (topic, payload, retain), = replies
    assert topic == protocol.topic(config["device"], "ack") and retain
    body = protocol.open_message(bytes.fromhex(config["key"]), payload)
    return body["game"], body["seq"]


def test_a_round_is_stored_once_and_filed_as_its_code(event):
    db, configs, drawn, ingest, logged = event
    seat = drawn["tables"][0]
    messages, totals = messages_of_round(configs[0], seat, 1)
    for topic, payload in messages:
        ack = ack_of(ingest.handle(topic, payload), configs[0])
    assert ack == (1, json.loads(messages[-1][1][65:])["seq"])
    results = ingest.club.store.results()
    assert results[(1, seat["table"])]["NS"] == totals["NS"] and results[(1, seat["table"])]["source"] == "code"
    assert len(ingest.club.store.actions(configs[0]["device"])) == 13
    assert [k for k, _, _ in logged] == ["filed"]
    live, = ingest.live()
    assert live["counted"] == 12 and live["over"] and live["total"] == totals


def test_the_same_message_twice_is_one_action(event):
    db, configs, drawn, ingest, logged = event
    messages, _ = messages_of_round(configs[0], drawn["tables"][0], 2)
    first = ack_of(ingest.handle(*messages[0]), configs[0])
    again = ack_of(ingest.handle(*messages[0]), configs[0])
    assert first == again
    assert len(ingest.club.store.actions(configs[0]["device"])) == 1
    assert logged[-1][0] == "duplicate" and ingest.counts["duplicate"] == 1


def test_out_of_order_is_acknowledged_only_once_the_gap_fills(event):
    db, configs, drawn, ingest, logged = event
    messages, totals = messages_of_round(configs[0], drawn["tables"][0], 3)
    seqs = [json.loads(payload[65:])["seq"] for _, payload in messages]
    assert ack_of(ingest.handle(*messages[0]), configs[0]) == (1, seqs[0])
    assert ack_of(ingest.handle(*messages[2]), configs[0]) == (1, seqs[0])  # seq of [1] still on its way
    assert ack_of(ingest.handle(*messages[1]), configs[0]) == (1, seqs[2])
    rest = messages[3:]
    random.Random(4).shuffle(rest)
    for message in rest:
        ingest.handle(*message)
    assert ingest.chains[configs[0]["device"]].end == (1, seqs[-1])
    assert ingest.club.store.results()[(1, drawn["tables"][0]["table"])]["NS"] == totals["NS"]


def test_the_same_id_with_another_body_is_refused(event):
    db, configs, drawn, ingest, logged = event
    messages, _ = messages_of_round(configs[0], drawn["tables"][0], 5)
    ingest.handle(*messages[0])
    ingest.handle(*messages[1])
    other, _ = messages_of_round(configs[0], drawn["tables"][0], 6)
    assert ingest.handle(*other[1]) == []
    assert logged[-1][0] == "refused" and "conflict" in logged[-1][2]
    assert json.loads(ingest.club.store.actions(configs[0]["device"])[1]["body"]) == json.loads(messages[1][1][65:])


@pytest.mark.parametrize("case", ["forged device", "other table's topic", "wrong key", "unsigned", "oversized",
                                  "malformed body", "not our topic", "bad seq"])
def test_bad_messages_are_logged_and_refused(event, case):
    db, configs, drawn, ingest, logged = event
    first, second = configs
    messages, _ = messages_of_round(first, drawn["tables"][0], 7)
    topic, payload = messages[0]
    key = bytes.fromhex(first["key"])
    if case == "forged device":
        topic = protocol.topic("t09-ffffff", "up")
    elif case == "other table's topic":
        topic = protocol.topic(second["device"], "up")
    elif case == "wrong key":
        payload = protocol.sign(bytes.fromhex(second["key"]), json.loads(payload[65:]))
    elif case == "unsigned":
        payload = payload[65:]
    elif case == "oversized":
        payload = payload + b" " * protocol.MAX_MESSAGE
    elif case == "malformed body":
        payload = protocol.sign(key, {"v": 1, "device": first["device"], "game": 1, "seq": 1, "prev": 0,
                                      "action": {"op": "format"}})
    elif case == "not our topic":
        topic = "coinche/%s/ack" % first["device"]
    elif case == "bad seq":
        payload = protocol.sign(key, protocol.action_body(first["device"], 1, 5, {"op": "add", "deal": {}}, 5))
    assert ingest.handle(topic, payload) == []
    assert logged[-1][0] == "refused" and ingest.counts["refused"] == 1
    assert ingest.club.store.actions(first["device"]) == [] and ingest.club.store.actions(second["device"]) == []
    # and the next good message is taken
    assert ack_of(ingest.handle(*messages[0]), first)[1] > 0


def test_a_different_result_is_a_correction_not_a_second_code(event):
    db, configs, drawn, ingest, logged = event
    seat = drawn["tables"][0]
    club(db, "result", "--round", 1, "--table", seat["table"], "--ns", 1000, "--ew", 1000)
    messages, _ = messages_of_round(configs[0], seat, 8)
    for message in messages:
        ingest.handle(*message)
    assert logged[-1][0] == "not filed" and "correction" in logged[-1][2]
    assert ingest.club.store.results()[(1, seat["table"])]["NS"] == 1000


def test_a_restarted_ingest_reads_the_chain_back(event):
    db, configs, drawn, ingest, logged = event
    messages, _ = messages_of_round(configs[0], drawn["tables"][0], 9)
    for message in messages[:5]:
        ingest.handle(*message)
    again = Ingest(ingest.club, lambda *a: None)
    assert again.chains[configs[0]["device"]].end == ingest.chains[configs[0]["device"]].end
    assert ack_of(again.handle(*messages[4]), configs[0]) == ingest.chains[configs[0]["device"]].end


def run_cli(db, argv, stdin=""):
    out, err = io.StringIO(), io.StringIO()
    import sys
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(["--db", str(db)] + argv, out, err)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def test_provisioning_needs_the_admin_password_and_writes_the_device_file(tmp_path):
    db = make_event(tmp_path, 4, 2, 12)
    out = str(tmp_path / "t3.json")
    argv = ["provision", "--table", "3", "--out", out, "--broker", "192.168.1.10:1883", "--ssid", "Club"]
    status, _, err = run_cli(db, argv, "not-the-password\nwifi-password\n")
    assert status == 2 and "wrong admin password" in err and not os.path.exists(out)
    assert run_cli(db, argv[:-2], ADMIN_PASSWORD + "\nClub du jeudi\nwifi-password\n")[0] == 0
    with open(out) as f:
        doc = json.load(f)
    assert doc["wifi"] == {"ssid": "Club du jeudi", "password": "wifi-password"}
    assert doc["broker"] == {"host": "192.168.1.10", "port": 1883} and doc["table"] == 3
    assert doc["mqtt"]["user"] == doc["device"] and len(bytes.fromhex(doc["key"])) == 32
    assert os.stat(out).st_mode & 0o077 == 0
    with Club(db) as opened:
        stored, = opened.store.devices()
    assert stored["id"] == doc["device"] and stored["key_hex"] == doc["key"] and stored["table_number"] == 3
    assert doc["mqtt"]["password"] not in stored["mqtt_hash"]
    for bad in (["--table", "50"], ["--table", "0"]):
        status, _, err = run_cli(db, argv[:1] + bad + argv[3:], ADMIN_PASSWORD + "\nwifi-password\n")
        assert status == 2 and "--table" in err


def test_provisioning_resolves_a_broker_name_here_and_refuses_one_that_does_not(tmp_path):
    db = make_event(tmp_path, 4, 2, 12)
    out = str(tmp_path / "t1.json")
    stdin = ADMIN_PASSWORD + "\nwifi-password\n"
    argv = ["provision", "--table", "1", "--out", out, "--ssid", "Club", "--broker"]
    status, answer, _ = run_cli(db, argv + ["localhost:1883"], stdin)
    assert status == 0 and "localhost is 127.0.0.1" in json.loads(answer)["resolved"]
    with open(out) as f:
        assert json.load(f)["broker"] == {"host": "127.0.0.1", "port": 1883}  # the address, never the name
    os.remove(out)
    for bad, said in (("no-such-broker.invalid:1883", "does not resolve on this machine"),
                      ("[::1]:1883", "IPv6")):
        status, _, err = run_cli(db, argv + [bad], stdin)
        assert status == 2 and said in err and "--broker" in err
        assert not os.path.exists(out) and not os.path.exists(out + ".new")
    with Club(db) as opened:
        assert len(opened.store.devices()) == 1  # only the table provisioned with a name that resolved


def test_the_password_file_is_mosquittos_pbkdf2():
    entry = mosquitto_hash("secret", bytes(12))
    kind, rounds, salt, digest = entry.split("$")[1:]
    assert (kind, rounds) == ("7", "101")
    assert base64.b64decode(digest) == hashlib.pbkdf2_hmac("sha512", b"secret", bytes(12), 101, 64)


def test_broker_files_a_table_speaks_only_as_itself(tmp_path):
    db = make_event(tmp_path, 4, 2, 12)
    configs = provision_tables(db, 2, 1883)
    status, out, err = run_cli(db, ["broker", "--port", "18830", "--config-only"])
    assert status == 0, err
    folder = link_folder(db)
    with open(os.path.join(folder, "mosquitto.conf")) as f:
        conf = f.read().splitlines()
    for line in ("allow_anonymous false", "persistence true", "autosave_on_changes true", "autosave_interval 1",
                 "listener 18830 0.0.0.0", "max_queued_messages 2000", "log_type debug",
                 "plugin_opt_config_file %s" % os.path.join(folder, DYNSEC_NAME)):
        assert line in conf
    # the plugin checks the client id against the user's: Mosquitto would replace it first
    assert "use_username_as_clientid true" not in conf
    assert not any(line.startswith(("password_file", "acl_file")) for line in conf)
    path = os.path.join(folder, DYNSEC_NAME)
    assert os.stat(path).st_mode & 0o777 == 0o600
    with open(path) as f:
        document = json.load(f)
    assert document["defaultACLAccess"] == {"publishClientSend": False, "publishClientReceive": False,
                                            "subscribe": False, "unsubscribe": True}
    clients = {c["username"]: c for c in document["clients"]}
    # the organiser, its reader of each table's up (a session and a queue per table), the tables
    assert list(clients) == ["organiser"] + [name for c in configs for name in ("organiser-" + c["device"], c["device"])]
    assert all(client["clientid"] == user for user, client in clients.items())  # one client id per user
    table = clients[configs[0]["device"]]
    assert base64.b64decode(table["password"]) == hashlib.pbkdf2_hmac(
        "sha512", configs[0]["mqtt"]["password"].encode(), base64.b64decode(table["salt"]), table["iterations"], 64)
    acls = {role["rolename"]: [(a["acltype"], a["topic"], a["allow"]) for a in role["acls"]] for role in document["roles"]}
    device = configs[0]["device"]
    assert [r["rolename"] for r in table["roles"]] == [device]
    assert acls[device] == [("publishClientSend", "coinche/%s/up" % device, True),
                            ("subscribeLiteral", "coinche/%s/ack" % device, True),
                            ("publishClientReceive", "coinche/%s/ack" % device, True),
                            ("subscribeLiteral", "coinche/%s/draw" % device, True),
                            ("publishClientReceive", "coinche/%s/draw" % device, True),
                            ("subscribeLiteral", "coinche/%s/clock" % device, True),
                            ("publishClientReceive", "coinche/%s/clock" % device, True)]
    assert acls["organiser-" + device] == [(kind, "coinche/%s/up" % device, True) for kind in
                                           ("publishClientSend", "publishClientReceive", "subscribeLiteral")]
    assert acls["organiser"] == [("publishClientSend", "coinche/+/ack", True),
                                 ("publishClientSend", "coinche/+/draw", True),
                                 ("publishClientSend", "coinche/+/clock", True)]


def test_a_second_game_without_its_new_does_not_replay(event):
    db, configs, drawn, ingest, logged = event
    config = configs[0]
    key = bytes.fromhex(config["key"])
    messages, _ = messages_of_round(config, drawn["tables"][0], 10)
    for message in messages[:3]:
        ingest.handle(*message)
    last = json.loads(messages[2][1][65:])["seq"]
    deal = {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 100}
    body = protocol.action_body(config["device"], 2, last + 1, {"op": "add", "deal": deal}, last)
    ack_of(ingest.handle(protocol.topic(config["device"], "up"), protocol.sign(key, body)), config)
    assert logged[-1][0] == "refused" and "game 2 does not replay" in logged[-1][2]
    assert ingest.refused == {"wrong_setup": 1} and ingest.live()[0]["problem"] == "wrong_setup"
    assert ingest.chains[config["device"]].end == (2, last + 1)  # stored and acknowledged all the same


def test_rules_that_make_no_sense_are_logged_not_raised(event):
    db, configs, drawn, ingest, logged = event
    config = configs[0]
    key = bytes.fromhex(config["key"])
    for seq, rules in ((1, {"preset": "nope", "options": [1, 2]}), (2, {"preset": "classic2000", "options": "x"})):
        body = protocol.action_body(config["device"], seq, seq, {"op": "new", "rules": rules}, seq - 1)
        ingest.handle(protocol.topic(config["device"], "up"), protocol.sign(key, body))
        assert logged[-1][0] == "refused" and "does not replay" in logged[-1][2]
    assert ingest.chains[config["device"]].end == (2, 2)


def new_round_message(config, concours, options=None, seq=1):
    spec = Rules("classic2000", options or {"deals": 12}).spec()
    spec["dealer"] = "N"
    spec["concours"] = concours
    return (protocol.topic(config["device"], "up"),
            protocol.sign(bytes.fromhex(config["key"]), protocol.action_body(config["device"], 1, seq,
                                                                             {"op": "new", "rules": spec}, seq - 1)))


def setup_of(event, concours, options=None):
    """The live row's problem and the log's last line after a round's `new` at table 1."""
    db, configs, drawn, ingest, logged = event
    ingest.handle(*new_round_message(configs[0], concours, options))
    row, = ingest.live()
    return row["problem"], logged[-1][2] if logged else ""


def seat_one(event):
    seat = event[2]["tables"][0]
    return {"round": 1, "table": 1, "teams": {"NS": seat["NS"], "EW": seat["EW"]}}


def test_a_round_as_drawn_has_no_problem(event):
    assert setup_of(event, seat_one(event)) == (None, "")


def test_a_round_with_the_teams_the_other_way_round_has_no_problem(event):
    info = seat_one(event)
    info["teams"] = {"NS": info["teams"]["EW"], "EW": info["teams"]["NS"]}
    assert setup_of(event, info) == (None, "")


def test_a_round_at_another_table_is_a_wrong_set_up(event):
    problem, line = setup_of(event, dict(seat_one(event), table=2))
    assert problem == "wrong_setup" and "says table 2, the device is table 1's" in line


def test_a_round_with_other_teams_is_a_wrong_set_up(event):
    problem, line = setup_of(event, dict(seat_one(event), teams={"NS": 1, "EW": 1}))
    assert problem == "wrong_setup" and "the draw puts team" in line


def test_a_round_under_other_options_is_a_wrong_set_up(event):
    problem, line = setup_of(event, seat_one(event), {"deals": 12, "generale": True})
    assert problem == "wrong_setup" and "other rules" in line


def test_a_round_not_drawn_yet_is_a_wrong_set_up_and_the_drawn_round_started_again_is_not(event):
    db, configs, drawn, ingest, logged = event
    problem, line = setup_of(event, dict(seat_one(event), round=2))
    assert problem == "wrong_setup" and "round 2 has not been drawn" in line
    for table in drawn["tables"]:  # round 1 over: the organiser draws round 2
        ingest.club.result(1, table["table"], 1000, 620)
    second = club(db, "draw")
    seat = second["tables"][0]
    ingest.handle(*new_round_message(configs[0], {"round": 2, "table": 1, "teams": {"NS": seat["NS"], "EW": seat["EW"]}},
                                     seq=2))
    row, = ingest.live()
    assert row["problem"] is None and ingest.refused == {"wrong_setup": 1}
