"""The club's Mosquitto as `broker` configures it, on 127.0.0.1: nobody without
credentials gets in, a table reads only its own topics, QoS 1 messages queued for
the organiser survive a SIGKILL of the broker; the admin page stays closed to a
client without the organiser's password."""
import http.cookiejar
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

import paho.mqtt.client as mqtt
import pytest

from host_tools.rigs import link_run
from host_tools.club.link_broker import link_folder
from host_tools.club.service import Club
from link import protocol

pytestmark = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                reason="mosquitto is not installed (Debian: apt-get install mosquitto)")


@pytest.fixture
def running(tmp_path):
    db = link_run.make_event(tmp_path, 4, 2, 12)
    port = link_run.free_port()
    configs = link_run.provision_tables(db, 2, port)
    broker = link_run.broker_process(db, port).start()
    processes = [broker]
    try:
        yield db, port, configs, broker, processes
    finally:
        for process in reversed(processes):
            process.stop()


def connect(port, user=None, password=None, name="probe"):
    """(client, the CONNACK's reason code) after one connection attempt."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name, protocol=mqtt.MQTTv311)
    answer = []
    client.on_connect = lambda c, u, f, reason, p: answer.append(reason)
    if user:
        client.username_pw_set(user, password)
    client.connect("127.0.0.1", port, keepalive=10)
    client.loop_start()
    end = time.monotonic() + 10
    while not answer and time.monotonic() < end:
        time.sleep(0.02)
    return client, answer[0] if answer else None


def test_without_credentials_nobody_gets_in(running):
    db, port, configs, broker, processes = running
    for user, password in ((None, None), (configs[0]["device"], "wrong"), ("stranger", "x")):
        client, reason = connect(port, user, password)
        client.loop_stop()
        assert reason is not None and reason.is_failure, (user, reason)


def test_a_table_reads_only_its_own_acknowledgements(running):
    db, port, configs, broker, processes = running
    with Club(db) as opened:
        from host_tools.club.link_broker import service_password
        secret = service_password(opened)
    organiser, reason = connect(port, "organiser", secret, "organiser")
    assert not reason.is_failure
    for config in configs:
        body = protocol.ack_body(config["device"], 1, 5)
        organiser.publish(protocol.topic(config["device"], "ack"), protocol.sign(bytes.fromhex(config["key"]), body),
                          qos=1, retain=True).wait_for_publish(5)
    first, other = configs
    table, reason = connect(port, first["device"], first["mqtt"]["password"], first["device"])
    assert not reason.is_failure
    got = []
    table.on_message = lambda c, u, message: got.append(message.topic)
    table.subscribe([(protocol.topic(first["device"], "ack"), 1), (protocol.topic(other["device"], "ack"), 1),
                     ("coinche/#", 1)])
    time.sleep(1.0)
    organiser.loop_stop()
    table.loop_stop()
    assert protocol.topic(first["device"], "ack") in got
    assert protocol.topic(other["device"], "ack") not in got


def test_a_table_reads_only_its_own_clock_and_cannot_write_one(running):
    """The round clock (retained, the organiser's): a table receives its own, never
    another table's, and a clock it publishes itself is denied: the retained one stays
    the organiser's."""
    db, port, configs, broker, processes = running
    with Club(db) as opened:
        from host_tools.club.link_broker import service_password
        secret = service_password(opened)
    organiser, reason = connect(port, "organiser", secret, "organiser")
    assert not reason.is_failure
    for config in configs:
        body = protocol.clock_body(config["device"], 1, 600, True)
        organiser.publish(protocol.topic(config["device"], "clock"), protocol.sign(bytes.fromhex(config["key"]), body),
                          qos=1, retain=True).wait_for_publish(5)
    first, other = configs
    mine, theirs = protocol.topic(first["device"], "clock"), protocol.topic(other["device"], "clock")
    table, reason = connect(port, first["device"], first["mqtt"]["password"], first["device"])
    assert not reason.is_failure
    forged = protocol.sign(bytes.fromhex(first["key"]), protocol.clock_body(first["device"], 1, 9999, False))
    table.publish(mine, forged, qos=1, retain=True)
    table.publish(theirs, forged, qos=1, retain=True)
    time.sleep(0.5)
    got = []
    table.on_message = lambda c, u, message: got.append((message.topic, bytes(message.payload)))
    table.subscribe([(mine, 1), (theirs, 1), ("coinche/#", 1)])
    time.sleep(1.0)
    organiser.loop_stop()
    table.loop_stop()
    assert [topic for topic, payload in got] == [mine]
    assert protocol.open_message(bytes.fromhex(first["key"]), got[0][1])["left"] == 600


def test_queued_messages_survive_a_sigkill_of_the_broker(running):
    """The organiser's session holds what the tables sent while it was away; the
    broker saves it on every change, so a SIGKILL loses none of it."""
    db, port, configs, broker, processes = running
    web = link_run.free_port()
    service = link_run.service_process(db, port, web).start()
    processes.append(service)
    deadline = time.monotonic() + 10
    while "link: connected" not in service.log() and time.monotonic() < deadline:
        time.sleep(0.05)
    service.stop()  # the session stays: it is persistent
    config = configs[0]
    table, reason = connect(port, config["device"], config["mqtt"]["password"], config["device"])
    key = bytes.fromhex(config["key"])
    prev = 0
    for seq in (1, 2, 3):
        action = {"op": "new", "rules": {"preset": "classic2000", "options": {"deals": 12}}} if seq == 1 else \
            {"op": "add", "deal": {"taker": "NS", "bid": 80, "trump": "H", "coinche": 0, "points": 90}}
        table.publish(protocol.topic(config["device"], "up"),
                      protocol.sign(key, protocol.action_body(config["device"], 1, seq, action, prev)),
                      qos=1).wait_for_publish(5)
        prev = seq
    table.loop_stop()
    time.sleep(0.3)
    broker.kill()
    broker.start()
    assert "Permission denied" not in broker.log()
    service.start()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        with Club(db) as opened:
            if len(opened.store.actions(config["device"])) == 3:
                break
        time.sleep(0.1)
    with Club(db) as opened:
        assert [row["seq"] for row in opened.store.actions(config["device"])] == [1, 2, 3]
    with open(os.path.join(link_folder(db), "mosquitto.log")) as f:
        assert "Permission denied" not in f.read()


def test_the_admin_page_needs_the_organisers_password(running):
    db, port, configs, broker, processes = running
    web = link_run.free_port()
    processes.append(link_run.service_process(db, port, web).start())
    base = "http://127.0.0.1:%d" % web

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as answer:
        opener.open(base + "/admin", timeout=10)
    assert answer.value.code == 302 and "/admin/login" in answer.value.headers["Location"]
    with pytest.raises(urllib.error.HTTPError) as answer:
        opener.open(base + "/admin/draw", data=b"token=x", timeout=10)
    assert answer.value.code == 302
    with pytest.raises(urllib.error.HTTPError) as answer:
        opener.open(base + "/admin/login", data=urllib.parse.urlencode({"password": "guess"}).encode(), timeout=10)
    assert answer.value.code == 401
    assert Club(db).store.rounds() == []
    live = json.loads(urllib.request.urlopen(base + "/live.json", timeout=10).read())
    assert "key_hex" not in json.dumps(live)
    # with the password: the admin page lists the provisioned tables, never their secrets
    session = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = session.open(base + "/admin/login", data=urllib.parse.urlencode(
        {"password": link_run.ADMIN_PASSWORD}).encode(), timeout=10).read().decode()
    assert "Tables sur la liaison" in page  # the event's language, French by default
    for config in configs:
        assert config["device"] in page and config["key"] not in page and config["mqtt"]["password"] not in page
