"""The code a game does not use is loaded on demand and released (firmware/modules_on_demand.py).

With make deploy's .mpy files an imported module's bytecode is on the heap as long as it
is referenced, so which modules are loaded is what the .mpy heap budget rests on
(tests/test_budgets.py measures it on the emulated RP2040). Here, on the unix port, which
modules the real App holds after each step, and that a screen's module is loaded once
per visit: not a second copy while its own key handler still runs.
"""
import json

from conftest import run_mp

ON_DEMAND = ("ui.app_start", "store.journal_recovery", "ui.i18n", "ui.history_screens", "ui.settings_screens",
             "ui.past_games_screen", "ui.chart", "ui.stats", "coinche.stats")

PLAY = """
import json, sys
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from ui.app import App
from ui import screens as S
from ui.inputs import BACK, DOWN, OK, UP

ON_DEMAND = %r
mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": "classic2000"})
out = {}

def loaded(step):
    out[step] = [name for name in ON_DEMAND if name in sys.modules]

def open_menu_item(key):
    app.go(S.Menu(app))
    app.view.pick(S.Menu.ITEMS.index(key))

loaded("booted")
app.save_deal({"taker": "NS", "bid": 100, "trump": "H", "points": 112}, None)
open_menu_item("m_settings")
loaded("settings open")
app.handle(BACK)
loaded("settings closed")

# the next-dealer picker: OK goes back to the menu (which releases the picker's module)
# and then corrects the dealer with the module's own function, not a fresh import of it
imports = []
real_import = __import__
def counting_import(name, *rest):
    if name == "ui.settings_screens":
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


def test_modules_loaded_at_each_step_of_a_visit():
    out = json.loads(run_mp(code=PLAY).stdout.strip().splitlines()[-1])
    # the start, the journal's reading back and the language reader: gone once the app runs
    assert out["booted"] == []
    assert out["settings open"] == ["ui.settings_screens"]
    assert out["settings closed"] == []
    # correcting the dealer: one import when the picker opens, none when OK saves
    assert out["dealer unchanged"] == []
    assert out["dealer"][0] != out["dealer"][1] and out["dealer"][2] == "home"
    assert out["dealer corrected"] == []
    assert out["settings imports"] == 2  # one per visit of the picker
    assert out["setting changed from the REPL"] == []
    # the deal's menu comes from the same module as the deals list: kept while it is open
    assert out["history open"] == ["ui.history_screens"]
    assert out["deal menu open"] == ["ui.history_screens"]
    assert out["home"] == []
    # past games keep their own module only (the History class they open comes with it)
    assert out["past games open"] == ["ui.past_games_screen"]
    # statistics use chart's key bar: held by ui.stats, out of sys.modules
    assert out["stats open"] == ["ui.stats"]
    assert out["stats closed"] == []
