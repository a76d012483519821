"""What a newcomer's trial of the screens found, on the real App (MicroPython unix
port, fakeboard, RAM littlefs): each test names one screen a player misread.

The texts checked are the ones the screen hands to the layout (the same on both
boards); the text-fit tests see that they fit each board.
"""
import json

import pytest

from conftest import run_mp
from render import languages

HARNESS = r"""
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP, event

mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": PRESET})
app.settings["lang"] = LANG
app.set_language(LANG)
drawn = {}

def recorder(method):
    real = getattr(app.layout, method)
    def record(*args):
        drawn[method] = [a if isinstance(a, (str, int, type(None))) else repr(a) for a in args]
        return real(*args)
    setattr(app.layout, method, record)

for method in ("picker", "confirm", "ask", "listing", "hint"):
    recorder(method)

def key(button, kind=PRESS):
    app.handle(event(kind, button))
    app.render()

def hints(method, index, turns=4):
    seen = []
    for phase in range(turns):
        app.view.phase = phase
        app.render()
        seen.append(drawn[method][index])
    app.view.phase = 0
    return seen

out = {}
STEPS
print("OUT " + json.dumps(out))
"""


def play(steps, lang="fr", preset="federation"):
    code = HARNESS.replace("PRESET", repr(preset)).replace("LANG", repr(lang)).replace("STEPS", steps)
    lines = run_mp(code=code).stdout.splitlines()
    return json.loads([line for line in lines if line.startswith("OUT ")][-1][4:])


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_bid_screen_says_the_coinche_first_and_keeps_the_contract_type(lang):
    texts = languages.read_file(lang)
    out = play('key(UP)\nout["bid"] = hints("picker", 5)', lang)
    assert out["bid"][0] == texts["h_hold_coinche"]
    assert texts["h_hold_kind"] in out["bid"]
