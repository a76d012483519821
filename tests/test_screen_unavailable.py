"""A screen whose module cannot be loaded (no heap left for it, or its file missing) tells
the player in words and goes home, with nothing lost: the real App on the MicroPython unix
port, the failure injected at the import of the screen's module."""
import json
import os
import shutil

import pytest

from conftest import FIRMWARE, run_mp

PLAY = """
import json, sys, builtins
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from events.inputs import BACK, DOWN, OK, UP

mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": "classic2000"})
app.set_language(%(lang)r)
app.save_deal({"taker": "NS", "bid": 100, "trump": "H", "points": 112}, None)
before = {"deals": len(app.game.deals), "total": dict(app.game.total)}

real_import = builtins.__import__
def failing_import(name, *rest):
    if name == %(module)r:
        raise %(error)s("injected")
    return real_import(name, *rest)
if %(inject)r:
    builtins.__import__ = failing_import

app.handle(OK)  # home: the menu, on demand
out = {"screen": app.screen, "toast": app.toast_msg, "loaded": %(module)r in sys.modules,
       "deals": len(app.game.deals), "total": dict(app.game.total), "before": before}
builtins.__import__ = real_import
app.handle(OK)  # the next key clears the message; the menu opens once it can load
out["then"] = app.screen
app.render()  # the message drawn on the layout: no exception
print(json.dumps(out))
"""


def _play(lang="en", module="screens.menu", error="MemoryError", inject=True, firmware=None):
    code = PLAY % {"lang": lang, "module": module, "error": error, "inject": inject}
    if firmware is not None:
        code = "import sys\nsys.path.insert(0, %r)\n" % firmware + code
    return json.loads(run_mp(code).stdout.strip().splitlines()[-1])


def _text(lang, key):
    with open(os.path.join(FIRMWARE, "render", "lang", lang + ".txt"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(key + " = "):
                return line.split(" = ", 1)[1].rstrip("\n")
    raise KeyError(key)


@pytest.mark.parametrize("lang", ["fr", "de", "it", "en"])
def test_a_screen_without_heap_for_its_module_says_so_and_goes_home(lang):
    out = _play(lang)
    assert out["screen"] == "home" and out["toast"] == _text(lang, "e_open")
    assert not out["loaded"]
    assert out["deals"] == out["before"]["deals"] == 1 and out["total"] == out["before"]["total"]
    assert out["then"] == "menu"


def test_a_screen_whose_module_is_missing_says_so_and_goes_home(tmp_path):
    """An ImportError (a deploy that left a screen's file out): the same answer."""
    copy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    os.remove(copy / "screens" / "menu.py")
    out = _play(module="nothing", inject=False, firmware=str(copy))
    assert out["screen"] == "home" and out["toast"] == _text("en", "e_open")
    assert out["deals"] == 1 and out["then"] == "home"


def test_without_a_failure_the_menu_opens():
    out = _play(inject=False)
    assert out["screen"] == "menu" and out["toast"] is None
