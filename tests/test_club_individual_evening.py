"""A 16-player individual evening of 4 rounds through the organiser's command line:
each round drawn (partners and tables), each table's round of 12 deals scored by
the calculator (host_tools.score) from generated deal records that the key planner
scripts for the device, its result code made from the calculator's totals as the
device makes it (the round's pair numbers 2T-1 and 2T in the team fields), typed
into the app. The standings must be every player's calculator totals; no one
partners the same player twice. Run as a program it prints the evening."""
import io
import json
import random
import subprocess
import sys

from conftest import ROOT
from coinche.result_code import encode, grouped
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from host_tools.club.cli import main
from vectors import gen_valid

PLAYERS = 16
ROUNDS = 4
DEALS = 12
PRESET = "classic2000"
RULE_ARGS = ["--rules", PRESET, "--set", "deals=%d" % DEALS]


def club(db, *argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["--db", str(db)] + [str(a) for a in argv], out, err)
    assert status == 0, err.getvalue()
    text = out.getvalue()
    return json.loads(text) if text.startswith("{") else text


def calculator(records, rule_args=RULE_ARGS):
    """The calculator's last line for the records played as one game."""
    stdin = "".join(json.dumps(rec) + "\n" for rec in records)
    proc = subprocess.run([sys.executable, "-m", "host_tools.score"] + rule_args, input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def table_round(rnd, round_number, table):
    """(the code the table's device shows, the calculator's totals) of one table's round."""
    rules = Rules(PRESET, {"deals": DEALS})
    records = [gen_valid(rules, rnd) for _ in range(DEALS)]
    script, presses = plan(rules, records)  # the key planner scripts every deal for the device
    assert len(presses) == DEALS and all(presses)
    last = calculator(records)
    assert last["over"] is True
    totals = last["total"]
    return grouped(encode(round_number, table, totals["NS"], totals["EW"], 2 * table - 1, 2 * table)), totals


def play_evening(db, report=None):
    rnd = random.Random(1611)
    club(db, "new", "--name", "Mêlée de la Saint-Sylvestre", "--rounds", ROUNDS, "--deals", DEALS, "--rules",
         PRESET, "--format", "individual", "--seed", 2612)
    names = ["Joueur %d" % n for n in range(1, PLAYERS + 1)]
    club(db, "player", "add", *names)
    expected = {n: {"for": 0, "against": 0, "won": 0, "drawn": 0, "lost": 0} for n in range(1, PLAYERS + 1)}
    partners = set()
    for round_number in range(1, ROUNDS + 1):
        drawn = club(db, "draw")
        assert drawn["round"] == round_number and drawn["sit_out"] == [] and len(drawn["tables"]) == PLAYERS // 4
        seated = sorted(p for t in drawn["tables"] for p in t["NS"] + t["EW"])
        assert seated == list(range(1, PLAYERS + 1))
        line = []
        for t in drawn["tables"]:
            for side in (t["NS"], t["EW"]):
                assert frozenset(side) not in partners, "players %s partner a second time" % side
                partners.add(frozenset(side))
            code, totals = table_round(rnd, round_number, t["table"])
            stored = club(db, "result", "--code", code)
            assert stored["totals"] == totals and (stored["NS"], stored["EW"]) == (t["NS"], t["EW"])
            for side, own, other in ((t["NS"], totals["NS"], totals["EW"]), (t["EW"], totals["EW"], totals["NS"])):
                for player in side:
                    expected[player]["for"] += own
                    expected[player]["against"] += other
                    expected[player]["won" if own > other else "drawn" if own == other else "lost"] += 1
            line.append("T%d %s-%s %d-%d [%s]" % (t["table"], "+".join(map(str, t["NS"])),
                                                  "+".join(map(str, t["EW"])), totals["NS"], totals["EW"], code))
        if report is not None:
            report.append("round %d: %s" % (round_number, "; ".join(line)))
    return expected, names


def test_sixteen_players_four_rounds_standings_are_the_calculators_totals(tmp_path):
    db = tmp_path / "melee.db"
    expected, names = play_evening(db)
    table = club(db, "standings", "--json")
    assert table["round"] == ROUNDS and not table["provisional"]
    rows = table["ranking"]
    assert sorted(r["player"] for r in rows) == list(range(1, PLAYERS + 1))
    for row in rows:
        want = expected[row["player"]]
        assert (row["points_for"], row["points_against"], row["won"], row["drawn"], row["lost"], row["played"]) == \
            (want["for"], want["against"], want["won"], want["drawn"], want["lost"], ROUNDS)
        assert row["name"] == names[row["player"] - 1]
    keys = [(-r["points_for"], -r["won"], -(r["points_for"] - r["points_against"])) for r in rows]
    assert keys == sorted(keys)
    for index in range(1, len(rows)):
        assert (rows[index]["rank"] == rows[index - 1]["rank"]) == (keys[index] == keys[index - 1])


if __name__ == "__main__":
    import tempfile
    import pathlib
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "melee.db"
        play_evening(path, lines)
        print("\n".join(lines))
        print(club(path, "standings"))
