"""The code a game does not use is loaded on demand and released (firmware/on_demand.py).

With make deploy's .mpy files an imported module's bytecode is on the heap as long as it
is referenced, so which modules are loaded is what the .mpy heap budget rests on
(tests/test_budgets.py measures it on the emulated RP2040). Here, on the unix port, which
modules the real App holds after each step, and that a screen's module is loaded once
per visit: not a second copy while its own key handler still runs. And the one table
(on_demand.MODULES) against the firmware and against docs/architecture.md.
"""
import ast
import functools
import json
import os
import re

import on_demand
from conftest import FIRMWARE, ROOT, run_mp

ON_DEMAND = tuple(on_demand.MODULES)

PLAY = """
import json, sys
from blockdev import RAMBlockDev, mount
from fakeboard import Board
import on_demand
from app import App
from events.inputs import BACK, DOWN, OK, UP

ON_DEMAND = %r
mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": "classic2000"})
out = {}

def loaded(step):
    out[step] = [name for name in ON_DEMAND if name in sys.modules]

def open_menu_item(key):
    app.go(on_demand.screen("Menu")(app))
    app.view.pick(app.view.ITEMS.index(key))

loaded("booted")
app.handle(OK)
loaded("menu open")
app.handle(BACK)
loaded("menu closed")
app.save_deal({"taker": "NS", "bid": 100, "trump": "H", "points": 112}, None)
open_menu_item("m_settings")
loaded("settings open")
app.handle(BACK)
loaded("settings closed")
out["back from settings"] = app.screen

# the next-dealer picker: OK goes back to the menu (which releases the picker's module)
# and then corrects the dealer with the module's own function, not a fresh import of it
imports = []
real_import = __import__
def counting_import(name, *rest):
    if name == "screens.settings":
        imports.append(name)
    return real_import(name, *rest)
import builtins
builtins.__import__ = counting_import
dealer_before = app.game.dealer()
open_menu_item("m_dealer")
app.handle(OK)  # the same seat: nothing written
loaded("dealer unchanged")
open_menu_item("m_dealer")
app.handle(UP)
app.handle(OK)  # another seat: journaled, home shows it
out["dealer"] = [dealer_before, app.game.dealer(), app.screen]
loaded("dealer corrected")
builtins.__import__ = real_import
out["settings imports"] = len(imports)

app.change_setting("s_dim", 60)  # from outside a settings screen (the REPL, the bench)
loaded("setting changed from the REPL")

open_menu_item("m_history")
loaded("history open")
app.handle(OK)  # the deal's menu
loaded("deal menu open")
app.home()
loaded("home")

app.game.over = False
open_menu_item("m_games")
loaded("past games open")
app.home()
open_menu_item("m_stats")
loaded("stats open")
app.handle(BACK)
loaded("stats closed")
print(json.dumps(out))
""" % (ON_DEMAND,)


@functools.lru_cache(maxsize=None)
def _visit():
    return json.loads(run_mp(code=PLAY).stdout.strip().splitlines()[-1])


def test_back_from_the_settings_returns_to_the_menu_that_opened_them():
    assert _visit()["back from settings"] == "menu"


def test_modules_loaded_at_each_step_of_a_visit():
    out = _visit()
    # the start, the journal's reading back and the language reader: gone once the app runs
    assert out["booted"] == []
    # the menu: loaded while it is open, released on the way back home
    assert out["menu open"] == ["screens.menu"]
    assert out["menu closed"] == []
    # the settings opened from the menu: BACK returns there, so the menu stays loaded meanwhile
    assert out["settings open"] == ["screens.menu", "screens.settings"]
    assert out["settings closed"] == ["screens.menu"]
    # correcting the dealer: one import when the picker opens, none when OK saves; the
    # same seat goes back to the menu (open, so loaded), another one home
    assert out["dealer unchanged"] == ["screens.menu"]
    assert out["dealer"][0] != out["dealer"][1] and out["dealer"][2] == "home"
    assert out["dealer corrected"] == []
    assert out["settings imports"] == 2  # one per visit of the picker
    assert out["setting changed from the REPL"] == []
    # the deal's menu comes from the same module as the deals list: kept while it is open
    assert out["history open"] == ["screens.history"]
    assert out["deal menu open"] == ["screens.history"]
    assert out["home"] == []
    # past games keep their own module only (the History class they open comes with it)
    assert out["past games open"] == ["screens.past_games"]
    # statistics use chart's key bar: held by screens.stats, out of sys.modules
    assert out["stats open"] == ["screens.menu", "screens.stats"]
    assert out["stats closed"] == ["screens.menu"]


def _module_path(name):
    return os.path.join(FIRMWARE, *name.split(".")) + ".py"


def test_every_module_of_the_table_defines_the_screens_it_lists():
    for name, screens in on_demand.MODULES.items():
        with open(_module_path(name), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        classes = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
        assert set(screens or ()) <= classes, (name, screens, classes)


def test_no_firmware_module_imports_a_screen_module_of_the_table_but_through_it():
    """A module loaded on demand with screens is reached through on_demand.screen() only (an
    import elsewhere would keep it loaded, or load it where the table does not say)."""
    screen_modules = {name for name, screens in on_demand.MODULES.items() if screens}
    found = []
    for top, _dirs, names in os.walk(FIRMWARE):
        for file_name in names:
            if not file_name.endswith(".py"):
                continue
            path = os.path.join(top, file_name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module:
                    targets = {node.module} | {node.module + "." + alias.name for alias in node.names}
                elif isinstance(node, ast.Import):
                    targets = {alias.name for alias in node.names}
                else:
                    continue
                for target in targets & screen_modules:
                    found.append("%s imports %s" % (os.path.relpath(path, FIRMWARE), target))
    assert found == []


def _docs_table():
    """{module: screens or None} of the table "Modules loaded on demand" in docs/architecture.md."""
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("## Modules loaded on demand", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`"):
            continue
        name = cells[0].strip("`")
        screens = cells[1]
        rows[name] = None if screens == "-" else tuple(re.findall(r"`(\w+)`", screens))
    return rows


def test_the_architecture_page_shows_the_table_of_the_code():
    assert _docs_table() == on_demand.MODULES
