"""The organiser's service on the club's broker: takes every table's actions
(link_ingest.Ingest judges and stores them), acknowledges each after it is
committed, publishes each table's draw when a round is drawn, and a timed
event's round clock to every table on each clock action (start, pause, resume,
add), retained: the seconds left when it is sent, running or paused.

Each table's `up` is read in a session of its own (user and client id
`organiser-<device>`, the broker binding client ids to users): a table that floods
fills its own queue at the broker, never another table's. The sessions are
persistent (clean_session false) and every message is acknowledged to the broker
only after the database commit (manual_ack): a service killed mid-write gets the
same message again from the broker when it comes back, and the database says
whether it was stored. The acknowledgements and the draws go out through the
organiser's own session (user and client id `organiser`).

A message retained on a table's `up` is refused and cleared. What the broker's ACL
denies never reaches the service, nor a packet over the broker's limit: the
service reads the broker's log for "Denied PUBLISH" and "oversize packet" and logs
each one as a refusal.

Messages are stored in batches: a worker takes every message waiting (up to
BATCH) and commits them in one transaction, then sends their acknowledgements. A
commit waits for the disk (8 ms here): one commit per message would cap the
service at about a hundred deals a second, a batch costs the same one wait.
"""
import collections
import json
import os
import queue
import re
import sys
import threading
import time

import paho.mqtt.client as mqtt

from host_tools.club import standings
from host_tools.club.link_broker import (LOG_NAME, MAX_PACKET, SERVICE_USER, current_devices, link_folder, parse_address,
                                         reader_user, service_password)
from host_tools.club.link_ingest import Ingest
from host_tools.club.service import Club

from link import protocol

CLIENT_ID = SERVICE_USER  # the only client id the broker lets the organiser's user in with
DENIED = re.compile(r"Denied PUBLISH from (\S+) \(.*?'([^']*)'")
LOG_READ = 1 << 20  # bytes of the broker's log read at most per poll
OVERSIZE = re.compile(r"Client (\S+) disconnected due to oversize packet")
DRAW_POLL_SECONDS = 1.0
# a running clock is sent again this often: the retained message a table reads when it
# (re)connects says the time left within this many seconds
CLOCK_REFRESH_SECONDS = 60
BATCH = 500


def stderr_log(kind, device, text):
    sys.stderr.write("link: %s %s: %s\n" % (kind, device, text))
    sys.stderr.flush()


def json_body(payload):
    return json.loads(payload[protocol.SIGNATURE_HEX + 1:])


def fitted(key, body):
    """The signed message of a draw body; when it is over the link's MAX_MESSAGE (names
    of 40 characters, each written as \\uXXXX, can be), every name in it is cut to the
    same length, the longest that fits: the table's buffers never get more."""
    try:
        return protocol.sign(key, body)
    except protocol.MessageError:
        pass
    texts = [side for side in ("names", "seats") if body.get(side)]
    longest = max(len(name) for side in texts for name in body[side].values())
    for limit in range(longest - 1, -1, -1):
        cut = dict(body)
        for side in texts:
            cut[side] = {seat: name[:limit] for seat, name in body[side].items()}
        try:
            return protocol.sign(key, cut)
        except protocol.MessageError:
            continue
    raise protocol.MessageError("a draw without names over %d bytes" % protocol.MAX_MESSAGE)


