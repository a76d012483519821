"""Coinche calculator: deal records (JSON lines) in, one JSON result per deal out.

Runs unchanged as `python3 -m host_tools.score` and as
`micropython host_tools/score.py` (both forward here; the unix port has no
argparse, so the arguments are parsed by hand), on the very scoring core the
device runs.

Both interpreters give the same answer for any bytes in: the input is read
as bytes, a line at a time and at most MAX_LINE_BYTES of it, checked as
strict UTF-8 and strict JSON by code of our own (strict_json.py, next to this
file), and scored as it streams (coinche.game.RunningScore): time grows with the
number of deals, memory does not. Results go to stdout, every message to
stderr, with anything unprintable from the input escaped.
"""

import sys

try:  # CPython: the host_tools package (its import puts firmware/ on sys.path)
    from host_tools.calculator.round_end import EndError, after_end_error, is_end, winner_on_time
    from host_tools.calculator.strict_json import WHITESPACE, JSONError, escape, parse
    from host_tools.common.rules_help import HELP, UsageError, parse_rules_arguments
except ImportError:  # MicroPython runs this file as a script: no package, its folders by hand
    try:
        _here = __file__
    except NameError:  # pragma: no cover
        _here = "host_tools/calculator/score.py"
    _folder = _here[:_here.rfind("/")] if "/" in _here else "."
    for _path in (_folder + "/../../firmware", _folder + "/../common", _folder):
        if _path not in sys.path:
            sys.path.insert(0, _path)
    from rules_help import HELP, UsageError, parse_rules_arguments
    from round_end import EndError, after_end_error, is_end, winner_on_time
    from strict_json import WHITESPACE, JSONError, escape, parse

from coinche.game import GameError, RunningScore
from coinche.record import RecordError
from coinche.rule_options import EVERY_OPTION, MAX_ROUND_DEALS, PRESET_NAMES, PRESETS, ROUND_DEFAULTS, allowed_values, value_text
from coinche.rules import Rules, RulesError

EPIPE = 32  # errno of a write to a closed pipe (Linux)
MAX_LINE_BYTES = 4096  # a deal record is a short line; longer is refused, never read whole
EXCERPT_CHARS = 60
UTF8_BOM = b"\xef\xbb\xbf"
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")

USAGE = "usage: score.py --rules PRESET [--target N] [--set OPTION=VALUE ...] [FILE]"


def help_text():
    lines = [USAGE, "",
             "Reads one deal record (JSON, see RULES.md) per line from FILE or stdin as one game",
             "and prints one JSON object per deal: made, score, total, over, winner.",
             'A last record {"end": "time"} ends the round on time after the deals played.',
             "", "presets:"]
    for p in PRESET_NAMES:
        lines.append("  %-12s target %d" % (p, PRESETS[p]["target"]))
    lines.append("")
    lines.append("options (--set OPTION=VALUE), with each preset's value:")
    lines.append("  %-15s %s" % ("", "  ".join("%-12s" % p for p in PRESET_NAMES)))
    for name in EVERY_OPTION:
        allowed, desc = allowed_values(name), HELP[name]
        values = [PRESETS[p][name] if name in PRESETS[p] else ROUND_DEFAULTS[name] for p in PRESET_NAMES]
        lines.append("  %-15s %s" % (name, "  ".join("%-12s" % value_text(v) for v in values)))
        if name == "deals":
            vals = "0 to %d" % MAX_ROUND_DEALS
        else:
            vals = "whole number" if allowed is None else " | ".join(value_text(a) for a in allowed)
        lines.append("      %s  [%s]" % (desc, vals))
    return "\n".join(lines) + "\n"


def _json_team(d):
    return '{"NS": %d, "EW": %d}' % (d["NS"], d["EW"])


