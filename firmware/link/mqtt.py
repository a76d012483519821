"""A non-blocking MQTT 3.1.1 client for the table: each poll() does a bounded slice of
work (one read, the packets it completed, one write) and returns at once.

Why our own: micropython-lib's umqtt blocks in connect, publish and wait_msg, and a
table must never wait for the network (a press lost while a socket times out is a
deal typed twice). Everything here is driven by poll(now) from the app loop: the
socket is non-blocking, the connect is finished by select's poll, every timeout
is a time.ticks_diff of the board's clock, and the buffers are allocated once.

What it speaks: CONNECT (user, password, clean session), CONNACK, SUBSCRIBE (QoS 1),
PUBLISH QoS 1 both ways with PUBACK, PINGREQ/PINGRESP. It does not keep QoS 1
messages of its own: the caller's outbox does (link/outbox.py), and publishes
again after a reconnect. A packet too large for the input buffer is skipped.
"""
import select
import socket

from coinche.compat import const, ticks_diff

# states of the connection
DOWN = const(0)  # no socket: waiting out the backoff
OPENING = const(1)  # TCP connect under way
GREETING = const(2)  # CONNECT sent, waiting for CONNACK
READY = const(3)  # CONNACK accepted, subscriptions sent

BUFFER_BYTES = const(1400)  # a message of ours is at most 1024 bytes, plus topic and header
CONNECT_TIMEOUT_MS = const(5000)
KEEPALIVE_S = const(5)
FIRST_BACKOFF_MS = const(500)
LONGEST_BACKOFF_MS = const(8000)
REFUSED_BACKOFF_MS = const(30000)  # the broker said no (a wrong password): try again rarely
_EINPROGRESS = const(115)
_IPPROTO_TCP = const(6)  # Linux and lwIP agree on these two; the unix port names neither
_TCP_NODELAY = const(1)

_CONNECT = const(0x10)
_CONNACK = const(0x20)
_PUBLISH = const(0x30)
_PUBACK = const(0x40)
_SUBSCRIBE = const(0x82)
_PINGRESP = const(0xD0)


def numeric_ipv4(host):
    """Is `host` an IPv4 address in dots (four numbers 0-255)? Only such an address is
    connected to: getaddrinfo on a host name asks the DNS and blocks the whole loop
    on a Pico W, so the organiser's tool resolves names before it writes the table's
    file, and a name in it leaves the link offline."""
    parts = host.split(".")
    if len(parts) != 4:
        return False
    for part in parts:
        if not part or len(part) > 3 or not part.isdigit() or int(part) > 255:
            return False
    return True


