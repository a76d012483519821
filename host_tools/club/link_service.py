"""The organiser's service on the club's broker: takes every table's actions
(link_ingest.Ingest judges and stores them), acknowledges each after it is
committed, and publishes each table's draw when a round is drawn.

The session is persistent (a fixed client id, clean_session false) and every
message is acknowledged to the broker only after the database commit
(manual_ack): a service killed mid-write gets the same message again from the
broker when it comes back, and the database says whether it was stored.

Messages are stored in batches: a worker takes every message waiting (up to
BATCH) and commits them in one transaction, then sends their acknowledgements. A
commit waits for the disk (8 ms here): one commit per message would cap the
service at about a hundred deals a second, a batch costs the same one wait.
"""
import collections
import queue
import sys
import threading
import time

import paho.mqtt.client as mqtt

from host_tools.club.link_broker import SERVICE_USER, current_devices, parse_address, service_password
from host_tools.club.link_ingest import Ingest
from host_tools.club.service import Club

from link import protocol

CLIENT_ID = "coinche-organiser"
DRAW_POLL_SECONDS = 1.0
BATCH = 500


def stderr_log(kind, device, text):
    sys.stderr.write("link: %s %s: %s\n" % (kind, device, text))
    sys.stderr.flush()


def draw_messages(club, round_info, previous, devices):
    """[(topic, payload)] of one round's draw, one per device; `previous` the round
    before (its tables' teams are told where they go next) or None."""
    names = {t["number"]: t["name"] for t in club.store.teams()}
    where = {}
    for t in round_info["tables"]:
        where[t["NS"]] = t["table"]
        where[t["EW"]] = t["table"]
    seats = {t["table"]: t for t in round_info["tables"]}
    before = {t["table"]: t for t in previous["tables"]} if previous else {}
    out = []
    for device in devices:
        table = device["table_number"]
        seat = seats.get(table)
        teams = {"NS": seat["NS"], "EW": seat["EW"]} if seat else None
        team_names = {"NS": names[seat["NS"]], "EW": names[seat["EW"]]} if seat else None
        moves = None
        if table in before:
            last = before[table]
            moves = {side: {"team": last[side], "table": where.get(last[side], 0)} for side in ("NS", "EW")}
        body = protocol.draw_body(device["id"], round_info["round"], table, teams, team_names, moves)
        out.append((protocol.topic(device["id"], "draw"), protocol.sign(bytes.fromhex(device["key_hex"]), body)))
    return out


