"""A Thursday concours as it really goes, from the command line: 13 teams, federation
rules, 4 rounds of 12 deals ranked by matches; a late team from round 2, a draw undone
(a typo renamed, then drawn again), a team that leaves after round 2, a team that
leaves after the round-3 draw (a forfeit). The test checks every draw and every
round's standings against an independent count; run as a program it prints the
evening (each round's draw and standings):

    .venv/bin/python tests/test_club_federation_evening.py
"""
import io
import json
import os
import random
import sys
import tempfile

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from host_tools.club.cli import main  # noqa: E402

TEAMS = ["Les As", "Belote et Rebelote", "Capot", "Dix de Der", "Surcoinche", "Les Valets", "Atout Coeur",
         "La Générale", "Carré de Neuf", "Les Tierces", "Sans Atout", "Tout Atout", "Les Coincheurs"]
LATE = "Les Retardataires"


def club(db, *argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["--db", db] + [str(a) for a in argv], out, err)
    assert status == 0, err.getvalue()
    text = out.getvalue()
    return json.loads(text) if text.startswith("{") else text


def play(db, rnd, round_number):
    """Every table of the round still waiting gets a result: by code at odd tables
    (the device's), from the paper sheet at even ones."""
    state = club(db, "show")
    for t in state["rounds"][round_number - 1]["tables"]:
        if t["result"] is not None or t["forfeit"]:
            continue
        ns, ew = rnd.randrange(60, 200) * 10, rnd.randrange(60, 200) * 10
        if t["table"] % 2:
            code = club(db, "code", "--round", round_number, "--table", t["table"], "--ns-team", t["NS"],
                        "--ew-team", t["EW"], "--ns", ns, "--ew", ew)["code"]
            club(db, "result", "--code", code)
        else:
            club(db, "result", "--round", round_number, "--table", t["table"], "--ns", ns, "--ew", ew)


def run_evening(db, seed=2026):
    """Plays the evening; returns what happened, round by round."""
    rnd = random.Random(seed)
    log = {"draws": {}, "standings": {}, "undone": None, "withdrawn": {}, "late": None}
    club(db, "new", "--name", "Jeudi fédéral", "--rounds", 4, "--deals", 12, "--rules", "federation",
         "--ranking", "matches", "--seed", seed, "--lang", "fr")
    club(db, "team", "add", *[name if name != "Capot" else "Capto" for name in TEAMS])  # a typo
    log["draws"][1] = club(db, "draw")
    log["late"] = club(db, "team", "add", LATE)["teams"][0]  # arrives during round 1
    play(db, rnd, 1)
    log["standings"][1] = club(db, "standings", "--json")
    drawn = club(db, "draw")
    log["undone"] = club(db, "draw", "--undo")["removed"]  # the organiser sees the typo on the sheets
    assert log["undone"] == drawn
    club(db, "team", "rename", 3, "Capot")
    log["draws"][2] = club(db, "draw")
    play(db, rnd, 2)
    log["standings"][2] = club(db, "standings", "--json")
    leaver = log["standings"][2]["ranking"][5]["team"]
    log["withdrawn"][2] = club(db, "team", "withdraw", leaver, "--why", "dernier train")
    log["draws"][3] = club(db, "draw")
    forfeit_team = log["draws"][3]["tables"][2]["EW"]
    log["withdrawn"][3] = club(db, "team", "withdraw", forfeit_team, "--why", "malade")
    play(db, rnd, 3)
    log["standings"][3] = club(db, "standings", "--json")
    log["draws"][4] = club(db, "draw")
    play(db, rnd, 4)
    log["standings"][4] = club(db, "standings", "--json")
    log["show"] = club(db, "show")
    log["after"] = {r: club(db, "standings", "--json", "--after", r) for r in range(1, 5)}
    return log


def independent_standings(show, after, gone_then):
    """{team: (played, match points, points for, points against)} counted here from the
    stored draws and results, and the order the ranking rule gives (gone_then: the
    teams withdrawn when the standings were asked for, listed last)."""
    left = {a["team"]: a["after_round"] for a in show["team_actions"] if a["action"] == "withdraw"}
    rows = {t["number"]: [0, 0, 0, 0] for t in show["teams"]}
    bye_mp = show["event"]["bye_match_points"]
    bye_score = show["event"]["bye_score"]
    for r in show["rounds"][:after]:
        for t in r["tables"]:
            if t["result"] is None:
                gone = [x for x in (t["NS"], t["EW"]) if left.get(x, 99) <= r["round"]]
                assert len(gone) == 1, "a table without its result must be a forfeit"
                stays = t["EW"] if gone[0] == t["NS"] else t["NS"]
                rows[stays][0] += 1
                rows[stays][1] += bye_mp
                rows[stays][2] += bye_score
                continue
            for me, own, other in ((t["NS"], "NS", "EW"), (t["EW"], "EW", "NS")):
                mine, theirs = t["result"][own], t["result"][other]
                rows[me][0] += 1
                rows[me][1] += 2 if mine > theirs else 1 if mine == theirs else 0
                rows[me][2] += mine
                rows[me][3] += theirs
        for b in r["bye"]:
            rows[b][0] += 1
            rows[b][1] += bye_mp
            rows[b][2] += bye_score
    order = sorted(rows, key=lambda n: (n in gone_then, -rows[n][1], -(rows[n][2] - rows[n][3]), -rows[n][2], n))
    return {n: tuple(v) for n, v in rows.items()}, order


