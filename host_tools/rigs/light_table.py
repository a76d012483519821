"""A light table: a Python client that speaks the device's link (firmware/link/protocol.py)
for the tests and the load bench, keeping its outbox as the journal does on the
device: every action it records stays until the organiser's acknowledgement covers
it, and after any reconnect (or when no acknowledgement comes for a while)
everything after the last acknowledged (game, seq) is sent again.

It numbers its actions as a journal does: one sequence over the device's life,
with gaps where settings were recorded (they are not sent), each message naming
the seq sent before it (`prev`).
"""
import json
import random
import threading
import time

import paho.mqtt.client as mqtt


from coinche.record import RecordError, validate
from coinche.rules import Rules
from link import protocol

RESEND_SECONDS = 2.0


def simple_deal(rules, rnd):
    """A valid deal record of these rules (a bid, trump, points; sometimes a coinche)."""
    while True:
        bid = rnd.choice([b for b in rules.bids() if isinstance(b, int)])
        record = {"taker": rnd.choice(("NS", "EW")), "bid": bid, "trump": rnd.choice(rules.trumps()),
                  "coinche": rnd.choice((0, 0, 0, 1)), "points": rnd.randint(0, 162)}
        try:
            return validate(rules, record)
        except RecordError:
            continue


class LightTable:
    def __init__(self, config, port=None, seq_start=0, gaps=True, seed=0, resend_seconds=RESEND_SECONDS):
        """config: the TABLE.json a provisioning wrote (a dict); port: connect there
        instead of the broker's port (a proxy); seq_start: the journal's number before
        the first action (a device that played before)."""
        self.config = config
        self.device = config["device"]
        self.key = bytes.fromhex(config["key"])
        self.lock = threading.Lock()
        self.outbox = []  # [(game, seq, payload)] not yet acknowledged, in order
        self.acked = (0, 0)
        self.seq = seq_start
        self.prev = 0
        self.game = 0
        self.gaps = gaps
        self.rnd = random.Random(seed)
        self.draw = None
        self.sent = 0
        self.connects = 0
        self.last_progress = time.monotonic()
        self.acked_at = {}  # seq -> monotonic time its ack arrived
        self.sent_at = {}  # seq -> monotonic time it was first published
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self.device, clean_session=True,
                             protocol=mqtt.MQTTv311)
        client.username_pw_set(config["mqtt"]["user"], config["mqtt"]["password"])
        client.reconnect_delay_set(0.1, 1)
        client.max_inflight_messages_set(20)
        client.on_connect = self._on_connect
        client.on_message = self._on_message
        self.client = client
        self.host = config["broker"]["host"]
        self.port = port or config["broker"]["port"]
        self.stopping = threading.Event()
        self.resend_seconds = resend_seconds

    # -- the connection ------------------------------------------------------
    def start(self):
        self.client.connect_async(self.host, self.port, keepalive=5)
        self.client.loop_start()
        self.watch = threading.Thread(target=self._watch, daemon=True)
        self.watch.start()

    def stop(self):
        self.stopping.set()
        self.client.disconnect()
        self.client.loop_stop()

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            return
        self.connects += 1
        client.subscribe([(protocol.topic(self.device, "ack"), 1), (protocol.topic(self.device, "draw"), 1)])
        self.resend()

    def _on_message(self, client, userdata, message):
        try:
            body = protocol.open_message(self.key, message.payload)
        except protocol.MessageError:
            return  # not the organiser's: ignored, as the device does
        if body.get("device") != self.device:
            return
        if message.topic.endswith("/draw"):
            self.draw = body
            return
        got = (body.get("game"), body.get("seq"))
        if not isinstance(got[1], int):
            return
        with self.lock:
            if got[1] > self.acked[1]:
                self.acked = got
                self.last_progress = time.monotonic()
                now = time.monotonic()
                for _, seq, _ in self.outbox:
                    if seq <= got[1]:
                        self.acked_at.setdefault(seq, now)
                self.outbox = [item for item in self.outbox if item[1] > got[1]]

    def _watch(self):
        while not self.stopping.wait(0.25):
            with self.lock:
                stale = self.outbox and time.monotonic() - self.last_progress > self.resend_seconds
            if stale and self.client.is_connected():
                self.last_progress = time.monotonic()
                self.resend()

    def resend(self):
        """Everything after the last acknowledged action, again, in order."""
        with self.lock:
            pending = list(self.outbox)
        for _, _, payload in pending:
            self.client.publish(protocol.topic(self.device, "up"), payload, qos=1)
            self.sent += 1

    # -- the journal -----------------------------------------------------------
    def record(self, action):
        """One confirmed action: numbered, kept in the outbox, sent when connected."""
        with self.lock:
            if self.gaps and self.rnd.random() < 0.2:
                self.seq += 1  # a settings change: numbered by the journal, not sent
            self.seq += 1
            if action["op"] == "new":
                self.game += 1
            payload = protocol.sign(self.key, protocol.action_body(self.device, self.game, self.seq, action, self.prev))
            self.prev = self.seq
            self.outbox.append((self.game, self.seq, payload))
            self.sent_at[self.seq] = time.monotonic()
            seq = self.seq
        if self.client.is_connected():
            self.client.publish(protocol.topic(self.device, "up"), payload, qos=1)
            self.sent += 1
        return seq

    def new_round(self, preset, deals, round_number, table, teams, names=None):
        spec = Rules(preset, {"deals": deals}).spec()
        spec["dealer"] = "N"
        if names:
            spec["names"] = names
        spec["concours"] = {"round": round_number, "table": table, "teams": teams}
        return self.record({"op": "new", "rules": spec})

    def add(self, deal):
        return self.record({"op": "add", "deal": deal})

    def wait_acked(self, timeout):
        """True once the outbox is empty (everything acknowledged) within timeout seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if not self.outbox:
                    return True
            time.sleep(0.05)
        return False


def load_config(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
