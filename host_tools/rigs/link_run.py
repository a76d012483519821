"""Starting the real parts on loopback for the link's tests and load bench: an event
with provisioned tables, the club's Mosquitto (the `broker` command) and the
organiser's service (`serve`), each a process that can be killed and started again.
"""
import io
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

from host_tools.common import paths
from host_tools.club.cli import main

ADMIN_PASSWORD = "organiser-secret"


def mosquitto_program():
    return shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def club(db, *argv, stdin=None):
    """One command of the club's command line, in this process; its JSON answer."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        status = main(["--db", str(db)] + [str(a) for a in argv], out, err)
    finally:
        sys.stdin = saved
    if status != 0:
        raise RuntimeError("club %s: %s" % (" ".join(map(str, argv)), err.getvalue()))
    text = out.getvalue()
    return json.loads(text) if text.startswith("{") else text


def make_event(folder, teams, rounds, deals, preset="classic2000", seed=7):
    """An event with teams and the admin password; its path."""
    db = os.path.join(str(folder), "event.db")
    club(db, "new", "--name", "Concours", "--rounds", rounds, "--deals", deals, "--rules", preset, "--seed", seed)
    club(db, "team", "add", *["Team %d" % n for n in range(1, teams + 1)])
    club(db, "password", stdin=ADMIN_PASSWORD + "\n")
    return db


def provision_tables(db, tables, broker_port):
    """Provisions tables 1..tables; [TABLE.json as a dict]."""
    out = []
    for table in range(1, tables + 1):
        path = os.path.join(os.path.dirname(db), "table%d.json" % table)
        club(db, "provision", "--table", table, "--out", path, "--broker", "127.0.0.1:%d" % broker_port,
             "--ssid", "Club", stdin=ADMIN_PASSWORD + "\nclub-wifi-pass\n")
        with open(path, encoding="utf-8") as f:
            out.append(json.load(f))
    return out


class Process:
    """A command of ours in its own process, its output in a file, killed at will."""

    def __init__(self, argv, log_path, port=None):
        self.argv = argv
        self.log_path = log_path
        self.port = port
        self.proc = None

    def start(self, timeout=15.0):
        log = open(self.log_path, "ab")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT, cwd=paths.ROOT, env=env,
                                     start_new_session=True)
        log.close()
        if self.port and not wait_port(self.port, timeout):
            self.stop()
            raise RuntimeError("%s did not listen on %d:\n%s" % (self.argv, self.port, self.log()[-3000:]))
        return self

    def kill(self):
        """SIGKILL, as a power cut of that machine would stop it."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()


def broker_process(db, port, autosave=1):
    return Process([sys.executable, "-m", "host_tools.club", "--db", db, "broker", "--host", "127.0.0.1", "--port",
                    str(port), "--autosave", str(autosave)], os.path.join(os.path.dirname(db), "broker.out"), port)


def service_process(db, broker_port, web_port):
    return Process([sys.executable, "-m", "host_tools.club", "--db", db, "serve", "--host", "127.0.0.1", "--port",
                    str(web_port), "--broker", "127.0.0.1:%d" % broker_port, "--refresh", "60"],
                   os.path.join(os.path.dirname(db), "service.out"), web_port)
