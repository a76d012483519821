"""What the 16-player individual evening tests share (test_club_individual_evening.py,
the calculator making each code; test_club_individual_sim.py, the simulator playing
each round): the event, the organiser's command line in-process, the calculator's
last line, the tally of every player's totals and partners, and the standings check."""
import io
import json
import subprocess
import sys

from conftest import ROOT
from host_tools.club.cli import main

PLAYERS = 16
ROUNDS = 4
DEALS = 12
PRESET = "classic2000"
RULE_ARGS = ["--rules", PRESET, "--set", "deals=%d" % DEALS]
NAMES = ["Joueur %d" % n for n in range(1, PLAYERS + 1)]


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


def new_evening(db, deals=DEALS):
    """The event (individual, ROUNDS rounds of `deals` deals) and its PLAYERS players."""
    club(db, "new", "--name", "Mêlée de la Saint-Sylvestre", "--rounds", ROUNDS, "--deals", deals, "--rules",
         PRESET, "--format", "individual", "--seed", 2612)
    club(db, "player", "add", *NAMES)


class Tally:
    """Every player's expected totals (for, against, won, drawn, lost), the partners
    seen so far (no one partners the same player twice) and the evening's lines."""

    def __init__(self):
        self.expected = {n: {"for": 0, "against": 0, "won": 0, "drawn": 0, "lost": 0}
                         for n in range(1, PLAYERS + 1)}
        self.partners = set()
        self.lines = []

    def seat(self, drawn, round_number):
        """A round's draw: every player at a table, no partner a second time."""
        assert drawn["round"] == round_number and drawn["sit_out"] == [] and len(drawn["tables"]) == PLAYERS // 4
        seated = sorted(p for t in drawn["tables"] for p in t["NS"] + t["EW"])
        assert seated == list(range(1, PLAYERS + 1))
        for t in drawn["tables"]:
            for side in (t["NS"], t["EW"]):
                assert frozenset(side) not in self.partners, "players %s partner a second time" % side
                self.partners.add(frozenset(side))

    def add(self, t, totals):
        """Table t's totals (the calculator's) to its four players."""
        for side, own, other in ((t["NS"], totals["NS"], totals["EW"]), (t["EW"], totals["EW"], totals["NS"])):
            for player in side:
                self.expected[player]["for"] += own
                self.expected[player]["against"] += other
                self.expected[player]["won" if own > other else "drawn" if own == other else "lost"] += 1

    @staticmethod
    def line(t, totals, code, how=""):
        return "T%d %s-%s %d-%d [%s]%s" % (t["table"], "+".join(map(str, t["NS"])), "+".join(map(str, t["EW"])),
                                          totals["NS"], totals["EW"], code, how)


def check_standings(db, tally, rounds=ROUNDS):
    """`standings --json`: each player's calculator totals, ranked by the event's rule
    (points for, then rounds won, then the difference; equal keys share a rank)."""
    table = club(db, "standings", "--json")
    assert table["round"] == rounds and not table["provisional"]
    rows = table["ranking"]
    assert sorted(r["player"] for r in rows) == list(range(1, PLAYERS + 1))
    for row in rows:
        want = tally.expected[row["player"]]
        assert (row["points_for"], row["points_against"], row["won"], row["drawn"], row["lost"], row["played"]) == \
            (want["for"], want["against"], want["won"], want["drawn"], want["lost"], rounds)
        assert row["name"] == NAMES[row["player"] - 1]
    keys = [(-r["points_for"], -r["won"], -(r["points_for"] - r["points_against"])) for r in rows]
    assert keys == sorted(keys)
    for index in range(1, len(rows)):
        assert (rows[index]["rank"] == rows[index - 1]["rank"]) == (keys[index] == keys[index - 1])
    return rows
