"""Coinche calculator: deal records (JSON lines) in, one JSON result per deal out.

Runs unchanged as `python3 -m host_tools.score` and as
`micropython host_tools/score.py` (the unix port has no argparse, so the
arguments are parsed by hand), on the very scoring core the device runs.
"""

import sys

try:
    _here = __file__
except NameError:  # pragma: no cover
    _here = "host_tools/score.py"
_sep = _here.rfind("/")
_root = (_here[:_sep] if _sep >= 0 else ".") + "/.."
if _root + "/firmware" not in sys.path:
    sys.path.insert(0, _root + "/firmware")
if _here[:_sep] not in sys.path:  # for rules_help, under both interpreters
    sys.path.insert(0, _here[:_sep] if _sep >= 0 else ".")

import json  # noqa: E402

from coinche.game import Game, GameError  # noqa: E402
from coinche.record import RecordError  # noqa: E402
from coinche.rules import OPTIONS, ORDER, PRESET_NAMES, PRESETS, Rules, RulesError  # noqa: E402
from rules_help import HELP, parse_value  # noqa: E402

USAGE = "usage: score.py --rules PRESET [--target N] [--set OPTION=VALUE ...] [FILE]"


def help_text():
    lines = [USAGE, "",
             "Reads one deal record (JSON, see RULES.md) per line from FILE or stdin as one game",
             "and prints one JSON object per deal: made, score, total, over, winner.",
             "", "presets:"]
    for p in PRESET_NAMES:
        lines.append("  %-12s target %d" % (p, PRESETS[p]["target"]))
    lines.append("")
    lines.append("options (--set OPTION=VALUE), with each preset's value:")
    lines.append("  %-15s %s" % ("", "  ".join("%-12s" % p for p in PRESET_NAMES)))
    for name in ORDER:
        allowed, desc = OPTIONS[name], HELP[name]
        lines.append("  %-15s %s" % (name, "  ".join("%-12s" % _show(PRESETS[p][name]) for p in PRESET_NAMES)))
        vals = "whole number" if allowed is None else " | ".join(_show(a) for a in allowed)
        lines.append("      %s  [%s]" % (desc, vals))
    return "\n".join(lines) + "\n"


def _show(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    return str(v)


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
    """One output object, built by hand so both interpreters print the same bytes."""
    r = game.results[-1]
    return '{"made": %s, "score": %s, "total": %s, "over": %s, "winner": %s}' % (
        _json_value(r.made), _json_team(r.score), _json_team(game.total),
        _json_value(game.over), _json_value(game.winner))


class UsageError(Exception):
    pass


def parse_args(argv):
    preset = None
    overrides = {}
    path = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            return None
        if a.startswith("--") and "=" in a:
            a, val = a.split("=", 1)
            argv = argv[:i] + [a, val] + argv[i + 1:]
        if a in ("--rules", "--target", "--set"):
            if i + 1 >= len(argv):
                raise UsageError("%s needs a value" % a)
            val = argv[i + 1]
            i += 2
            if a == "--rules":
                preset = val
            elif a == "--target":
                overrides["target"] = parse_value("target", val)
            else:
                if "=" not in val:
                    raise UsageError("--set takes OPTION=VALUE, got %r" % val)
                k, v = val.split("=", 1)
                overrides[k.strip()] = parse_value(k.strip(), v.strip())
            continue
        if a.startswith("-") and a != "-":
            raise UsageError("unknown argument %r" % a)
        if path is not None:
            raise UsageError("only one FILE may be given")
        path = a
        i += 1
    if preset is None:
        raise UsageError("--rules PRESET is required (presets: %s)" % ", ".join(PRESET_NAMES))
    return preset, overrides, path


def run(lines, rules, out, err):
    """Score the lines as one game. Returns the exit status (0, or 2 at the first bad line)."""
    game = Game(rules)
    n = 0
    for line in lines:
        n += 1
        text = line.strip()
        if not text:
            continue
        try:
            rec = json.loads(text)
        except ValueError:
            err.write("line %d: malformed JSON: %s\n" % (n, text[:60]))
            return 2
        if not isinstance(rec, dict):
            err.write("line %d: a deal record must be a JSON object\n" % n)
            return 2
        try:
            game.add(rec)
        except (RecordError, GameError) as e:
            err.write("line %d: %s\n" % (n, e))
            return 2
        out.write(result_line(game) + "\n")
    return 0


def _lines(stream):
    while True:
        line = stream.readline()
        if not line:
            return
        yield line


def main(argv):
    try:
        parsed = parse_args(argv)
        if parsed is None:
            sys.stdout.write(help_text())
            return 0
        preset, overrides, path = parsed
        rules = Rules(preset, overrides)
    except (UsageError, RulesError) as e:
        sys.stderr.write("score: %s\n%s\n" % (e, USAGE))
        return 2
    if path is None or path == "-":
        return run(_lines(sys.stdin), rules, sys.stdout, sys.stderr)
    try:
        f = open(path)
    except OSError:
        sys.stderr.write("score: cannot open %s\n" % path)
        return 2
    try:
        return run(_lines(f), rules, sys.stdout, sys.stderr)
    finally:
        f.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
