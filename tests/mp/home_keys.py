"""Home's key rows in words and the announce picker's held-OK line, on the real App in
one MicroPython process.

argv: LAYOUT LANG
  LAYOUT  128x64 or 240x135
  LANG    fr, en, de or it

Home is drawn as time passes (its key rows turn every HINT_MS), its keys are pressed
(held OK, UP), then a federation deal's announce picker is opened; one `result {json}`
line gives the texts drawn (the layout's probe) and the screens reached;
tests/test_home_keys.py asserts on it.
"""
import sys
import json

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path[:0] = [_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/bench/device_side", _ROOT + "/host_tools/rigs/device_side"]

from blockdev import RAMBlockDev, mount  # noqa: E402
from fakeboard import Board, ColourBoard  # noqa: E402
from app import HINT_MS, App  # noqa: E402
from events.inputs import BACK, LONG, OK, PRESS, UP  # noqa: E402

LAYOUT = sys.argv[1]
LANG = sys.argv[2]
drawn = []


def probe(s, x, y, w, h, rx, ry, rw, rh):
    if s is not None:
        drawn.append(s)


def key(app, button, kind=PRESS):
    app.handle((kind << 2) | button)


def texts_of(app):
    drawn[:] = []
    app.render()
    return [str(s) for s in drawn]


def turned(app, board):
    """Let the hint's time pass on the App's clock; the texts of the next frame."""
    board.now += HINT_MS
    app.poll()
    return texts_of(app)


mount(RAMBlockDev(4096, 352), "/flash")
board = ColourBoard() if LAYOUT == "240x135" else Board()
app = App(board, {"rules": "federation"})
app.layout.probe = probe
board.now += HINT_MS - 1  # just before the boot's home turns: still its first rows
app.poll()
boot = {"phase_before": app.view.phase}
board.now += 1
app.poll()
boot["phase_at"] = app.view.phase
app.settings["lang"] = LANG
app.set_language(LANG)
app.save_deal({"taker": "NS", "bid": 100, "trump": "H", "points": 120}, None)
app.toast_msg = None
app.home()
out = {"texts": {k: app.texts[k] for k in ("home_ok", "home_back", "home_arrows", "home_arrows_2", "home_hold",
                                           "deals_n", "quarte")}}
out["home"] = [texts_of(app)] + [turned(app, board) for _ in range(3)]
out["boot"] = boot
app.settings["dim"] = 30  # seconds without a key: the screen dims and its rows stop turning
board.now += 30 * 1000
app.poll()
dimmed = {"dimmed": app.dimmed, "phase": app.view.phase}
board.now += 3 * HINT_MS
app.poll()
dimmed["phase_later"] = app.view.phase
out["dimmed"] = dimmed
del app.settings["dim"]
key(app, OK, LONG)
out["held_ok"] = app.view.name
key(app, BACK)
key(app, UP)
out["up"] = app.view.name
# the contract (80, the suit), then the check step: NS hold OK there
key(app, OK)
out["confirm"] = app.view.name
key(app, OK, LONG)
out["picker"] = getattr(app.view, "meld_team", None)
out["picker_texts"] = texts_of(app)
print("result " + json.dumps(out))