class Mqtt:
    """One connection to the broker, kept up by poll(now).

    on_message(topic, payload): called for every PUBLISH received (both bytes).
    on_ready(): called once each time the broker accepted the connection (the
    subscriptions are on their way): the time to send the outbox again."""

    def __init__(self, host, port, client_id, user, password, topics, on_message, on_ready, clock):
        self.host = host
        self.port = port
        self.client_id = client_id
        self.user = user
        self.password = password
        self.topics = topics  # subscribed with QoS 1 after each CONNACK
        self.on_message = on_message
        self.on_ready = on_ready
        self.clock = clock
        self.address = None
        self.sock = None
        self.poller = select.poll()
        self.state = DOWN
        self.out = bytearray(BUFFER_BYTES)
        self.out_view = memoryview(self.out)
        self.out_end = 0  # bytes waiting in out
        self.out_start = 0  # of which already written
        self.inp = bytearray(BUFFER_BYTES)
        self.inp_view = memoryview(self.inp)
        self.inp_end = 0
        self.skip = 0  # bytes of an oversized packet still to drop
        self.packet_id = 0
        now = clock()
        self.since = now  # when the state began (or the backoff started)
        self.backoff = 0  # first try at once
        self.last_sent = now
        self.last_heard = now
        self.ping_out = False
        self.connects = 0  # CONNACKs accepted
        self.bytes_sent = 0
        self.bytes_received = 0
        self.packets_sent = 0
        self.packets_received = 0
        self.refused = 0  # CONNACKs with a refusal

    # -- the state machine ----------------------------------------------------
    def ready(self):
        return self.state == READY

    def poll(self):
        """One slice of work; never blocks."""
        now = self.clock()
        state = self.state
        if state == DOWN:
            if ticks_diff(now, self.since) >= self.backoff:
                self.open(now)
            return
        events = 0
        for _, event in self.poller.ipoll(0):
            events |= event
        if state == OPENING:
            if events & (select.POLLERR | select.POLLHUP):
                self.close(now)
            elif events & select.POLLOUT:
                self.greet(now)
            elif ticks_diff(now, self.since) >= CONNECT_TIMEOUT_MS:
                self.close(now)
            return
        try:
            if events & select.POLLIN:
                self.read(now)
            if self.sock is not None and self.out_end > self.out_start:
                self.write(now)
        except OSError:
            self.close(now)
            return
        if self.sock is None:
            return
        if events & (select.POLLERR | select.POLLHUP) and not events & select.POLLIN:
            self.close(now)
        elif self.state == GREETING and ticks_diff(now, self.since) >= CONNECT_TIMEOUT_MS:
            self.close(now)
        elif self.state == READY:
            self.keep_alive(now)

    def open(self, now):
        self.since = now
        try:
            if self.address is None:  # an address in dots (numeric_ipv4): answered without the network
                self.address = socket.getaddrinfo(self.host, self.port)[0][-1]
            sock = socket.socket()
            sock.setblocking(False)
            try:
                sock.setsockopt(_IPPROTO_TCP, _TCP_NODELAY, 1)  # a PUBACK is not held back by Nagle
            except (OSError, TypeError):
                pass
            self.sock = sock
            try:
                sock.connect(self.address)
            except OSError as error:
                if error.errno != _EINPROGRESS:
                    raise
        except OSError:
            self.close(now)
            return
        self.poller.register(sock, select.POLLIN | select.POLLOUT)
        self.state = OPENING
        self.out_start = self.out_end = 0
        self.inp_end = 0
        self.skip = 0

    def greet(self, now):
        """The TCP connection is up: CONNECT, then wait for CONNACK."""
        self.poller.modify(self.sock, select.POLLIN)
        self.state = GREETING
        self.since = now
        self.last_heard = now
        client_id = self.client_id
        user = self.user
        password = self.password
        length = 10 + 2 + len(client_id) + 2 + len(user) + 2 + len(password)
        self.header(_CONNECT, length)
        self.put(b"\x00\x04MQTT\x04\xc2")  # level 4 (3.1.1); user, password, clean session
        self.put_short(KEEPALIVE_S)
        self.put_string(client_id)
        self.put_string(user)
        self.put_string(password)
        try:
            self.write(now)
        except OSError:
            self.close(now)

    def close(self, now, refused=False):
        """Drop the connection; the next try after a backoff that doubles up to LONGEST_BACKOFF_MS."""
        sock = self.sock
        if sock is not None:
            try:
                self.poller.unregister(sock)
            except (OSError, KeyError, ValueError):
                pass
            try:
                sock.close()
            except OSError:
                pass
        self.sock = None
        self.state = DOWN
        self.since = now
        if refused:
            self.backoff = REFUSED_BACKOFF_MS
        elif self.backoff < FIRST_BACKOFF_MS:
            self.backoff = FIRST_BACKOFF_MS
        elif self.backoff < LONGEST_BACKOFF_MS:
            self.backoff = min(2 * self.backoff, LONGEST_BACKOFF_MS)
        self.out_start = self.out_end = 0
        self.inp_end = 0
        self.ping_out = False

    def keep_alive(self, now):
        """A PINGREQ when nothing was sent for half the keepalive; the connection
        counted dead when nothing was heard for one and a half."""
        if ticks_diff(now, self.last_heard) >= KEEPALIVE_S * 1500:
            self.close(now)
        elif not self.ping_out and ticks_diff(now, self.last_sent) >= KEEPALIVE_S * 500 and self.room(2):
            self.put(b"\xc0\x00")
            self.packets_sent += 1
            self.ping_out = True

    # -- sending ---------------------------------------------------------------
    def room(self, length):
        """Is there room for `length` more bytes in the output buffer (compacting it)?"""
        if self.out_start == self.out_end:
            self.out_start = self.out_end = 0
        if self.out_end + length <= BUFFER_BYTES:
            return True
        if self.out_start:
            waiting = self.out_end - self.out_start
            self.out[:waiting] = self.out_view[self.out_start:self.out_end]
            self.out_start = 0
            self.out_end = waiting
        return self.out_end + length <= BUFFER_BYTES

    def put(self, data):
        end = self.out_end + len(data)
        self.out[self.out_end:end] = data
        self.out_end = end

    def put_short(self, value):
        out = self.out
        out[self.out_end] = value >> 8
        out[self.out_end + 1] = value & 0xFF
        self.out_end += 2

    def put_string(self, text):
        self.put_short(len(text))
        self.put(text)

    def header(self, kind, length):
        """The fixed header: the packet's kind and its remaining length (1 to 4 bytes)."""
        out = self.out
        out[self.out_end] = kind
        self.out_end += 1
        while True:
            digit = length & 0x7F
            length >>= 7
            out[self.out_end] = digit | 0x80 if length else digit
            self.out_end += 1
            if not length:
                break
        self.packets_sent += 1

    def next_id(self):
        self.packet_id = self.packet_id % 0xFFFF + 1
        return self.packet_id

    def publish(self, topic, payload):
        """Queue a QoS 1 PUBLISH (topic and payload bytes); False when not connected or
        the output buffer has no room now (try at a later poll)."""
        length = 2 + len(topic) + 2 + len(payload)
        if self.state != READY or not self.room(length + 5):
            return False
        self.header(_PUBLISH | 0x02, length)
        self.put_string(topic)
        self.put_short(self.next_id())
        self.put(payload)
        return True

    def subscribe(self):
        length = 2
        for topic in self.topics:
            length += 2 + len(topic) + 1
        if not self.room(length + 5):
            return
        self.header(_SUBSCRIBE, length)
        self.put_short(self.next_id())
        for topic in self.topics:
            self.put_string(topic)
            self.put(b"\x01")

    def write(self, now):
        written = self.sock.write(self.out_view[self.out_start:self.out_end])
        if written:
            self.out_start += written
            self.bytes_sent += written
            self.last_sent = now

    def disconnect(self):
        """A polite goodbye (the table does not need one: the broker notices a silent table)."""
        if self.sock is not None and self.room(2):
            self.put(b"\xe0\x00")
            try:
                self.write(self.clock())
            except OSError:
                pass
        self.close(self.clock())

    # -- receiving -------------------------------------------------------------
    def read(self, now):
        count = self.sock.readinto(self.inp_view[self.inp_end:])
        if count is None:
            return
        if count == 0:
            self.close(now)  # the broker closed the connection
            return
        self.bytes_received += count
        self.last_heard = now
        self.inp_end += count
        if self.skip:
            dropped = min(self.skip, self.inp_end)
            self.skip -= dropped
            self.consume(dropped)
        while self.sock is not None and self.packet(now):
            pass

    def consume(self, length):
        rest = self.inp_end - length
        if rest:
            self.inp[:rest] = self.inp_view[length:self.inp_end]
        self.inp_end = rest

    def packet(self, now):
        """Handle the first complete packet of the input buffer; False when there is none."""
        inp = self.inp
        end = self.inp_end
        if end < 2:
            return False
        length = 0
        shift = 0
        index = 1
        while True:
            if index >= end:
                return False
            digit = inp[index]
            length |= (digit & 0x7F) << shift
            index += 1
            if not digit & 0x80:
                break
            shift += 7
            if shift > 21:
                self.close(now)
                return False
        total = index + length
        if total > BUFFER_BYTES:  # not one of ours: dropped, the connection kept
            self.skip = total - end
            self.inp_end = 0
            return False
        if total > end:
            return False
        self.packets_received += 1
        kind = inp[0] & 0xF0
        if kind == _PUBLISH:
            self.received(index, total)
        elif kind == _CONNACK:
            if length < 2 or inp[index + 1] != 0:
                self.refused += 1
                self.close(now, refused=True)
                return False
            self.state = READY
            self.backoff = 0
            self.connects += 1
            self.subscribe()
            self.on_ready()
        elif kind == _PINGRESP:
            self.ping_out = False
        # PUBACK and SUBACK need nothing: the organiser's ack is what empties the outbox
        self.consume(total)
        return True

    def received(self, start, total):
        """An incoming PUBLISH: acknowledged (QoS 1), then handed to on_message."""
        inp = self.inp
        qos = (inp[0] >> 1) & 3
        topic_length = inp[start] << 8 | inp[start + 1]
        topic_end = start + 2 + topic_length
        payload_start = topic_end + (2 if qos else 0)
        if payload_start > total:
            return
        if qos == 1 and self.room(4):
            self.header(_PUBACK, 2)
            self.put(self.inp_view[topic_end:topic_end + 2])
        topic = bytes(self.inp_view[start + 2:topic_end])
        payload = bytes(self.inp_view[payload_start:total])
        self.on_message(topic, payload)
