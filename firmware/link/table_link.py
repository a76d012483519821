"""The table's side of the club link: the journal's actions go up to the organiser, its
acknowledgements and the draw come back; polled from the app loop, never waited for.

Loaded on demand, only when the club's file (/club.json, written by the organiser's
tool) is on the device: a table without it pays nothing. The journal calls
journalled() after each action is durable (on the key path: it only notes the
action in RAM, no flash write, no network); what RAM held and a power cut took
is read back from the journal when the link starts (link/unsent.py): the
journal is the outbox. poll() does the rest one bounded step at a time: sign
and append one noted action to the outbox file (link/outbox.py), join the WiFi, keep the MQTT
connection (link/mqtt.py), publish the next unacknowledged message, and read
what came in. After every (re)connect, and when no acknowledgement comes for
RESEND_MS, everything after the last acknowledged seq is sent again, in order,
with the bytes it was first signed with. link/state.py follows the connection.

A timed round's clock comes from the organiser too (the seconds left when it was
sent, running or paused): the link counts it down from its own ticks and gives home
its line (self.line: '5/12 12 min', then 'last deal'); once no time is left and the
deal in play is saved, it ends the round as Menu > End the round now does.
"""
import binascii
import json

import on_demand
from link import protocol, state
from link.mqtt import Mqtt, numeric_ipv4
from link.outbox import Outbox
from coinche.compat import const, ticks_diff

RESEND_MS = const(5000)  # no acknowledgement for this long with messages out: send them again
WIFI_CHECK_MS = const(500)
WIFI_RETRY_MS = const(10000)
NOTICE_MS = const(3000)  # each of the draw's notices stays up this long


def open_link(board, journal):
    """The link of a board with /club.json (a TableLink), None without the file or with
    one that cannot be read (the table plays as before)."""
    path = state.club_file(board)
    try:
        with open(path) as file:
            config = json.load(file)
        return TableLink(config, path[:path.rfind("/")] + "/link", board, journal)
    except (OSError, ValueError, KeyError, TypeError):
        return None


