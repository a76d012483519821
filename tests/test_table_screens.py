"""History rows, past games and game over, as data.

The pictures are checked by the goldens and the text-fit test; here the content:
numbered rows, made/failed, capot and belote marks, deal scores and running
totals that add up, the winner and deal count of a past game, OK on a past game
opening its deals read-only, game over keys. Runs the real App in-process on
the MicroPython unix port.
"""
import json

from conftest import run_mp

PLAY = """
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from screens import history as history_screens, past_games as past_games_screen
from events.inputs import BACK, DOWN, OK, UP

mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": "classic2000"})
for rec in [
        {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 112},
        {"taker": "EW", "bid": 80, "trump": "S", "points": 67, "belote": {"NS": 0, "EW": 1}},
        {"bid": "pass"},
        {"taker": "NS", "bid": 160, "trump": "D", "points": 162, "tricks": 8},
        {"taker": "EW", "bid": 120, "trump": "C", "points": 60}]:
    app.save_deal(rec, None)
out = {"rows": history_screens.History(app).rows(), "scores": [[r.score["NS"], r.score["EW"]] for r in app.game.results],
       "total": app.game.total}
while not app.game.over:  # NS capots to the end
    app.save_deal({"taker": "NS", "bid": "capot", "trump": "S", "points": 162, "tricks": 8}, None)
out["deals"] = len(app.game.deals)
out["final"] = app.game.total
app.home()
out["over_screen"] = app.screen
app.handle(UP)
out["over_up"] = app.screen
app.home()
app.handle(DOWN)
out["over_down"] = app.screen
app.home()
app.handle(OK)  # a new game, same rules: the finished one goes to the past games
out["after_new"] = (app.screen, len(app.game.deals))
arc = past_games_screen.Archive(app)
app.go(arc)
out["archive"] = arc.rows()
app.handle(OK)
out["opened"] = app.screen
out["past_rows"] = [r[0] for r in app.view.rows()]
out["past_last_row"] = app.view.rows()[-1][1]
app.handle(UP)
app.handle(OK)  # read-only: OK on a past deal shows what was recorded, nothing to edit
out["after_ok"] = app.screen
out["past_deal_rows"] = app.view.rows()
app.handle(BACK)
out["back"] = app.screen
app.handle(BACK)
out["back_again"] = app.screen
print(json.dumps(out))
"""


def test_history_past_games_and_game_over():
    out = json.loads(run_mp(code=PLAY).stdout.strip().splitlines()[-1])
    rows = out["rows"]
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5]  # numbered
    # the contract with its coinche; the belote and the capot marked; longest text first
    assert rows[0][1][0] == "100 x2" and rows[0][2] is True and rows[0][5] == 0
    assert rows[1][1][0] == "80 bel." and rows[1][5] == 1
    assert rows[2][1][0] == "Passe" and rows[2][2] is None and rows[2][5] is None
    assert rows[2][3][0] is None and rows[2][4][0] is None  # a pass scores nothing: totals only
    assert rows[3][1][0] == "160 capot" and rows[3][1][-1] == "160 C"
    assert rows[4][2] is False and rows[4][5] == 1  # EW 120 failed
    # each row: (deal score, running total) per team, adding up to the game's totals
    total = [0, 0]
    for r, (ns, ew) in zip(rows, out["scores"]):
        total = [total[0] + ns, total[1] + ew]
        assert r[3][1] == total[0] and r[4][1] == total[1]
        if r[3][0] is not None:
            assert [r[3][0], r[4][0]] == [ns, ew]
    assert total == [out["total"]["NS"], out["total"]["EW"]]
    # game over: UP history, DOWN settings, OK a new game
    assert out["over_screen"] == "gameover"
    assert out["over_up"] == "history" and out["over_down"] == "settings"
    assert out["after_new"] == ["home", 0]
    # past games: rules and deal count, final totals, the winner's ticked
    (row,) = out["archive"]
    assert row[1][0] == "Classique, %d donnes" % out["deals"]
    assert row[3] == [True, out["final"]["NS"]] and row[4] == [None, out["final"]["EW"]]
    # OK opens the game's deals, read-only; BACK returns to the list
    # its deals, then one row: the game's chart
    assert out["opened"] == "history" and out["past_rows"] == list(range(1, out["deals"] + 1)) + [None]
    assert out["past_last_row"] == ["Courbe"]
    assert out["after_ok"] == "deal" and out["back"] == "history" and out["back_again"] == "archive"
    assert "Modifier" not in out["past_deal_rows"] and "Supprimer" not in out["past_deal_rows"]
