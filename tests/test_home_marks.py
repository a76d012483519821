"""Home's tick or cross stands beside the score of the team it judges.

After a deal EW took and failed, NS scores "+250": the cross is EW's, so it is drawn
in EW's column right beside EW's own score, never beside NS's. The layouts report
every drawing to a probe (render/text.py Regions); the firmware runs on the
MicroPython unix port, on both layouts.
"""
import json

import pytest

from conftest import run_mp

CODE = r"""
import json, sys
sys.path.insert(0, "host_tools/mp")
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