class TableLink:
    def __init__(self, config, folder, board, journal):
        self.device = config["device"]
        self.key = binascii.unhexlify(config["key"])
        self.wifi_config = config.get("wifi") or {}
        broker = config["broker"]
        self.clock = board.ticks_ms
        self.up_topic = protocol.topic(self.device, "up").encode()
        self.ack_topic = protocol.topic(self.device, "ack").encode()
        self.draw_topic = protocol.topic(self.device, "draw").encode()
        self.clock_topic = protocol.topic(self.device, "clock").encode()
        rebuild = on_demand.load("link.unsent")
        self.outbox = Outbox(folder, self.device, rebuild.newest(journal))
        # (game, seq, action) journalled, not yet in the outbox file: whatever a power
        # cut left out of it, from the journal itself
        self.noted = rebuild.unsent(journal, self.outbox.handed())
        rebuild = None
        on_demand.release("link.unsent")
        self.cursor = 0  # offset in the outbox of the next message to publish
        self.setup_seen = None  # (the draw, the table's version) the app's setup_wrong was worked out for
        self.last_progress = self.clock()
        self.draw = None  # the last draw body the organiser sent
        self.notices = []  # what the players are still to be told of it, one toast each
        self.fresh_draw = False  # a draw came that the players were not told of yet
        self.published = 0
        self.round_clock = None  # the organiser's clock: (round, ms left, running, the ticks it came at)
        self.line = None  # home's line in the timed round (None: home's own)
        self.line_key = self.line_version = None  # what self.line was built for
        self.last_from = None  # the deals saved when the time was over: one more ends the round
        self.mqtt = Mqtt(broker["host"], broker["port"], self.device.encode(), config["mqtt"]["user"].encode(),
                         config["mqtt"]["password"].encode(), (self.ack_topic, self.draw_topic, self.clock_topic),
                         self.received, self.connected, self.clock)
        self.wlan = None
        self.wifi_since = self.wifi_started = self.clock()
        # the host's network (the simulator on the unix port): no WiFi to join
        self.network_up = getattr(board, "HOST_NETWORK", False)
        # a broker given by name would block the loop in getaddrinfo: never resolved here
        self.no_network = not numeric_ipv4(broker["host"])
        if not self.network_up and not self.no_network:
            self.join_wifi()
        journal.listener = self.journalled

    # -- the journal's side (the key path: note only) ------------------------
    def journalled(self, action, sequence, game):
        if action["op"] != "set":
            self.noted.append((game, sequence, action))

    # -- the WiFi ----------------------------------------------------------------
    def join_wifi(self):
        try:
            import network

            wlan = network.WLAN(network.STA_IF)
            wlan.active(True)
            if not wlan.active():
                raise OSError(19)  # the chip did not start (the emulator has none): ENODEV
            wlan.connect(self.wifi_config.get("ssid", ""), self.wifi_config.get("password", ""))
            self.wlan = wlan
        except (ImportError, OSError, RuntimeError, AttributeError):
            self.no_network = True  # no WiFi chip (or none that starts): the table stays offline
        self.wifi_since = self.wifi_started = self.clock()

    def check_wifi(self, now):
        if ticks_diff(now, self.wifi_since) < WIFI_CHECK_MS:
            return
        self.wifi_since = now
        wlan = self.wlan
        try:
            if wlan.isconnected():
                self.network_up = True
                return
            # failed (< 0) or idle (0, the link lost): join again; 1 is a join under way
            if wlan.status() <= 0 and ticks_diff(now, self.wifi_started) >= WIFI_RETRY_MS:
                wlan.connect(self.wifi_config.get("ssid", ""), self.wifi_config.get("password", ""))
                self.wifi_started = now
        except (OSError, AttributeError):
            self.no_network = True

    # -- the loop's side -----------------------------------------------------------
    def poll(self, app):
        """One slice of the link's work; the draw's notices told through app.show_message(), one
        after the other, each when no other message is up."""
        if self.notices and app.toast_msg is None:
            app.show_message(self.notices.pop(0), NOTICE_MS)
        self.step()
        if self.round_clock is not None:
            self.tick(app)
        if self.fresh_draw:
            self.fresh_draw = False
            self.notices = draw_notices(self.draw, app.texts)

    def step(self):
        if self.noted:
            game, sequence, action = self.noted[0]
            try:
                message = protocol.sign(self.key, protocol.action_body(self.device, game, sequence, action,
                                                                       self.outbox.prev()))
            except protocol.MessageError:
                self.noted.pop(0)  # over the message size: it cannot go up (the journal keeps it)
                return
            try:
                self.outbox.add(game, sequence, message)
            except OSError:
                return  # the flash refused it: tried again at the next poll
            self.noted.pop(0)
            return
        if self.no_network:
            return
        now = self.clock()
        if not self.network_up:
            self.check_wifi(now)
            self.set_state(state.CONNECTING)
            return
        mqtt = self.mqtt
        mqtt.poll()
        if mqtt.ready():
            self.set_state(state.ONLINE)
            self.send_next(now)
            return
        self.set_state(state.CONNECTING)
        if self.wlan is not None and ticks_diff(now, self.wifi_since) >= WIFI_CHECK_MS:
            self.wifi_since = now  # the broker out of reach: is it the WiFi that went?
            try:
                self.network_up = self.wlan.isconnected()
            except OSError:
                self.network_up = False

    def set_state(self, value):
        if state.state() != value:
            state.set_state(value)

    def send_next(self, now):
        outbox = self.outbox
        if not outbox.pending:
            self.last_progress = now
            return
        found = outbox.next_unacknowledged(self.cursor)
        if found is None:
            if ticks_diff(now, self.last_progress) >= RESEND_MS:
                self.cursor = 0  # nothing acknowledged for a while: all of it again
                self.last_progress = now
            return
        if self.mqtt.publish(self.up_topic, found[3]):
            self.cursor = found[2]
            self.published += 1

    def connected(self):
        """The broker took the connection: the outbox goes out again from its start."""
        self.cursor = 0
        self.last_progress = self.clock()

    def received(self, topic, payload):
        try:
            body = protocol.open_message(self.key, payload)
        except protocol.MessageError:
            return  # not the organiser's: ignored
        if body.get("device") != self.device:
            return
        if topic == self.ack_topic:
            game = body.get("game")
            seq = body.get("seq")
            if isinstance(game, int) and isinstance(seq, int) and self.outbox.acknowledge(game, seq):
                self.last_progress = self.clock()
                if not self.outbox.size:
                    self.cursor = 0  # the outbox file was emptied: the next line starts it again
        elif topic == self.draw_topic:
            if self.draw is None or body != self.draw:
                self.draw = body
                self.fresh_draw = True
        elif topic == self.clock_topic:
            number, left = body.get("round"), body.get("left")
            if isinstance(number, int) and isinstance(left, int):
                self.round_clock = (number, left * 1000, body.get("running") is True, self.clock())

    # -- the round's clock -----------------------------------------------------------
    def tick(self, app):
        """Home's line from the clock, when it times the concours round being played (not
        over, as drawn); rebuilt only when what it shows changes (a redraw then). Once
        no time is left: 'last deal', and the deal in play saved, the round's end."""
        number, left, running, since = self.round_clock
        table = app.table
        info = table.concours()
        game = table.game
        if not info or info["round"] != number or game.over or app.setup_wrong:
            if self.line is not None:
                self.line = None
                app.dirty = True
            return
        if running:
            left -= ticks_diff(self.clock(), since)
        seconds = (left + 999) // 1000 if left > 0 else 0
        if seconds:
            self.last_from = None
        elif self.last_from is None:
            self.last_from = len(game.deals)  # the deal in play is the last
        elif len(game.deals) > self.last_from and app.view.name == "home":
            self.end_round(app)
            return
        key = seconds if seconds < 60 else 1000 + (seconds + 59) // 60
        if key != self.line_key or app.version != self.line_version or self.line is None:
            self.line_key, self.line_version = key, app.version
            self.line = clock_line(app.texts, game.round_deal(), game.rules.round_deals, seconds)
            app.dirty = True

    def end_round(self, app):
        """The round ended on time, as Menu > End the round now ends it: its end shows (or
        why not: the flash full, say; then the next deal saved tries again)."""
        done, message = on_demand.load("table.settings").end_round_now(app.table)
        on_demand.release("table.settings")
        self.line = None
        self.last_from = None
        if done:
            app.home()
        app.tell(message)

    def set_up_check(self, app):
        """app.setup_wrong again when the draw or the game changed (nothing built otherwise):
        the concours round started is not the one the organiser drew for this table."""
        draw = self.draw
        seen = self.setup_seen
        if seen is not None and seen[0] is draw and seen[1] == app.version:
            return
        info = app.table.concours() if draw else None
        wrong = False
        if info:  # the teams may sit the other way round, as the organiser takes them
            teams, drawn = info["teams"], draw["teams"] or {}
            wrong = info["round"] != draw["round"] or info["table"] != draw["table"] or (
                (teams["NS"], teams["EW"]) not in ((drawn.get("NS"), drawn.get("EW")), (drawn.get("EW"), drawn.get("NS"))))
        self.setup_seen = (draw, app.version)
        if wrong != app.setup_wrong:
            app.setup_wrong = wrong
            app.dirty = True

    def figures(self):
        """What the link has done since it started (the simulator and the bench read it)."""
        mqtt = self.mqtt
        return {"state": state.state(), "connects": mqtt.connects, "bytes_sent": mqtt.bytes_sent,
                "bytes_received": mqtt.bytes_received, "packets_sent": mqtt.packets_sent,
                "packets_received": mqtt.packets_received, "published": self.published,
                "pending": self.outbox.pending + len(self.noted), "acked": [self.outbox.acked_game, self.outbox.acked_seq],
                "draw": self.draw, "clock": self.round_clock, "line": self.line}