def draw_bodies(club, devices):
    """{device id: the draw body it should hold now}: the last round drawn, each
    table as the event holds it now (a swap moves teams or players; a table that is a
    forfeit since a withdrawal has no game: teams and names null, "cleared":
    "forfeit"). When the organiser undid a round that is not drawn again, every
    table is told that round has no game ("cleared": "undone"), so that a table
    that started it sees "not as drawn" and is offered nothing of it. An individual
    event's table gets its pair numbers as teams (2T-1 NS, 2T EW, what the result
    code holds), the pairs' names, and the four names seat by seat ("seats": {"N",
    "S", "E", "W"}) with the players' numbers ("players": {"NS": [P, Q], "EW": [R,
    S]}); the table's firmware reads only round, table, teams and next. Empty
    before the first draw."""
    store = club.store
    rounds = store.rounds()
    undone = [a["round"] for a in store.team_actions() if a["action"] == "undo"]
    last = rounds[-1]["round"] if rounds else 0
    if not rounds and not undone:
        return {}
    if undone and max(undone) > last:
        out = {}
        for device in devices:
            body = protocol.draw_body(device["id"], last + 1, device["table_number"], None, None)
            body["cleared"] = "undone"
            out[device["id"]] = body
        return out
    teams = store.teams()
    names = {t["number"]: t["name"] for t in teams}
    round_info = rounds[-1]
    previous = rounds[-2] if len(rounds) > 1 else None
    forfeit = standings.forfeited(teams, rounds, store.results())
    individual = club.kind() == "player"
    where = {}
    for t in round_info["tables"]:
        where[standings.seated(t["NS"])[0]] = t["table"]
        where[standings.seated(t["EW"])[0]] = t["table"]
    seats = {t["table"]: t for t in round_info["tables"]}
    before = {t["table"]: t for t in previous["tables"]} if previous else {}
    out = {}
    for device in devices:
        table = device["table_number"]
        seat = seats.get(table)
        cleared = seat is not None and (round_info["round"], table) in forfeit
        if seat is None or cleared:
            body = protocol.draw_body(device["id"], round_info["round"], table, None, None)
            if cleared:
                body["cleared"] = "forfeit"
        elif individual:
            ns, ew = seat["NS"], seat["EW"]
            body = protocol.draw_body(device["id"], round_info["round"], table,
                                      {"NS": 2 * table - 1, "EW": 2 * table},
                                      {"NS": " & ".join(names[p] for p in ns), "EW": " & ".join(names[p] for p in ew)})
            body["seats"] = {"N": names[ns[0]], "S": names[ns[1]], "E": names[ew[0]], "W": names[ew[1]]}
            body["players"] = {"NS": list(ns), "EW": list(ew)}
        else:
            moves = None
            if table in before:
                last_seat = before[table]
                moves = {side: {"team": last_seat[side], "table": where.get(last_seat[side], 0)}
                         for side in ("NS", "EW")}
            body = protocol.draw_body(device["id"], round_info["round"], table, {"NS": seat["NS"], "EW": seat["EW"]},
                                      {"NS": names[seat["NS"]], "EW": names[seat["EW"]]}, moves)
        out[device["id"]] = body
    return out


def draw_messages(club, devices):
    """[(topic, payload)] of the draw every device should hold now (draw_bodies), signed."""
    bodies = draw_bodies(club, devices)
    return [(protocol.topic(device["id"], "draw"), fitted(bytes.fromhex(device["key_hex"]), bodies[device["id"]]))
            for device in devices if device["id"] in bodies]


