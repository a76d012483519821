"""A 16-player individual evening of 4 rounds through the organiser's command line:
each round drawn (partners and tables), each table's round of 12 deals scored by
the calculator (host_tools.score) from generated deal records that the key planner
scripts for the device, its result code made from the calculator's totals as the
device makes it (the round's pair numbers 2T-1 and 2T in the team fields), typed
into the app. The standings must be every player's calculator totals; no one
partners the same player twice. Run as a program it prints the evening.
(test_club_individual_sim.py plays the same evening on the simulator.)"""
import random

from individual_evening import DEALS, PRESET, ROUNDS, Tally, calculator, check_standings, club, new_evening
from coinche.result_code import encode, grouped
from coinche.rules import Rules
from host_tools.calculator.keys import plan
from vectors import gen_valid


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


def play_evening(db):
    rnd = random.Random(1611)
    new_evening(db)
    tally = Tally()
    for round_number in range(1, ROUNDS + 1):
        drawn = club(db, "draw")
        tally.seat(drawn, round_number)
        line = []
        for t in drawn["tables"]:
            code, totals = table_round(rnd, round_number, t["table"])
            stored = club(db, "result", "--code", code)
            assert stored["totals"] == totals and (stored["NS"], stored["EW"]) == (t["NS"], t["EW"])
            tally.add(t, totals)
            line.append(tally.line(t, totals, code))
        tally.lines.append("round %d: %s" % (round_number, "; ".join(line)))
    return tally


def test_sixteen_players_four_rounds_standings_are_the_calculators_totals(tmp_path):
    db = tmp_path / "melee.db"
    check_standings(db, play_evening(db))


if __name__ == "__main__":
    import tempfile
    import pathlib
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "melee.db"
        print("\n".join(play_evening(path).lines))
        print(club(path, "standings"))