def clock_line(texts, deal, deals, seconds):
    """Home's line in a timed round: the deal in play and the time left ('5/12 12 min',
    the minutes rounded up; '5/12 0:45' under a minute), then 'last deal' once no time
    is left (seconds 0). texts: the language table in use."""
    if seconds <= 0:
        return texts["l_last"]
    shown = texts["l_min"] % ((seconds + 59) // 60) if seconds >= 60 else "0:%02d" % seconds
    return "%d/%d %s" % (deal, deals, shown)



def draw_notices(draw, texts):
    """What the players are told of a draw, one short text each (a toast at a time):
    at a round's end where each team of this table goes, then the round and table
    this table plays and its teams. texts: the language table in use."""
    notices = []
    moves = draw.get("next")
    if moves:
        for team in ("NS", "EW"):
            move = moves.get(team)
            if move:
                if move.get("table"):
                    notices.append(texts["l_goes"] % (move["team"], move["table"]))
                else:
                    notices.append(texts["l_bye"] % move["team"])
    notices.append(texts["l_round"] % (draw["round"], draw["table"]))
    teams = draw.get("teams")
    if teams and teams.get("NS") is not None:
        notices.append(texts["l_teams"] % (texts["NS"], teams["NS"], texts["EW"], teams["EW"]))
    return notices
