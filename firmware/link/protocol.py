"""The club link's messages: what a table and the organiser say to each other over
MQTT, and the signature that proves who said it.

Pure (json, hashlib, binascii), so the table (MicroPython) and the organiser's
service (CPython) use this one module and cannot drift apart. A message is the
hex HMAC-SHA256 of its body, one space, then the body: compact JSON. The
signature covers the body's bytes exactly as sent, so nothing has to be put in a
canonical form again before it is checked. The key is the table's own (written
onto it once, over USB): the club's WiFi password keeps strangers off the
network, a table's key keeps one table from speaking for another.

Topics, per table (`device` is the table's MQTT user name as well):
  coinche/<device>/up     table -> organiser: one journal action (QoS 1)
  coinche/<device>/ack    organiser -> table: every action up to (game, seq) is stored (retained)
  coinche/<device>/draw   organiser -> table: the round, table and teams it plays next (retained)
  coinche/<device>/clock  organiser -> table: a timed round's clock, the seconds left then (retained)

docs/link.md gives every field, what is signed and the replay rules.
"""
import binascii
import hashlib
import json

VERSION = 1
MAX_MESSAGE = 1024  # bytes of a whole message, signature included; longer ones are refused
SIGNATURE_HEX = 64
BLOCK = 64  # SHA-256's block size, for HMAC

TOPIC_ROOT = "coinche/"


class MessageError(ValueError):
    """A message that is not one of ours: malformed, oversized, or wrongly signed."""


def topic(device, kind):
    """The topic of `kind` ('up', 'ack', 'draw', 'clock') for one table."""
    return TOPIC_ROOT + device + "/" + kind


def device_of(topic_name):
    """(device, kind) of a topic of ours, or None."""
    if not topic_name.startswith(TOPIC_ROOT):
        return None
    rest = topic_name[len(TOPIC_ROOT):]
    slash = rest.find("/")
    if slash <= 0 or rest.find("/", slash + 1) >= 0:
        return None
    return rest[:slash], rest[slash + 1:]


def _key_block(key):
    if len(key) > BLOCK:
        key = hashlib.sha256(key).digest()
    return key + bytes(BLOCK - len(key))


def hmac_sha256(key, data):
    """HMAC-SHA256 (RFC 2104) of `data` under `key` (bytes): MicroPython has no hmac module."""
    block = _key_block(key)
    inner = hashlib.sha256(bytes(byte ^ 0x36 for byte in block))
    inner.update(data)
    outer = hashlib.sha256(bytes(byte ^ 0x5C for byte in block))
    outer.update(inner.digest())
    return outer.digest()


def _same(first, second):
    """Equal bytes, compared in a time that does not depend on where they differ."""
    if len(first) != len(second):
        return False
    difference = 0
    for index in range(len(first)):
        difference |= first[index] ^ second[index]
    return difference == 0


def sign(key, body):
    """The message for `body` (a dict): signature, space, compact JSON."""
    data = json.dumps(body, separators=(",", ":")).encode()
    message = binascii.hexlify(hmac_sha256(key, data)) + b" " + data
    if len(message) > MAX_MESSAGE:
        raise MessageError("message of %d bytes, over %d" % (len(message), MAX_MESSAGE))
    return message


def open_message(key, message):
    """The body (a dict) of a message signed with `key`; MessageError otherwise.

    Checks, in this order: size, shape, signature, then JSON; nothing of an
    unsigned message is parsed."""
    if len(message) > MAX_MESSAGE:
        raise MessageError("oversized: %d bytes" % len(message))
    if len(message) < SIGNATURE_HEX + 3 or message[SIGNATURE_HEX:SIGNATURE_HEX + 1] != b" ":
        raise MessageError("malformed: no signature")
    data = message[SIGNATURE_HEX + 1:]
    try:
        claimed = binascii.unhexlify(message[:SIGNATURE_HEX])
    except ValueError:
        raise MessageError("malformed: signature not hex")
    if not _same(claimed, hmac_sha256(key, data)):
        raise MessageError("wrong signature")
    try:
        body = json.loads(data)
    except ValueError:
        raise MessageError("malformed: body not JSON")
    if not isinstance(body, dict) or body.get("v") != VERSION:
        raise MessageError("malformed: not a version %d body" % VERSION)
    return body


def action_body(device, game, seq, action, prev=0):
    """A table's report of one journal action: who (device), which game (the
    journal's game number), which action (its sequence number in the journal,
    increasing over the device's life), the action as the journal holds it, and
    prev: the seq of the action this device sent before it (0 for its first one
    since it was provisioned). The journal's numbers have gaps (settings are
    numbered too and not sent): prev lets the organiser tell a gap of the
    journal from a message still on its way."""
    return {"v": VERSION, "device": device, "game": game, "seq": seq, "prev": prev, "action": action}


def ack_body(device, game, seq):
    """The organiser's word that every action of `device` up to (game, seq) is stored
    (game and seq 0: nothing yet)."""
    return {"v": VERSION, "device": device, "game": game, "seq": seq}


def draw_body(device, round_number, table, teams, names, next_table=None):
    """The organiser's word of the round a table plays: round and table numbers,
    teams {"NS": number, "EW": number}, names {"NS": text, "EW": text};
    next_table: at the end of a round (once the next one is drawn) the table
    this device's teams go to, {"NS": table, "EW": table} (0: a bye), else None."""
    body = {"v": VERSION, "device": device, "round": round_number, "table": table, "teams": teams,
            "names": names}
    if next_table is not None:
        body["next"] = next_table
    return body


def clock_body(device, round_number, left, running):
    """The organiser's round clock as it is when sent: the round it times, the whole
    seconds left then, and whether it runs (False: paused, or no time left). The table
    has no wall clock: it counts down from the moment the message came."""
    return {"v": VERSION, "device": device, "round": round_number, "left": left, "running": running}
