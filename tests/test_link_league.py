"""A league: the club's broker bridged to a league's (two real Mosquittos on
127.0.0.1), and the event kept in PostgreSQL behind the same storage interface."""
import glob
import os
import pathlib
import pwd
import shutil
import subprocess
import tempfile
import time

import paho.mqtt.client as mqtt
import pytest

from host_tools.rigs import link_run
from host_tools.club.link_broker import write_league_broker
from host_tools.club.service import Club
from link import protocol

needs_mosquitto = pytest.mark.skipif(link_run.mosquitto_program() is None,
                                     reason="mosquitto is not installed (Debian: apt-get install mosquitto)")


@needs_mosquitto
def test_a_message_published_at_the_club_arrives_at_the_league(tmp_path):
    league_port, club_port = link_run.free_port(), link_run.free_port()
    league_dir = str(tmp_path / "league")
    config = write_league_broker(league_dir, "127.0.0.1", league_port, {"jeudi": "bridge-password"})
    league = link_run.Process([link_run.mosquitto_program(), "-c", config], str(tmp_path / "league.out"),
                              league_port).start()
    db = link_run.make_event(tmp_path, 4, 2, 12)
    table, = link_run.provision_tables(db, 1, club_port)
    link_run.club(db, "league", "--club", "jeudi", "--league", "127.0.0.1:%d" % league_port, "--user", "jeudi",
                  stdin="bridge-password\n")
    club = link_run.broker_process(db, club_port).start()
    got = []
    try:
        with open(os.path.join(league_dir, "reader")) as f:
            reader = f.read().strip()
        listener = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="league-reader", protocol=mqtt.MQTTv311)
        listener.username_pw_set("league", reader)
        listener.on_message = lambda c, u, message: got.append((message.topic, message.payload))
        listener.on_connect = lambda c, u, f, reason, p: c.subscribe("league/#", qos=1)
        listener.connect("127.0.0.1", league_port)
        listener.loop_start()
        sender = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=table["device"], protocol=mqtt.MQTTv311)
        sender.username_pw_set(table["device"], table["mqtt"]["password"])
        sender.connect("127.0.0.1", club_port)
        sender.loop_start()
        payload = protocol.sign(bytes.fromhex(table["key"]), protocol.action_body(
            table["device"], 1, 1, {"op": "new", "rules": {"preset": "classic2000"}}, 0))
        end = time.monotonic() + 20
        while not got and time.monotonic() < end:  # the bridge connects in its own time: publish until it carries
            sender.publish(protocol.topic(table["device"], "up"), payload, qos=1)
            time.sleep(0.5)
        sender.loop_stop()
        listener.loop_stop()
    finally:
        club.stop()
        league.stop()
    assert got, "nothing arrived at the league:\n" + league.log()[-2000:]
    topic, body = got[0]
    assert topic == "league/jeudi/coinche/%s/up" % table["device"] and body == payload


def postgres_binaries():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        return None
    folder = os.path.dirname(found[-1])
    return os.path.join(folder, "initdb"), os.path.join(folder, "pg_ctl")


@pytest.fixture
def postgres(tmp_path):
    """A PostgreSQL server of our own on a loopback port (as the postgres user when we are root)."""
    binaries = postgres_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError as e:
        pytest.skip("psycopg cannot be loaded: %s" % e)
    initdb, pg_ctl = binaries
    prefix = []
    # not under pytest's folder: its parents are closed to the postgres user
    folder = pathlib.Path(tempfile.mkdtemp(prefix="club-pg-"))
    if os.getuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root without a postgres user to run the server as")
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root without runuser to start the server as postgres")
        prefix = [runuser, "-u", "postgres", "--"]
    if prefix:
        shutil.chown(folder, "postgres")
    port = link_run.free_port()
    done = subprocess.run(prefix + [initdb, "-D", str(folder / "data"), "-U", "club", "--auth=trust", "-E", "UTF8"],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("initdb failed: %s" % done.stderr[-500:])
    started = subprocess.run(prefix + [pg_ctl, "-D", str(folder / "data"), "-l", str(folder / "log"), "-w", "-t", "60",
                                       "-o", "-p %d -k %s -c listen_addresses=127.0.0.1" % (port, folder), "start"],
                             capture_output=True, text=True, timeout=90)
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("PostgreSQL did not start: %s" % started.stderr[-500:])
    try:
        yield "postgresql://club@127.0.0.1:%d/postgres" % port
    finally:
        subprocess.run(prefix + [pg_ctl, "-D", str(folder / "data"), "-m", "immediate", "stop"], capture_output=True,
                       timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def test_an_event_in_postgresql(postgres, tmp_path):
    url = postgres
    link_run.club(url, "new", "--name", "Ligue", "--rounds", 2, "--deals", 12, "--rules", "classic2000", "--seed", 3)
    link_run.club(url, "team", "add", "A", "B", "C", "D")
    drawn = link_run.club(url, "draw")
    first = drawn["tables"][0]
    code = link_run.club(url, "code", "--round", 1, "--table", 1, "--ns-team", first["NS"], "--ew-team", first["EW"],
                         "--ns", 1500, "--ew", 900)["code"]
    link_run.club(url, "result", "--code", code)
    with pytest.raises(RuntimeError, match="already has a result"):
        link_run.club(url, "result", "--code", code)
    link_run.club(url, "correct", "--round", 1, "--table", 1, "--ns", 1400, "--ew", 1000, "--why", "sheet", "--who", "me")
    with Club(url) as opened:
        assert opened.store.results()[(1, 1)]["NS"] == 1400
        assert len(opened.corrections()) == 1
        opened.store.put_device("t01-abcdef", 1, "00" * 32, "$7$x", "now")
        with opened.store.transaction():
            opened.store.add_action("t01-abcdef", 1, 5, 0, '{"v":1}', "now")
        assert opened.store.action("t01-abcdef", 1, 5) == {"prev": 0, "body": '{"v":1}'}
        with pytest.raises(RuntimeError, match="rolled back"):
            with opened.store.transaction():
                opened.store.add_action("t01-abcdef", 1, 6, 5, "{}", "now")
                raise RuntimeError("rolled back")
        assert [row["seq"] for row in opened.store.actions("t01-abcdef")] == [5]
    standings = link_run.club(url, "standings", "--json", "--after", 1)
    assert {row["team"]: row["points_for"] for row in standings["ranking"]}[first["NS"]] == 1400
