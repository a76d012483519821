"""A whole concours through the organiser's command line: 16 teams, 4 rounds of 12
deals. Each table's round is scored by the calculator (host_tools.score) from
generated deal records; its result code comes from one function, code_of_round():
either played on the simulator (started as `--concours` starts it, through Menu >
Concours, the deals entered from the key planner's script, the code read from the
device's state: what its round-over screen shows), or made from the calculator's
totals as the device makes it (coinche.result_code.encode). The code is typed into
the app; the final standings must be the calculator's totals.

Played on the simulator, each table's round is 12 deals keyed on the real firmware:
the quick run plays every fourth of the event's 32 table-rounds there (which ones moves
from run to run, tests/sweep.py) and makes the others' codes as the calculator variant
does; SWEEP=full plays all 32 on it."""
import json
import random
import subprocess
import sys

import pytest

import sweep
from conftest import ROOT
from coinche.result_code import encode, grouped
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.sim import Sim
from host_tools.sim.concours import start_round
from individual_evening import club
from vectors import gen_valid

TEAMS = 16
ROUNDS = 4
DEALS = 12
PRESET = "classic2000"
RULE_ARGS = ["--rules", PRESET, "--set", "deals=%d" % DEALS]
TABLES = TEAMS // 2
# the table-rounds the simulator variant plays on the simulator, each numbered
# (round - 1) * TABLES + table - 1
ON_SIMULATOR = set(sweep.take(range(ROUNDS * TABLES), 4))
TOTALS = {}  # the calculator's totals by its input: both variants score the same records


def round_records(rnd):
    """The deal records of one table's round: DEALS valid deals of the event's rules."""
    rules = Rules(PRESET, {"deals": DEALS})
    return [gen_valid(rules, rnd) for _ in range(DEALS)]


def calculator_totals(records, rule_args=RULE_ARGS):
    """The totals the calculator (host_tools.score) gives the records played as one round
    of the rules rule_args name."""
    stdin = "".join(json.dumps(rec) + "\n" for rec in records)
    if (stdin, tuple(rule_args)) in TOTALS:
        return TOTALS[stdin, tuple(rule_args)]
    proc = subprocess.run([sys.executable, "-m", "host_tools.score"] + rule_args, input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    last = json.loads(proc.stdout.splitlines()[-1])
    assert last["over"] is True, "the round did not end after its %d deals" % len(records)
    TOTALS[stdin, tuple(rule_args)] = last["total"]
    return last["total"]


def code_of_round(round_number, table, ns_team, ew_team, records, sim=None):
    """(the result code a table ends its round with, the calculator's totals). With a
    simulator: the round started through its menu, the records entered from the key
    planner's script, the code the device's state holds at the round's end; without:
    the code made from the calculator's totals as the device makes it."""
    totals = calculator_totals(records)
    if sim is None:
        return grouped(encode(round_number, table, totals["NS"], totals["EW"], ns_team, ew_team)), totals
    start_round(sim, (round_number, table, ns_team, ew_team))
    sim.run_script(plan(Rules(PRESET, {"deals": DEALS}), records)[0])
    state = sim.state()
    assert state["screen"] == "roundover" and state["over"], state["screen"]
    result = state["concours"]
    assert (result["round"], result["table"], result["teams"], result["deals"]) == \
        (round_number, table, {"NS": ns_team, "EW": ew_team}, DEALS)
    return grouped(result["code"]), totals


@pytest.mark.parametrize("played_on", ["simulator", "calculator"])
def test_sixteen_teams_four_rounds_of_twelve_deals(tmp_path, played_on):
    db = tmp_path / "concours.db"
    rnd = random.Random(2026)
    club(db, "new", "--name", "Concours de Noël", "--rounds", ROUNDS, "--deals", DEALS, "--rules", PRESET,
         "--seed", 1201)
    names = ["Équipe %d" % n for n in range(1, TEAMS + 1)]
    club(db, "team", "add", *names)
    expected = {n: {"for": 0, "against": 0, "won": 0, "drawn": 0, "lost": 0} for n in range(1, TEAMS + 1)}
    met = set()
    report = []
    for round_number in range(1, ROUNDS + 1):
        drawn = club(db, "draw")
        assert drawn["round"] == round_number and drawn["bye"] == [] and drawn["rematches"] == 0
        seated = sorted([t["NS"] for t in drawn["tables"]] + [t["EW"] for t in drawn["tables"]])
        assert seated == list(range(1, TEAMS + 1)) and len(drawn["tables"]) == TABLES
        line = []
        # one simulator per round, its tables one after the other (as --set deals=12 starts it)
        here = [t["table"] for t in drawn["tables"]
                if played_on == "simulator" and (round_number - 1) * TABLES + t["table"] - 1 in ON_SIMULATOR]
        sim = Sim(rules=PRESET, options={"deals": DEALS}, timeout=60) if here else None
        for t in drawn["tables"]:
            pair = frozenset((t["NS"], t["EW"]))
            assert pair not in met
            met.add(pair)
            code, totals = code_of_round(round_number, t["table"], t["NS"], t["EW"], round_records(rnd),
                                         sim if t["table"] in here else None)
            stored = club(db, "result", "--code", code)
            assert stored["totals"] == totals
            for team, own, other in ((t["NS"], totals["NS"], totals["EW"]), (t["EW"], totals["EW"], totals["NS"])):
                expected[team]["for"] += own
                expected[team]["against"] += other
                expected[team]["won" if own > other else "drawn" if own == other else "lost"] += 1
            line.append("T%d %d-%d %d-%d [%s]" % (t["table"], t["NS"], t["EW"], totals["NS"], totals["EW"], code))
        if sim is not None:
            sim.close()
        report.append("round %d: %s" % (round_number, "; ".join(line)))

    table = club(db, "standings", "--json")
    assert table["round"] == ROUNDS
    rows = table["ranking"]
    for row in rows:
        want = expected[row["team"]]
        assert (row["points_for"], row["points_against"], row["won"], row["drawn"], row["lost"], row["played"]) == \
            (want["for"], want["against"], want["won"], want["drawn"], want["lost"], ROUNDS)
        assert row["name"] == names[row["team"] - 1]
    # the `total` rule: points for, then wins, then the difference; equal teams share a rank
    keys = [(-r["points_for"], -r["won"], -(r["points_for"] - r["points_against"])) for r in rows]
    assert keys == sorted(keys)
    for index in range(1, len(rows)):
        same = keys[index] == keys[index - 1]
        assert (rows[index]["rank"] == rows[index - 1]["rank"]) == same
    text = club(db, "standings")
    print("\n".join(report))
    print(text)