def _json_value(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    return '"%s"' % v


def result_line(game):
    """One output object, built by hand so both interpreters print the same bytes.
    winner: NS or EW, "draw" when a fixed round ended with equal totals, null while
    the game goes on."""
    r = game.last
    winner = game.winner
    if game.over and winner is None:
        winner = "draw"
    return '{"made": %s, "score": %s, "total": %s, "over": %s, "winner": %s}' % (
        _json_value(r.made), _json_team(r.score), _json_team(game.total),
        _json_value(game.over), _json_value(winner))


def end_line(game):
    """The output object of the end record: the round over on time, its winner by the totals."""
    return '{"end": "time", "deals": %d, "total": %s, "over": true, "winner": %s}' % (
        game.count, _json_team(game.total), _json_value(winner_on_time(game.total)))


def utf8_problem(raw):
    """None if the bytes are strict UTF-8 (as CPython decodes it: no overlong
    forms, no surrogates, nothing past U+10FFFF), else the index of the first
    bad byte. Our own check: MicroPython's decoder is more lenient."""
    i = 0
    n = len(raw)
    while i < n:
        b = raw[i]
        if b < 0x80:
            i += 1
            continue
        if 0xC2 <= b <= 0xDF:
            size, low, high = 2, 0x80, 0xBF
        elif b == 0xE0:
            size, low, high = 3, 0xA0, 0xBF
        elif 0xE1 <= b <= 0xEC or 0xEE <= b <= 0xEF:
            size, low, high = 3, 0x80, 0xBF
        elif b == 0xED:
            size, low, high = 3, 0x80, 0x9F  # no surrogates
        elif b == 0xF0:
            size, low, high = 4, 0x90, 0xBF
        elif 0xF1 <= b <= 0xF3:
            size, low, high = 4, 0x80, 0xBF
        elif b == 0xF4:
            size, low, high = 4, 0x80, 0x8F  # nothing past U+10FFFF
        else:
            return i
        if i + 1 >= n or not low <= raw[i + 1] <= high:
            return i
        for k in range(i + 2, i + size):
            if k >= n or not 0x80 <= raw[k] <= 0xBF:
                return i
        i += size
    return None


def excerpt(text):
    """The start of a line for a message, escaped."""
    if len(text) > EXCERPT_CHARS:
        return escape(text[:EXCERPT_CHARS]) + "..."
    return escape(text)


class LineReader:
    """Lines of a binary stream read in blocks, each at most `limit` bytes:
    readline() returns a line with its newline, or `limit + 1` bytes without
    one when the line is longer, or b"" at the end. Memory: one block plus
    one line. (MicroPython's own readline() reads a byte per system call.)"""

    BLOCK = 4096

    def __init__(self, stream, limit):
        self.limit = limit
        # read1: what is there (a pipe or a terminal need not fill a block)
        self.read = getattr(stream, "read1", stream.read)
        self.buffer = b""
        self.start = 0
        self.ended = False

    def readline(self):
        limit = self.limit
        while True:
            start = self.start
            buffer = self.buffer
            newline = buffer.find(b"\n", start)
            if 0 <= newline <= start + limit:
                self.start = newline + 1
                return buffer[start:newline + 1]
            if newline >= 0 or len(buffer) - start > limit:
                self.start = start + limit + 1
                return buffer[start:start + limit + 1]
            if self.ended:
                self.start = len(buffer)
                return buffer[start:]
            block = self.read(self.BLOCK)
            if not block:
                self.ended = True
            else:
                self.buffer = buffer[start:] + block
                self.start = 0


class StreamLines:
    """The stream's own readline, bounded (MicroPython's stdin, which has no
    read1: a block read there would wait for a whole block)."""

    def __init__(self, stream, limit):
        self.stream = stream
        self.limit = limit

    def readline(self):
        return self.stream.readline(self.limit + 1)


def line_source(stream, is_file):
    if is_file or hasattr(stream, "read1"):
        return LineReader(stream, MAX_LINE_BYTES)
    return StreamLines(stream, MAX_LINE_BYTES)


def run(lines, rules, out, err):
    """Score the lines (a LineReader or StreamLines) as one game, as they come.
    Returns the exit status (0, or 2 at the first bad line)."""
    game = RunningScore(rules)
    n = 0
    ended = 0  # the line of the end record, once read
    while True:
        raw = lines.readline()
        if not raw:
            return 0
        n += 1
        if len(raw) > MAX_LINE_BYTES and raw[-1] != 0x0A:
            err.write("line %d: longer than %d bytes; a deal record is one short line\n" % (n, MAX_LINE_BYTES))
            return 2
        if n == 1:
            if raw[:3] == UTF8_BOM:
                raw = raw[3:]  # a UTF-8 byte order mark (some editors add one): skipped
            elif raw[:2] in UTF16_BOMS:
                err.write("line 1: the input is UTF-16 (it starts with the byte order mark %02X %02X); "
                          "save it as UTF-8\n" % (raw[0], raw[1]))
                return 2
        if raw and max(raw) >= 0x80:
            bad = utf8_problem(raw)
            if bad is not None:
                err.write("line %d: not UTF-8 text (byte 0x%02X at byte %d); save the file as UTF-8\n"
                          % (n, raw[bad], bad + 1))
                return 2
        line = str(raw, "utf-8")
        text = line.strip(WHITESPACE)
        if not text:
            continue
        try:
            rec = parse(text)
        except JSONError as e:
            column = e.column + len(line) - len(line.lstrip(WHITESPACE))
            err.write("line %d: malformed JSON at column %d: %s: %s\n" % (n, column, e.message, excerpt(text)))
            return 2
        if not isinstance(rec, dict):
            err.write("line %d: a deal record must be a JSON object\n" % n)
            return 2
        try:
            if ended:
                raise after_end_error(ended)
            if is_end(rec):
                if game.over:
                    raise GameError("the round is already over (after deal %d): it cannot also end on time" % game.count)
                ended = n
                out.write(end_line(game) + "\n")
                continue
            game.add(rec)
        except (RecordError, GameError, EndError) as e:
            err.write("line %d: %s\n" % (n, escape(str(e))))
            return 2
        out.write(result_line(game) + "\n")


def _is_directory(path):
    import os
    try:
        return os.stat(path)[0] & 0o170000 == 0o040000
    except OSError:
        return False


def _binary(stream):
    return getattr(stream, "buffer", stream)


def main(argv):
    try:
        parsed = parse_rules_arguments(argv)
        if parsed is None:
            sys.stdout.write(help_text())
            return 0
        preset, overrides, path = parsed
        rules = Rules(preset, overrides)
    except (UsageError, RulesError) as e:
        sys.stderr.write("score: %s\n%s\n" % (escape(str(e)), USAGE))
        return 2
    if path is None or path == "-":
        return run(line_source(_binary(sys.stdin), False), rules, sys.stdout, sys.stderr)
    if _is_directory(path):  # MicroPython would open it and fail at the first read
        sys.stderr.write("score: cannot open %s: it is a directory\n" % escape(path))
        return 2
    try:
        f = open(path, "rb")
    except OSError:
        sys.stderr.write("score: cannot open %s\n" % escape(path))
        return 2
    try:
        return run(line_source(f, True), rules, sys.stdout, sys.stderr)
    finally:
        f.close()


def guarded_main(argv):
    """main(), with the few failures no input check can rule out turned into a
    message and an exit status, never a traceback."""
    try:
        return main(argv)
    except MemoryError:
        sys.stderr.write("score: out of memory\n")
        return 3
    except KeyboardInterrupt:
        sys.stderr.write("score: interrupted\n")
        return 130
    except OSError as e:  # a read error, or whoever reads our output went away
        number = e.args[0] if e.args and isinstance(e.args[0], int) else 0
        if number != EPIPE:  # a closed pipe (`| head`) needs no message
            try:
                sys.stderr.write("score: input/output error (errno %d)\n" % number)
            except OSError:
                pass
        return 3


if __name__ == "__main__":
    sys.exit(guarded_main(sys.argv[1:]))
