"""What players read at a glance is where it belongs: home's tick or cross beside the
score of the team it judges, the chart's two end labels apart, past games naming
their rules on the 128x64 screen.

After a deal EW took and failed, NS scores "+250": the cross is EW's, so it is drawn
in EW's column right beside EW's own score, never beside NS's. The layouts report
every drawing to a probe (render/text.py Regions); the firmware runs on the
MicroPython unix port, on both layouts.
"""
import json

import pytest

from conftest import run_mp
from render import languages

CODE = r"""
import json, sys
sys.path[:0] = ["host_tools/sim/device_side", "host_tools/rigs/device_side"]
from blockdev import RAMBlockDev, mount
from fakeboard import Board, ColourBoard
from app import App
mount(RAMBlockDev(4096, 352), "/flash")
board = ColourBoard() if sys.argv[-1] == "240x135" else Board()
app = App(board, {"rules": "classic2000"})
app.save_deal({"taker": TAKER, "bid": 160, "trump": "H", "points": 100}, None)
app.toast_msg = None
drawn = []
app.layout.probe = lambda s, x, y, w, h, rx, ry, rw, rh: drawn.append((s if isinstance(s, str) else str(s), x, y, w, h))
app.home()
app.render()
print("scores", json.dumps(dict(app.game.results[-1].score)))
print("drawn", json.dumps(drawn))
"""


def _home(layout, taker):
    out = run_mp(code=CODE.replace("TAKER", repr(taker)), args=(layout,)).stdout.splitlines()
    scores = json.loads([line for line in out if line.startswith("scores ")][0][7:])
    drawn = json.loads([line for line in out if line.startswith("drawn ")][0][6:])
    return scores, drawn


def _gap(a, b):
    """Horizontal pixels between two boxes on the same line (0 when they touch or overlap)."""
    return max(0, b[1] - (a[1] + a[3]), a[1] - (b[1] + b[3]))


@pytest.mark.parametrize("layout", ["128x64", "240x135"])
@pytest.mark.parametrize("taker", ["NS", "EW"])
def test_the_failure_cross_is_beside_the_takers_score(layout, taker):
    scores, drawn = _home(layout, taker)
    defence = "EW" if taker == "NS" else "NS"
    assert scores[taker] == 0 and scores[defence] > 0
    crosses = [d for d in drawn if d[0] == "x"]
    assert len(crosses) == 1, drawn
    cross = crosses[0]
    # the deal scores, on the cross's line: NS's is the left one
    line = sorted((d for d in drawn if d[0].isdigit() and abs(d[2] - cross[2]) < 8), key=lambda d: d[1])
    assert len(line) == 2, drawn
    own, other = (line[0], line[1]) if taker == "NS" else (line[1], line[0])
    middle = 64 if layout == "128x64" else 120
    assert (cross[1] >= middle) == (taker == "EW"), (cross, middle)
    assert _gap(cross, own) < _gap(cross, other), (cross, own, other)


SCREEN = r"""
import json, sys
sys.path[:0] = ["host_tools/sim/device_side", "host_tools/rigs/device_side"]
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from coinche.game import Game
from coinche.rules import Rules
import on_demand
mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": PRESET})
app.settings["lang"] = LANG
app.set_language(LANG)
for rec in DEALS:
    app.save_deal(rec, None)
    app.toast_msg = None
if NEW_GAME:
    app.new_game()
    app.toast_msg = None
drawn = []
app.layout.probe = lambda s, x, y, w, h, rx, ry, rw, rh: drawn.append((s if isinstance(s, str) else str(s), x, y, w, h))
Screen = on_demand.screen(SCREEN_NAME)
app.go(Screen(app, app.view) if SCREEN_NAME == "Chart" else Screen(app))
app.render()
print("drawn", json.dumps(drawn))
"""


def _drawn(screen, deals, preset="classic2000", lang="fr", new_game=False):
    code = (SCREEN.replace("PRESET", repr(preset)).replace("LANG", repr(lang)).replace("DEALS", repr(deals))
            .replace("NEW_GAME", repr(new_game)).replace("SCREEN_NAME", repr(screen)))
    out = run_mp(code=code).stdout.splitlines()
    return json.loads([line for line in out if line.startswith("drawn ")][0][6:])


def _deal(taker, points):
    return {"taker": taker, "bid": 80, "trump": "H", "points": points}


@pytest.mark.parametrize("deals", [
    [_deal("NS", 100)] * 6 + [_deal("EW", 100)] * 6,  # level all game: both lines end at the top
    [_deal("NS", 81), _deal("EW", 82)] * 3,  # close, low
    [_deal("NS", 162)] * 3 + [_deal("EW", 90)],  # far apart
    [_deal("NS", 162)] * 12,  # NS at the top, EW at the bottom
], ids=["level", "close", "apart", "ends"])
def test_the_charts_end_labels_never_touch(deals):
    texts = languages.read_file("fr")
    drawn = _drawn("Chart", deals)
    ends = [d for d in drawn if d[0] in (texts["NS"], texts["EW"])]
    assert len(ends) == 2, drawn
    upper, lower = sorted(ends, key=lambda d: d[2])
    assert lower[2] - (upper[2] + upper[4]) >= 2, (upper, lower)  # two blank rows between them
    assert upper[2] >= 9 and lower[2] + lower[4] <= 54, (upper, lower)  # under the title bar, over the totals


@pytest.mark.parametrize("lang", languages.LANGS)
@pytest.mark.parametrize("preset", ["classic2000", "federation", "coinche1000", "coinche1001"])
def test_past_games_name_their_rules_on_the_oled(preset, lang):
    texts = languages.read_file(lang)
    drawn = _drawn("Archive", [_deal("NS", 100)] * 12, preset, lang, new_game=True)
    name = texts["p_" + preset]
    assert any(d[0].startswith(name) for d in drawn), (name, [d[0] for d in drawn])