def test_a_13_team_federation_evening(tmp_path):
    log = run_evening(str(tmp_path / "jeudi.db"))
    show = log["show"]
    late = log["late"]["number"]
    first_leaver = log["withdrawn"][2]["team"]
    forfeiter = log["withdrawn"][3]["team"]
    met = set()
    byes = []
    for number in range(1, 5):
        r = log["draws"][number]
        present = {t["number"] for t in show["teams"]
                   if (number > 1 or t["number"] != late)
                   and not (number >= 3 and t["number"] == first_leaver)
                   and not (number >= 4 and t["number"] == forfeiter)}
        seated = [x for t in r["tables"] for x in (t["NS"], t["EW"])] + r["bye"]
        assert sorted(seated) == sorted(present), "each present team once, round %d" % number
        assert r["rematches"] == 0 and not {frozenset((t["NS"], t["EW"])) for t in r["tables"]} & met
        met |= {frozenset((t["NS"], t["EW"])) for t in r["tables"]}
        byes += r["bye"]
    assert len(byes) == len(set(byes)) == 2  # rounds 1 and 3: 13 present; round 2: 14; round 4: 12
    assert first_leaver not in byes[1:] and forfeiter not in byes[1:]
    # the undone draw was the same as the one drawn again: only a name changed
    assert log["undone"] == log["draws"][2]
    assert [t["name"] for t in show["teams"]][2] == "Capot"
    # the forfeit of round 3: the opponent credited as for a bye, the leaver given nothing
    forfeit = log["withdrawn"][3]["forfeit"]
    assert forfeit["round"] == 3 and forfeit["opponent"] == log["draws"][3]["tables"][2]["NS"]
    assert [t["forfeit"] for t in show["rounds"][2]["tables"]].count(True) == 1
    # every round's standings: the independent count, and stable once later rounds come
    for number in range(1, 5):
        table = log["standings"][number]
        assert table["round"] == number
        expected, order = independent_standings(show, number, {first_leaver, forfeiter} if number >= 3 else set())
        got = {r["team"]: (r["played"], r["match_points"], r["points_for"], r["points_against"])
               for r in table["ranking"]}
        assert got == expected
        assert [r["team"] for r in table["ranking"]] == order
        later, later_order = independent_standings(show, number, {first_leaver, forfeiter})
        again = log["after"][number]  # asked for again at the end of the evening
        assert again["round"] == number and [r["team"] for r in again["ranking"]] == later_order
        assert {r["team"]: (r["played"], r["match_points"], r["points_for"], r["points_against"])
                for r in again["ranking"]} == later
    final = {r["team"]: r for r in log["standings"][4]["ranking"]}
    assert final[late]["played"] == 3  # rounds 2 to 4; its missed round counts nothing
    assert final[first_leaver]["played"] == 2 and final[first_leaver]["withdrawn"]
    assert final[forfeiter]["played"] == 2 and final[forfeiter]["withdrawn"]
    assert [r["team"] for r in log["standings"][4]["ranking"][-2:]] in ([first_leaver, forfeiter],
                                                                        [forfeiter, first_leaver])
    assert [a["action"] for a in show["team_actions"]] == ["add", "undo", "rename", "withdraw", "withdraw"]


def short_standings(table):
    """rank.team(match points) in order, the withdrawn after a bar."""
    playing = ["%d.%d(%d)" % (r["rank"], r["team"], r["match_points"]) for r in table["ranking"] if not r["withdrawn"]]
    gone = ["%d.%d(%d)" % (r["rank"], r["team"], r["match_points"]) for r in table["ranking"] if r["withdrawn"]]
    return " ".join(playing) + (" | withdrawn: " + " ".join(gone) if gone else "")


def report(log):
    """The evening in a few lines: each round's draw (table: NS-EW) and standings."""
    names = {t["number"]: t["name"] for t in log["show"]["teams"]}
    lines = ["teams: " + ", ".join("%d %s" % item for item in sorted(names.items()))]
    for number in range(1, 5):
        r = log["draws"][number]
        lines.append("R%d draw: %s%s" % (number, " ".join("%d-%d" % (t["NS"], t["EW"]) for t in r["tables"]),
                                         ", bye %d" % r["bye"][0] if r["bye"] else ""))
        if number == 1:
            lines.append("   late: team %d added during round 1, joins round 2" % log["late"]["number"])
        if number == 2:
            lines.append("   drawn, undone (team 3's name mistyped), renamed, drawn again: the same tables")
        if number == 3:
            f = log["withdrawn"][3]
            lines.append("   team %d withdrew after this draw: table %d forfeit, team %d credited as a bye"
                         % (f["team"], f["forfeit"]["table"], f["forfeit"]["opponent"]))
        lines.append("R%d standings: %s" % (number, short_standings(log["standings"][number])))
        if number == 2:
            lines.append("   team %d withdrew after round 2 (%s)" % (log["withdrawn"][2]["team"], log["withdrawn"][2]["why"]))
    return "\n".join(lines)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        print(report(run_evening(os.path.join(folder, "jeudi.db"))))
