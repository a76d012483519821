"""The journal's line format: one JSON object per line behind its CRC-32.

A line is `cccccccc {json}\\n`: eight lowercase hex digits of the CRC-32
(IEEE, the one of zlib/binascii) of the JSON bytes, a space, the JSON, a
newline. littlefs already makes every file update atomic, so the checksum
is there for what littlefs cannot see: flipped bits in data blocks, files
copied in by hand, bugs. Each line stands alone, so a damaged line costs
that line and what depends on it, never the lines before it.
"""
import json

from micropython import const

from store.crc import crc32

MAX_LINE = const(2048)  # longer than any record; a guard against garbage files
_CHUNK = const(256)
_HEX = b"0123456789abcdef"


# The names of the deal record (shared/RULES.md) and of the journal's own
# fields, as literals: compiled code interns them, and json.loads then reuses
# the interned string for every key and code instead of a new str per deal
# (measured: a full record 1500 -> 460 bytes of heap on the unix port).
_INTERNED = (
    "taker", "bid", "trump", "coinche", "points", "tricks", "solo", "belote", "melds", "melds_to",
    "NS", "EW", "S", "H", "D", "C", "NT", "AT", "suit", "capot", "generale", "pass",
    "tierce", "quarte", "quinte", "carre_J", "carre_9", "carre_A", "carre_10", "carre_K", "carre_Q",
    "op", "add", "edit", "del", "deal", "i", "v", "t", "g", "s", "p", "n", "rules", "preset", "options",
    "target", "log", "arc", "set", "aside",
)


def checksum(data):
    return crc32(data)


def _dumps(obj):
    try:
        return json.dumps(obj, separators=(",", ":"))
    except TypeError:  # a port built without the separators argument
        return json.dumps(obj)


def encode(obj):
    """The bytes of one line for a JSON-able object."""
    body = _dumps(obj).encode()
    if len(body) > MAX_LINE - 10:
        raise ValueError("record too long")
    try:
        json.loads(body)  # MicroPython writes repr() for what JSON cannot hold
    except ValueError:
        raise ValueError("record is not plain JSON data")
    return ("%08x " % checksum(body)).encode() + body + b"\n"


class LineError(ValueError):
    """A line that fails its checksum or does not parse."""


def check(line):
    """The JSON bytes of one line (without its newline), if its checksum holds; else LineError."""
    if len(line) < 11 or line[8] != 0x20:
        raise LineError("bad line")
    body = line[9:]
    field = line[:8]
    for c in field:  # lowercase only: int() would also take "A" for "a"
        if c not in _HEX:
            raise LineError("bad checksum field")
    if int(field, 16) != checksum(body):
        raise LineError("checksum mismatch")
    return body


def decode(line):
    """The object of one line (without its newline); LineError if it is not intact."""
    body = check(line)
    try:
        obj = json.loads(body)
    except (ValueError, TypeError):  # UnicodeError is a ValueError
        raise LineError("bad json")
    if not isinstance(obj, dict):
        raise LineError("not an object")
    return obj


class Lines:
    """The complete lines of a binary file, read in small chunks.

    A game file never sits whole in RAM. After iteration, `tail` holds bytes
    after the last newline (a truncated last line); `too_long` is set when a
    line passed MAX_LINE and reading stopped there."""

    def __init__(self, f):
        self._f = f
        self._buf = b""
        self._pos = 0
        self._eof = False
        self.tail = b""
        self.too_long = False

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            i = self._buf.find(b"\n", self._pos)
            if i >= 0:
                line = self._buf[self._pos:i]
                self._pos = i + 1
                return line
            rest = self._buf[self._pos:]
            if self._eof:
                self.tail = rest
                raise StopIteration
            if len(rest) > MAX_LINE:
                self.too_long = True
                self.tail = rest
                raise StopIteration
            chunk = self._f.read(_CHUNK)
            if not chunk:
                self._eof = True
                chunk = b""
            self._buf = rest + chunk
            self._pos = 0
