"""The other team's confirmation of a round's result, and the end of a round on time
("end the round now"): on the real App in-process on the MicroPython unix port, with
the journal on a RAM flash that a second App reads again as after a power cut."""
import json

from conftest import run_mp

PRELUDE = """
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
import on_demand
from events.inputs import BACK, DOWN, LONG, OK, UP

mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": "classic2000"})
app.start_round({"round": 2, "table": 7, "teams": {"NS": 5, "EW": 12}})
DEAL = {"taker": "NS", "bid": 100, "trump": "H", "points": 112}
HELD_OK = (LONG << 2) | OK
drawn = []

def seen():
    # what the round's end hands its layout: the code, the key line, the note
    module = on_demand.load(app.layout.OFF_PATH)
    keep = module.round_over
    module.round_over = lambda layout, *args: drawn.append(list(args[5:]))
    app.render()
    module.round_over = keep
    return drawn[-1]

def look():
    state = app.state()
    return {"screen": app.screen, "over": app.game.over, "confirmed": state["confirmed"],
            "ended": state["ended"], "deals": len(app.game.deals), "total": app.game.total,
            "winner": app.game.winner}
"""


def run(body):
    out = run_mp(PRELUDE + body).stdout.strip().splitlines()
    return json.loads(out[-1])


CONFIRM = """
out = {}
for _ in range(app.game.rules.round_deals):
    app.save_deal(DEAL, None)
app.home()
out["played"] = look()
out["unconfirmed_draw"] = seen()
app.view.phase = 1
out["unconfirmed_draw_turned"] = seen()
app.handle(HELD_OK)
out["held"] = look()
out["confirmed_draw"] = seen()
out["journal"] = app.table.journal_rules.get("confirmed")
app = App(Board())  # the power came back
out["rebooted"] = look()
out["rebooted_draw"] = seen()
app.handle(BACK)  # undo the last deal, asked
app.handle(OK)
out["undone"] = look()
app.save_deal(DEAL, None)
app.home()
out["played_again"] = look()
app.handle(HELD_OK)
out["confirmed_again"] = look()
app.save_deal({"taker": "EW", "bid": 80, "trump": "S", "points": 100}, 0)  # an edit of the first deal
app.home()
out["edited"] = look()
out["edited_draw"] = seen()
app = App(Board())
out["edited_rebooted"] = look()
print(json.dumps(out))
"""


def test_the_round_end_says_not_confirmed_and_hides_the_code_until_the_other_team_holds_ok():
    out = run(CONFIRM)
    played = out["played"]
    assert played["screen"] == "roundover" and played["over"] and not played["confirmed"]
    code, hint, note = out["unconfirmed_draw"]
    assert code is None and note == ["Non confirmé", "L'autre équipe"] and hint == "maintient OK"
    assert out["unconfirmed_draw_turned"][1] == "OK suite <annul."  # the other keys, in turn
    held = out["held"]
    assert held["screen"] == "roundover" and held["confirmed"] and out["journal"] == held["deals"]
    code, hint, note = out["confirmed_draw"]
    assert note is None and len(code.replace(" ", "")) == 16 and hint == "OK suite <annul."


def test_the_confirmation_is_in_the_journal_after_a_power_cut():
    out = run(CONFIRM)
    assert out["rebooted"]["confirmed"] and out["rebooted"]["screen"] == "roundover"
    assert out["rebooted_draw"][2] is None


def test_a_deal_changed_after_the_confirmation_asks_for_it_again():
    out = run(CONFIRM)
    assert out["undone"]["screen"] == "home" and not out["undone"]["confirmed"]
    assert out["played_again"]["over"] and not out["played_again"]["confirmed"]
    assert out["confirmed_again"]["confirmed"]
    edited = out["edited"]
    assert edited["over"] and not edited["confirmed"] and out["edited_draw"][2] is not None
    assert not out["edited_rebooted"]["confirmed"]  # the edit dropped it in the journal too


def test_held_ok_on_a_round_under_way_confirms_nothing():
    out = run("""
app.save_deal(DEAL, None)
on_demand.load("table.settings").confirm_round(app.table)
print(json.dumps(look()))
""")
    assert out["over"] is False and out["confirmed"] is False


def test_the_key_planners_end_on_time_ends_the_round_on_the_simulator_with_the_deals_played(tmp_path):
    """The calculator's records with {"end": "time"} last: the planner's keys press Menu >
    "End the round now" and its question; the round is over with the totals so far, and
    its end (journaled) stays after a power cut."""
    import random

    from coinche.game import RunningScore
    from coinche.rules import Rules
    from host_tools.calculator.keys import plan
    from host_tools.sim import Sim
    from host_tools.sim.concours import start_round
    from vectors import gen_valid

    rules = Rules("classic2000", {"deals": 12})
    rnd = random.Random(3)
    deals = [gen_valid(rules, rnd) for _ in range(3)]
    score = RunningScore(rules)
    for deal in deals:
        score.add(deal)
    flash = str(tmp_path / "flash.img")
    with Sim(rules="classic2000", flash=flash) as sim:
        start_round(sim, (2, 4, 1, 8))
        sim.run_script(plan(rules, deals + [{"end": "time"}])[0])
        state = sim.state()
    assert state["screen"] == "roundover" and state["over"] and state["ended"] and not state["confirmed"]
    assert state["total"] == score.total and len(state["deals"]) == 3
    assert state["concours"]["totals"] == score.total and state["concours"]["code"]
    with Sim(flash=flash) as sim:  # the power came back
        again = sim.state()
    assert again["screen"] == "roundover" and again["over"] and again["total"] == score.total