class LinkService:
    def __init__(self, db, broker=None, log=stderr_log):
        self.db = db
        self.lock = threading.Lock()  # one event connection, used by the MQTT thread and the draw poll
        self.club = Club(db)
        self.recent = collections.deque(maxlen=30)  # the last log lines, for the admin page

        def logged(kind, device, text):
            self.recent.append({"at": time.strftime("%H:%M:%S"), "kind": kind, "device": device, "text": text[:200]})
            log(kind, device, text)
        self.log = logged
        address = broker or self.club.store.meta("link_broker")
        if not address:
            from host_tools.club.errors import ClubError
            raise ClubError("no broker: start one with `broker`, or give serve --broker HOST:PORT")
        self.host, self.port = parse_address(address, "--broker")
        self.ingest = Ingest(self.club, self.log)
        self.published_round = 0
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self.inbox = queue.Queue()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=CLIENT_ID, clean_session=False,
                             protocol=mqtt.MQTTv311, manual_ack=True)
        client.username_pw_set(SERVICE_USER, service_password(self.club))
        client.reconnect_delay_set(0.2, 2)
        client.max_inflight_messages_set(100)
        client.max_queued_messages_set(0)
        client.on_connect = self.on_connect
        client.on_disconnect = self.on_disconnect
        client.on_message = self.on_message
        self.client = client

    def start(self):
        """Connects (retrying in the background until the broker answers) and polls for draws."""
        self.client.connect_async(self.host, self.port, keepalive=15)
        self.client.loop_start()
        self.poller = threading.Thread(target=self.poll_draws, name="draw-poll", daemon=True)
        self.poller.start()
        self.worker = threading.Thread(target=self.work, name="ingest", daemon=True)
        self.worker.start()
        self.log("started", "-", "broker %s:%d" % (self.host, self.port))

    def stop(self):
        self.stopping.set()
        self.client.disconnect()
        self.client.loop_stop()
        with self.lock:
            self.club.close()

    def on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.log("broker", "-", "refused the service: %s" % reason)
            return
        client.subscribe(protocol.topic("+", "up"), qos=1)
        self.connected.set()
        self.published_round = 0  # retained draws again: the broker may have lost them
        self.log("connected", "-", "broker %s:%d" % (self.host, self.port))

    def on_disconnect(self, client, userdata, flags, reason, properties):
        self.connected.clear()
        if not self.stopping.is_set():
            self.log("disconnected", "-", "%s; reconnecting" % reason)

    def on_message(self, client, userdata, message):
        self.inbox.put(message)

    def work(self):
        while not self.stopping.is_set():
            try:
                batch = [self.inbox.get(timeout=0.5)]
            except queue.Empty:
                continue
            while len(batch) < BATCH:
                try:
                    batch.append(self.inbox.get_nowait())
                except queue.Empty:
                    break
            self.store_batch(batch)

    def store_batch(self, batch):
        """Every message of the batch judged and stored in one commit; then the
        acknowledgements (the last one of each table) and the broker's PUBACKs."""
        replies = {}
        resync = False
        try:
            with self.lock:
                with self.club.store.transaction():
                    for message in batch:
                        self.club.store.execute("SAVEPOINT message")
                        try:
                            for topic, payload, retain in self.ingest.handle(message.topic, message.payload):
                                replies[topic] = (payload, retain)
                        except Exception as e:  # nothing a message holds stops the service
                            # its writes undone; the memory is read again from the event after the commit
                            self.club.store.execute("ROLLBACK TO SAVEPOINT message")
                            self.log("error", "-", "%s: %r: refused" % (message.topic[:80], e))
                            resync = True
                        self.club.store.execute("RELEASE SAVEPOINT message")
                if resync:
                    self.ingest = Ingest(self.club, self.log)
        except Exception as e:
            # nothing of the batch is kept: read the event again, and reconnect so that
            # the broker sends the messages again (none of them was acknowledged)
            self.log("error", "-", "a batch of %d was not stored (%r): reconnecting" % (len(batch), e))
            with self.lock:
                self.ingest = Ingest(self.club, self.log)
            self.client.reconnect()
            return
        for topic, (payload, retain) in replies.items():
            self.client.publish(topic, payload, qos=1, retain=retain)
        for message in batch:
            self.client.ack(message.mid, message.qos)

    def poll_draws(self):
        while not self.stopping.wait(DRAW_POLL_SECONDS):
            if not self.connected.is_set():
                continue
            try:
                self.publish_draws()
            except Exception as e:
                self.log("error", "-", "draw: %r" % e)

    def publish_draws(self):
        with self.lock:
            rounds = self.club.store.rounds()
            if not rounds or rounds[-1]["round"] == self.published_round:
                return
            self.ingest.devices.update({d["id"]: d for d in self.club.store.devices()})
            messages = draw_messages(self.club, rounds[-1], rounds[-2] if len(rounds) > 1 else None,
                                     current_devices(self.club))
            number = rounds[-1]["round"]
        for topic, payload in messages:
            self.client.publish(topic, payload, qos=1, retain=True)
        self.published_round = number
        self.log("draw", "-", "round %d published to %d tables" % (number, len(messages)))

    def status(self):
        with self.lock:
            return {"connected": self.connected.is_set(), "tables": self.ingest.live(),
                    "counts": dict(self.ingest.counts), "at": time.time()}

    def admin_status(self):
        """status() with the provisioned devices and the last log lines (the admin page only)."""
        out = self.status()
        with self.lock:
            out["devices"] = [{"id": d["id"], "table": d["table_number"], "created": d["created"]}
                              for d in self.club.store.devices()]
        out["log"] = list(self.recent)[::-1]
        return out
