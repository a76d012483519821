"""The command line every way of running the scoreboard on the host takes (the simulator,
`python -m host_tools.sim`; the emulated Pico, `python -m host_tools.rp2emu`), with the
same checks and the same messages, before any device starts."""
import argparse
import json
import sys

from coinche.suggestion import closest as suggest
from coinche.rule_options import PRESET_NAMES
from coinche.rules import DEFAULT_PRESET, Rules, RulesError

from host_tools.common.boards import board_problem
from host_tools.common.rules_help import parse_value
from host_tools.common.script import ScriptError, parse_script


class OptionError(ValueError):
    """A command-line option that cannot be used; the message names the option (or the
    script's file and line)."""


def device_parser(prog, board, board_help, screenshots_help, timeout, **parser_options):
    """An argparse parser with the options every way of running the scoreboard on the host
    takes (the simulator, the emulated Pico): --board, --script, --state-out, --rules,
    --target, --set, --screenshot-dir, --timeout, -v. The tool adds its own; checked_options()
    checks them."""
    p = argparse.ArgumentParser(prog=prog, **parser_options)
    p.add_argument("--board", default=board, help=board_help)
    p.add_argument("--script", help="press the keys of this script, headless ('-' = stdin)")
    p.add_argument("--state-out", help="write the app's state JSON here when the run ends")
    p.add_argument("--rules", help="rules preset for a fresh device (%s)" % ", ".join(PRESET_NAMES))
    p.add_argument("--target", help="target score for a fresh device (100..99990)")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE",
                   help="a rule option for a fresh device, as the calculator takes it (repeated), "
                   "e.g. --set deals=12")
    p.add_argument("--screenshot-dir", help=screenshots_help)
    p.add_argument("--timeout", type=float, default=timeout, help="seconds to wait for the device")
    p.add_argument("-v", "--verbose", action="store_true", help="show device log lines")
    return p


def checked_options(args, tool, script, boards):
    """Checks the options of device_parser(): --rules, --target and --set become what the
    device takes (the target an int, args.options a dict of option: value); the key script (script: a file, '-' for stdin, None for
    none) is read. Returns its steps (None without a script), or raises OptionError.
    boards: the --board names the tool runs. tool names the program in the note about
    `shot` lines without --screenshot-dir."""
    problem = board_problem(args.board, boards)
    if problem:
        raise OptionError("--board: " + problem)
    try:
        args.rules, args.target, args.options = check_rules(args.rules, args.target, args.set)
    except RulesError as e:
        raise OptionError("--%s" % e) from None
    if script is None:
        return None
    try:
        if script == "-":
            text = sys.stdin.read().splitlines()
        else:
            with open(script, encoding="utf-8") as f:
                text = f.read().splitlines()
        steps = parse_script(text)
    except OSError as e:
        raise OptionError(str(e)) from None
    except ScriptError as e:
        raise OptionError("%s: %s" % (script, e)) from None
    if not args.screenshot_dir and any(step[1] == "shot" for step in steps):
        print("%s: note: `shot` lines save nothing without --screenshot-dir" % tool, file=sys.stderr)
    return steps


def check_rules(preset, target, settings=()):
    """(preset, target as int, the other options as a dict) for the device, or RulesError
    with a clear message; settings: the --set OPTION=VALUE texts."""
    options = {}
    for text in settings:
        if "=" not in text:
            raise RulesError("set", "takes OPTION=VALUE, got %r" % text)
        name, value = text.split("=", 1)
        name = name.strip()
        if name == "target":
            target = value
            continue
        options[name] = parse_value(name, value.strip())
    if target is not None:
        options["target"] = parse_value("target", target)
    if preset is not None and preset not in PRESET_NAMES:
        hint = suggest(preset, PRESET_NAMES)
        raise RulesError("rules", "unknown preset %r%s (presets: %s)" % (
            preset, " - did you mean %r?" % hint if hint else "", ", ".join(PRESET_NAMES)))
    Rules(preset or DEFAULT_PRESET, options)  # the target's range, each option's values
    target = options.pop("target", None)
    return preset, target, options


def write_state(path, doc):
    """--state-out: the app's state as the simulator writes it (sorted, indented JSON)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")
