"""The key script language: what `--script FILE` holds, for the simulator, the emulated
Pico and the bench alike.

One event per line: up | down | ok | back (a short press), hold KEY MS, wait MS, shot NAME;
`#` starts a comment. parse_script() turns the text into steps; every tool plays the steps
its own way (the simulator in virtual time, the emulator on GPIO pins)."""
import re

BUTTONS = ("UP", "DOWN", "OK", "BACK")  # the device's order: the board's BUTTON_PINS follow it
PRESS_MS = 40  # a scripted press: down this long,
GAP_MS = 60  # then up this long before the next event

_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


class ScriptError(ValueError):
    """A script line that cannot be understood; names the line number."""


def parse_script(lines):
    """Script text (lines) -> [(lineno, op, arg...)]; ScriptError on a bad line.

    ops: ("press", BTN), ("hold", BTN, ms), ("wait", ms), ("shot", NAME)."""
    steps = []
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        op = words[0].lower()
        try:
            if op.upper() in BUTTONS and len(words) == 1:
                steps.append((n, "press", op.upper()))
            elif op == "hold" and len(words) == 3 and words[1].upper() in BUTTONS:
                steps.append((n, "hold", words[1].upper(), _milliseconds(words[2])))
            elif op == "wait" and len(words) == 2:
                steps.append((n, "wait", _milliseconds(words[1])))
            elif op == "shot" and len(words) == 2 and _NAME_RE.match(words[1]):
                steps.append((n, "shot", words[1]))
            else:
                raise ValueError("expected up|down|ok|back, hold BUTTON MS, wait MS or shot NAME (see --help)")
        except ValueError as e:
            raise ScriptError("line %d: %s: %r" % (n, e, raw.rstrip("\n"))) from None
    return steps


def is_steps(lines):
    """Whether `lines` are parse_script()'s steps already (not script text)."""
    return isinstance(lines, list) and bool(lines) and isinstance(lines[0], tuple)


def button_name(button):
    """The device's name of a button given in any case; ValueError for an unknown one."""
    name = button.upper()
    if name not in BUTTONS:
        raise ValueError("unknown button %r" % button)
    return name


def _milliseconds(word):
    if not word.isdigit():
        raise ValueError("milliseconds must be a whole number, got %r" % word)
    return int(word)


SCRIPT_LANGUAGE_HELP = """\
script language (--script FILE, or a script on stdin), one event per line:
  up | down | ok | back   a short press: the button down %(press)d ms, then up %(gap)d ms
  hold KEY MS             KEY (up, down, ok, back) held down MS ms, then up %(gap)d ms,
                          e.g. "hold ok 1200" (a long OK) or "hold up 2000" (repeat)
  wait MS                 MS ms pass with no button down (e.g. "wait 130000")
  shot NAME               save the current picture as NAME.png in --screenshot-dir
                          (NAME: letters, digits, _ . -)
  # text                  a comment, alone or after an event; blank lines are skipped
Names are case-insensitive; MS is a whole number of milliseconds. Virtual time
only moves with these events, so a script gives the same pictures every run.
A bad line stops the run before it starts, naming the line.
"""
