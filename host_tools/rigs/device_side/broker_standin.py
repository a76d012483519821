"""A STAND-IN for the network, at the socket's interface, on the device: what the table's
MQTT client (firmware/link/mqtt.py) sees of a broker and the organiser, replayed from
the device's own memory. Not a broker: the bench of the link's cost in the device's
time (host_tools/club/link_time.py) installs it as the `socket` module on the
emulated RP2040, which has no WiFi chip, so the link runs there as on a table.

It answers as Mosquitto and the organiser's service answer a table: CONNACK to a
CONNECT, SUBACK to a SUBSCRIBE, PINGRESP to a PINGREQ, PUBACK to each PUBLISH and then
the organiser's signed acknowledgement of that action (QoS 1, as the broker forwards
it). What a real network adds is not here: the WiFi chip's driver and lwIP's work,
the air's delays. What is here and not on a table: this module's own work (parsing
the table's packets, signing the acknowledgements with the table's key), which runs
inside the table's poll, so the figures it gives are on the high side.

PHASES: the broker's behaviour over the device's clock, in a cycle: answering,
closing the connection once (the table reconnects), silent (the TCP connection
accepted, nothing answered: CONNECT and keepalive time out).
"""
import binascii
import io
import json
import select
import time

from link import protocol

PHASES = (("answer", 6000), ("drop", 100), ("answer", 6000), ("silent", 9000))
_EINPROGRESS = 115
_MP_STREAM_POLL = 3
_MP_STREAM_CLOSE = 4

counts = {"connects": 0, "publishes": 0, "acks": 0, "drops": 0, "ignored": 0, "phases": 0}
config = {}  # the table's /club.json: its device and key (load())
_started = [None]
_clock = [time.ticks_ms]  # the board's clock: the phases follow the device's time


def load(path="/club.json", clock=None):
    """Read the table's file; clock: the board's ticks_ms (default time.ticks_ms)."""
    with open(path) as file:
        config.update(json.load(file))
    if clock is not None:
        _clock[0] = clock


def phase():
    """The stand-in broker's behaviour now: "answer", "drop" or "silent"."""
    now = _clock[0]()
    if _started[0] is None:
        _started[0] = now
    elapsed = time.ticks_diff(now, _started[0]) % sum(length for _, length in PHASES)
    for index, (kind, length) in enumerate(PHASES):
        if elapsed < length:
            counts["phases"] = max(counts["phases"], index + 1)
            return kind
        elapsed -= length
    return "answer"


def getaddrinfo(host, port, *rest):
    return [(2, 1, 0, "", (host, port))]


def _remaining(data, index):
    """(length, index after it) of the remaining length at data[index]."""
    length = 0
    shift = 0
    while True:
        digit = data[index]
        index += 1
        length |= (digit & 0x7F) << shift
        if not digit & 0x80:
            return length, index
        shift += 7


def _publish(topic, payload, packet_id):
    body = bytearray()
    body += len(topic).to_bytes(2, "big") + topic + packet_id.to_bytes(2, "big") + payload
    header = bytearray(b"\x32")
    length = len(body)
    while True:
        digit = length & 0x7F
        length >>= 7
        header.append(digit | (0x80 if length else 0))
        if not length:
            break
    return bytes(header + body)


class socket(io.IOBase):  # noqa: N801 - it stands in for the socket module's class
    def __init__(self, *args):
        self.to_table = bytearray()
        self.from_table = bytearray()
        self.closed_by_broker = False
        self.packet_id = 0
        self.drop_seen = False

    def setblocking(self, flag):
        pass

    def setsockopt(self, *args):
        pass

    def connect(self, address):
        raise OSError(_EINPROGRESS)

    def close(self):
        self.to_table = bytearray()

    def ioctl(self, request, arg):
        if request == _MP_STREAM_CLOSE:
            return 0
        if request != _MP_STREAM_POLL:
            return -1
        kind = phase()
        if kind == "drop" and not self.drop_seen:
            self.drop_seen = True
            self.closed_by_broker = True
            counts["drops"] += 1
        ready = 0
        if arg & select.POLLOUT:
            ready |= select.POLLOUT
        if arg & select.POLLIN and (self.to_table or self.closed_by_broker):
            ready |= select.POLLIN
        return ready

    def readinto(self, buffer):
        if self.closed_by_broker and not self.to_table:
            return 0
        if not self.to_table:
            return None
        count = min(len(buffer), len(self.to_table))
        buffer[:count] = self.to_table[:count]
        self.to_table = self.to_table[count:]
        return count

    def write(self, data):
        if self.closed_by_broker:
            raise OSError(32)  # EPIPE
        self.from_table += data
        while len(self.from_table) >= 2:
            length, start = _remaining(self.from_table, 1)
            end = start + length
            if len(self.from_table) < end:
                break
            self.answer(self.from_table[0], bytes(self.from_table[start:end]))
            self.from_table = self.from_table[end:]
        return len(data)

    def answer(self, kind, body):
        if phase() == "silent":
            counts["ignored"] += 1
            return
        kind &= 0xF0
        if kind == 0x10:  # CONNECT
            counts["connects"] += 1
            self.to_table += b"\x20\x02\x00\x00"
        elif kind == 0x80:  # SUBSCRIBE: one granted QoS 1 per topic
            topics = 0
            index = 2
            while index < len(body):
                index += 2 + (body[index] << 8 | body[index + 1]) + 1
                topics += 1
            self.to_table += bytes((0x90, 2 + topics)) + body[:2] + b"\x01" * topics
        elif kind == 0xC0:  # PINGREQ
            self.to_table += b"\xd0\x00"
        elif kind == 0x30:  # PUBLISH, QoS 1: PUBACK, then the organiser's acknowledgement
            topic_length = body[0] << 8 | body[1]
            packet_id = body[2 + topic_length:4 + topic_length]
            self.to_table += b"\x40\x02" + packet_id
            counts["publishes"] += 1
            message = json.loads(body[4 + topic_length + protocol.SIGNATURE_HEX + 1:])
            device = config["device"]
            key = binascii.unhexlify(config["key"])
            ack = protocol.sign(key, protocol.ack_body(device, message["game"], message["seq"]))
            self.packet_id = self.packet_id % 65535 + 1
            self.to_table += _publish(protocol.topic(device, "ack").encode(), ack, self.packet_id)
            counts["acks"] += 1