def clock_messages(club, devices):
    """(what the clock is now, [(topic, payload)]): the round clock every device should
    hold (link/protocol.py clock_body: the round, the seconds left now, running or
    not), signed; what it is: a key that changes with each clock action and when the
    time runs out, None (and no message) while no clock is started or the event is not
    timed. Every table gets it: a table playing another round ignores it."""
    event = club.store.event()
    view = club.clock_view(event)
    if view is None or view["round"] is None:
        return None, []
    what = (json.dumps(event["clock"], sort_keys=True), view["running"])
    return what, [(protocol.topic(device["id"], "clock"),
                   protocol.sign(bytes.fromhex(device["key_hex"]),
                                 protocol.clock_body(device["id"], view["round"], view["left_seconds"],
                                                     view["running"])))
                  for device in devices]


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
        self.published = {}  # topic -> the draw message the broker holds for that table
        self.clock_sent = {}  # topic -> (the clock's key, when) of the clock the broker holds for that table
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self.inbox = queue.Queue()  # (the reader's client, the message)
        self.password = service_password(self.club)
        self.readers = {}  # device -> the client that reads its up
        self.refused_readers = set()  # devices whose reader the broker refused (logged once)
        self.clearing = set()  # topics whose retained message the service cleared (the empty echo is not a refusal)
        self.broker_log = os.path.join(link_folder(db), LOG_NAME)
        self.broker_log_at = None  # where the broker's log was read to
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=CLIENT_ID, clean_session=False,
                             protocol=mqtt.MQTTv311)
        client.username_pw_set(SERVICE_USER, self.password)
        client.reconnect_delay_set(0.2, 2)
        client.max_inflight_messages_set(100)
        client.max_queued_messages_set(0)
        client.on_connect = self.on_connect
        client.on_disconnect = self.on_disconnect
        self.client = client

    def start(self):
        """Connects (retrying in the background until the broker answers) and polls for draws."""
        self.client.connect_async(self.host, self.port, keepalive=15)
        self.client.loop_start()
        self.read_broker_log(skip=True)
        with self.lock:
            self.start_readers()
        self.poller = threading.Thread(target=self.poll_draws, name="draw-poll", daemon=True)
        self.poller.start()
        self.worker = threading.Thread(target=self.work, name="ingest", daemon=True)
        self.worker.start()
        self.log("started", "-", "broker %s:%d" % (self.host, self.port))

    def stop(self):
        self.stopping.set()
        for reader in list(self.readers.values()) + [self.client]:
            reader.disconnect()
            reader.loop_stop()
        with self.lock:
            self.club.close()

    def start_readers(self):
        """A reader for each table let in (newly provisioned ones too), none for a device
        provisioned again since (the broker no longer lets its user in); called with the lock."""
        devices = current_devices(self.club)
        current = {device["id"] for device in devices}
        for name in [name for name in self.readers if name not in current]:
            reader = self.readers.pop(name)
            reader.disconnect()
            reader.loop_stop()
        for device in devices:
            if device["id"] in self.readers:
                continue
            name = reader_user(device["id"])
            reader = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name, clean_session=False,
                                 protocol=mqtt.MQTTv311, manual_ack=True, userdata=device["id"])
            reader.username_pw_set(name, self.password)
            reader.reconnect_delay_set(0.2, 2)
            reader.max_inflight_messages_set(100)
            reader.max_queued_messages_set(0)
            reader.on_connect = self.on_reader_connect
            reader.on_message = self.on_message
            reader.connect_async(self.host, self.port, keepalive=15)
            reader.loop_start()
            self.readers[device["id"]] = reader

    def on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            self.log("broker", "-", "refused the service: %s" % reason)
            return
        self.connected.set()
        self.published = {}  # retained draws again: the broker may have lost them
        self.clock_sent = {}
        self.log("connected", "-", "broker %s:%d" % (self.host, self.port))

    def on_reader_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            if userdata not in self.refused_readers:  # once: it tries again every 2 s
                self.refused_readers.add(userdata)
                self.log("broker", userdata, "refused the service's reader: %s (restart the broker after "
                         "provisioning a table: it lets the table in then)" % reason)
            return
        self.refused_readers.discard(userdata)
        client.subscribe(protocol.topic(userdata, "up"), qos=1)

    def on_disconnect(self, client, userdata, flags, reason, properties):
        self.connected.clear()
        if not self.stopping.is_set():
            self.log("disconnected", "-", "%s; reconnecting" % reason)

    def on_message(self, client, userdata, message):
        self.inbox.put((client, message))

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
        acknowledgements (the last one of each table) and the broker's PUBACKs.
        A message that raises anything unexpected is undone and refused by itself,
        and the event is read again at once: what follows it in the batch is judged
        on what is stored, so no acknowledgement ever covers an action that is not."""
        replies = {}
        clear = []
        try:
            with self.lock:
                with self.club.store.transaction():
                    for reader, message in batch:
                        if message.retain or (not message.payload and message.topic in self.clearing):
                            if message.retain and message.payload:
                                where = protocol.device_of(message.topic)
                                self.ingest.refuse(where[0] if where else "-", "retained: a message retained on "
                                                   "%s is refused and cleared" % message.topic[:80])
                                clear.append((reader, message.topic))
                            else:
                                self.clearing.discard(message.topic)
                            continue
                        self.club.store.execute("SAVEPOINT message")
                        try:
                            for topic, payload, retain in self.ingest.handle(message.topic, message.payload):
                                replies[topic] = (payload, retain)
                        except Exception as e:  # nothing a message holds stops the service
                            self.club.store.execute("ROLLBACK TO SAVEPOINT message")
                            self.ingest.refuse("-", "error: %s: %r: refused" % (message.topic[:80], e))
                            # its writes undone: the memory read again from the event now, so that
                            # the next messages are judged (and acknowledged) on what is stored
                            self.ingest = Ingest(self.club, self.log, self.ingest.counts, self.ingest.refused)
                            where = protocol.device_of(message.topic)
                            if where and where[0] in self.ingest.chains:
                                replies[protocol.topic(where[0], "ack")] = \
                                    self.ingest.ack(self.ingest.chains[where[0]])[1:]
                        self.club.store.execute("RELEASE SAVEPOINT message")
        except Exception as e:
            # nothing of the batch is kept: read the event again, and reconnect so that
            # the broker sends the messages again (none of them was acknowledged)
            self.log("error", "-", "a batch of %d was not stored (%r): reconnecting" % (len(batch), e))
            with self.lock:
                self.ingest = Ingest(self.club, self.log, self.ingest.counts, self.ingest.refused)
            for reader in {id(r): r for r, _ in batch}.values():
                reader.reconnect()
            return
        for topic, (payload, retain) in replies.items():
            self.client.publish(topic, payload, qos=1, retain=retain)
        for reader, topic in clear:
            self.clearing.add(topic)
            reader.publish(topic, b"", qos=1, retain=True)
        for reader, message in batch:
            reader.ack(message.mid, message.qos)

    def read_broker_log(self, skip=False):
        """The publishes the broker's ACL denied since the last read, each logged as a
        refusal (MQTT 3.1.1 cannot tell the sender; the organiser is told here).
        skip: only note where the log ends (what was denied before the service started
        was shown by the service that ran then)."""
        try:
            with open(self.broker_log, "rb") as f:
                end = f.seek(0, os.SEEK_END)
                if skip:
                    self.broker_log_at = end
                    return
                start = self.broker_log_at or 0
                if end < start:
                    start = 0  # a new log file
                f.seek(start)
                text = f.read(min(end - start, LOG_READ))  # a flood's lines: a bounded bite a second
        except OSError:
            return
        self.broker_log_at = start
        complete = text.rfind(b"\n") + 1
        self.broker_log_at += complete
        for line in text[:complete].decode("utf-8", "replace").splitlines():
            found = DENIED.search(line)
            if found:
                with self.lock:
                    self.ingest.refuse(found.group(1)[:60], "acl: the broker denied a publish on %s" % found.group(2)[:80])
            found = OVERSIZE.search(line)
            if found:
                with self.lock:
                    self.ingest.refuse(found.group(1)[:60], "oversized: the broker closed the connection on a packet "
                                       "over %d bytes" % MAX_PACKET)

    def poll_draws(self):
        while not self.stopping.wait(DRAW_POLL_SECONDS):
            try:
                self.read_broker_log()
                with self.lock:
                    self.start_readers()
            except Exception as e:
                self.log("error", "-", "broker log, readers: %r" % e)
            if not self.connected.is_set():
                continue
            try:
                self.publish_draws()
            except Exception as e:
                self.log("error", "-", "draw: %r" % e)
            try:
                self.publish_clocks()
            except Exception as e:
                self.log("error", "-", "clock: %r" % e)

    def publish_draws(self):
        """Every table whose draw is not what the broker holds for it (a new round, an
        undone one, a swap, a withdrawal's forfeit) gets its draw again, retained."""
        with self.lock:
            self.ingest.devices.update({d["id"]: d for d in self.club.store.devices()})
            messages = [(topic, payload) for topic, payload in draw_messages(self.club, current_devices(self.club))
                        if self.published.get(topic) != payload]
        if not messages:
            return
        for topic, payload in messages:
            self.client.publish(topic, payload, qos=1, retain=True)
            self.published[topic] = payload
        body = json_body(messages[0][1])
        self.log("draw", "-", "round %d%s published to %d table%s" % (
            body["round"], " (cleared: %s)" % body["cleared"] if body.get("cleared") else "", len(messages),
            "" if len(messages) == 1 else "s"))

    def publish_clocks(self):
        """The round clock, retained, to every table that does not hold it as it is now
        (a start, a pause, a resume, minutes added, the time run out); a running clock
        again every CLOCK_REFRESH_SECONDS, so that a table (re)connecting reads the time
        left within that. A table counts it down from when it came (it has no wall clock)."""
        with self.lock:
            what, messages = clock_messages(self.club, current_devices(self.club))
        if what is None:
            return
        now = time.monotonic()
        due = []
        for topic, payload in messages:
            sent = self.clock_sent.get(topic)
            if sent is None or sent[0] != what or (what[1] and now - sent[1] >= CLOCK_REFRESH_SECONDS):
                due.append((topic, payload, sent is None or sent[0] != what))
        for topic, payload, _fresh in due:
            self.client.publish(topic, payload, qos=1, retain=True)
            self.clock_sent[topic] = (what, now)
        changed = [topic for topic, payload, fresh in due if fresh]
        if changed:
            body = json_body(due[0][1])
            self.log("clock", "-", "round %d: %d s left, %s, published to %d table%s" % (
                body["round"], body["left"], "running" if body["running"] else "stopped", len(changed),
                "" if len(changed) == 1 else "s"))

    def status(self, devices=False):
        """What the pages show: each table by its number (devices: with its device id,
        for the admin page only), its problem (None, "wrong_setup", "refused_deal"),
        the counts and the refusals by kind."""
        with self.lock:
            rows = [dict(row) for row in self.ingest.live()]
            if not devices:
                for row in rows:
                    row.pop("device", None)
            return {"connected": self.connected.is_set(), "tables": rows,
                    "counts": dict(self.ingest.counts), "refused": dict(self.ingest.refused), "at": time.time()}

    def admin_status(self):
        """status() with the provisioned devices and the last log lines (the admin page only)."""
        out = self.status(devices=True)
        with self.lock:
            out["devices"] = [{"id": d["id"], "table": d["table_number"], "created": d["created"]}
                              for d in self.club.store.devices()]
        out["log"] = list(self.recent)[::-1]
        return out
