"""A concours round on the simulated device: started from the command line as the
menu starts it, kept through a power cut and an undo, the next round offered."""
import json
import random
import subprocess
import sys

from conftest import ROOT
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.sim import Sim
from host_tools.sim.concours import round_presses, start_round
from screens.menu import Menu
from vectors import gen_valid

PRESET = "classic2000"
RULES = Rules(PRESET, {"deals": 12})


def records(count, seed=5):
    rnd = random.Random(seed)
    return [gen_valid(RULES, rnd) for _ in range(count)]


def test_concours_option_starts_the_round_and_state_out_holds_it(tmp_path):
    out = tmp_path / "state.json"
    proc = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", "-", "--concours", "3,7,5,12",
                           "--set", "deals=12", "--state-out", str(out)], input="", cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    state = json.loads(out.read_text())
    assert state["rules"]["options"] == {"deals": 12}
    assert state["settings"]["concours"] == {"round": 3, "table": 7, "teams": {"NS": 5, "EW": 12}}
    concours = state["concours"]
    assert (concours["round"], concours["table"], concours["teams"], concours["deals"]) == \
        (3, 7, {"NS": 5, "EW": 12}, 12)
    assert concours["totals"] == {"NS": 0, "EW": 0} and len(concours["code"]) == 16


def test_bad_concours_option_is_refused_with_status_2():
    for bad in ("3,7,5", "0,7,5,12", "3,50,5,12", "3,7,5,5", "a,b,c,d"):
        proc = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", "-", "--concours", bad],
                              input="", cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "--concours" in proc.stderr, (bad, proc.stderr)


def test_bad_set_option_is_refused_with_status_2():
    proc = subprocess.run([sys.executable, "-m", "host_tools.sim", "--script", "-", "--set", "deals=99"],
                          input="", cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "deals" in proc.stderr


def test_a_round_survives_a_power_cut_and_an_undo_of_every_deal(tmp_path):
    flash = str(tmp_path / "flash.img")
    deals = records(3)
    with Sim(rules=PRESET, flash=flash) as sim:
        start_round(sim, (2, 4, 1, 8))
        sim.run_script(plan(RULES, deals)[0])
        before = sim.state()
    with Sim(flash=flash) as sim:  # the power came back
        after = sim.state()
        assert after["concours"] == before["concours"] and after["deals"] == before["deals"]
        for _ in range(3):
            sim.run_script(["back", "ok"])  # undo the last deal
        state = sim.state()
    assert state["deals"] == [] and state["rules"]["options"] == {"deals": 12}
    assert state["concours"]["round"] == 2 and state["concours"]["totals"] == {"NS": 0, "EW": 0}


def test_after_a_round_the_next_one_is_offered_at_the_same_table(tmp_path):
    with Sim(rules=PRESET, options={"deals": 12}) as sim:
        start_round(sim, (1, 6, 3, 9))
        sim.run_script(plan(RULES, records(12))[0])
        state = sim.state()
        assert state["screen"] == "roundover"
        # OK, OK on "Start round" (highlighted), OK to its question: round + 1, the same table and teams
        assert round_presses("roundover", state["settings"], (2, 6, 3, 9)) == ["OK", "OK", "OK"]
        sim.run_script(["ok", "ok"])
        assert sim.state()["screen"] == "ask"  # what it starts, asked once
        sim.run_script(["ok"])
        state = sim.state()
    assert state["screen"] == "home" and state["deals"] == []
    assert (state["concours"]["round"], state["concours"]["table"]) == (2, 6)


def test_the_round_proposed_from_home_takes_six_presses_and_asks_once():
    with Sim(rules=PRESET) as sim:
        state = sim.state()
        presses = round_presses("home", state["settings"], (1, 1, 1, 2))  # what a fresh device proposes
        assert len(presses) <= 6, presses
        for button in presses[:-1]:
            sim.press(button)
        sim.sync()
        asked = sim.state()
        assert asked["screen"] == "ask" and asked["concours"] is None  # nothing started before the answer
        sim.press(presses[-1])
        sim.sync()
        state = sim.state()
    assert state["screen"] == "home" and (state["concours"]["round"], state["concours"]["table"]) == (1, 1)
    assert state["concours"]["teams"] == {"NS": 1, "EW": 2}


def test_new_game_after_a_round_plays_to_the_target_again():
    with Sim(rules=PRESET) as sim:
        start_round(sim, (1, 1, 1, 2))
        assert sim.state()["rules"]["options"] == {"deals": 12}
        sim.run_script(["ok"] + ["down"] * Menu.ITEMS.index("m_new") + ["ok", "ok"])  # Menu > New game, confirmed
        state = sim.state()
    assert state["concours"] is None and state["rules"]["options"] == {}
