"""The journal's line format: one JSON object per line behind its CRC-32.

A line is `cccccccc {json}\\n`: eight lowercase hex digits of the CRC-32
(IEEE, the one of zlib/binascii) of the JSON bytes, a space, the JSON, a
newline. littlefs already makes every file update atomic, so the checksum
is there for what littlefs cannot see: flipped bits in data blocks, files
copied in by hand, bugs. Each line stands alone, so a damaged line costs
that line and what depends on it, never the lines before it.
"""
import json

from coinche.compat import const

from store.crc import crc32

_MAX_LINE = const(2048)  # longer than any record; a guard against garbage files
_CHUNK = const(256)


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


checksum = crc32


def _checksum_field(body):
    """The checksum field of a line: the CRC-32 as eight lowercase hex digits."""
    return ("%08x" % crc32(body)).encode()


def encode(obj):
    """The bytes of one line for a JSON-able object."""
    try:
        body = json.dumps(obj, separators=(",", ":"))
    except TypeError:  # a port built without the separators argument
        body = json.dumps(obj)
    body = body.encode()
    if len(body) > _MAX_LINE - 10:
        raise ValueError("too long")
    try:
        json.loads(body)  # MicroPython writes repr() for what JSON cannot hold
    except ValueError:
        raise ValueError("not JSON")
    return _checksum_field(body) + b" " + body + b"\n"


class LineError(ValueError):
    """A line that fails its checksum or does not parse."""


def check(line):
    """The JSON bytes of one line (without its newline), if its checksum holds; else LineError.

    The field must be exactly the lowercase hex of the CRC: "A" for "a" is caught."""
    body = line[9:]
    if len(line) < 11 or line[8] != 0x20 or line[:8] != _checksum_field(body):
        raise LineError
    return body


def decode(line):
    """The object of one line (without its newline); LineError if it is not intact."""
    body = check(line)
    try:
        obj = json.loads(body)
    except (ValueError, TypeError):  # UnicodeError is a ValueError
        raise LineError
    if not isinstance(obj, dict):
        raise LineError
    return obj


class Lines:
    """The complete lines of a binary file, read in small chunks.

    A game file never sits whole in RAM. After iteration, `tail` holds bytes
    after the last newline (a truncated last line); `too_long` is set when a
    line passed _MAX_LINE and reading stopped there."""

    def __init__(self, file):
        self._file = file
        self._buffer = b""
        self._position = 0  # in the buffer
        self._at_end = False
        self.tail = b""
        self.too_long = False

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            buffer = self._buffer
            newline = buffer.find(b"\n", self._position)
            if newline >= 0:
                line = buffer[self._position:newline]
                self._position = newline + 1
                return line
            rest = buffer[self._position:]
            if self._at_end or len(rest) > _MAX_LINE:
                self.too_long = not self._at_end
                self.tail = rest
                raise StopIteration
            chunk = self._file.read(_CHUNK) or b""
            self._at_end = not chunk
            self._buffer = rest + chunk
            self._position = 0
