"""The organiser's command line (python -m host_tools.club): each command, and for
each kind of bad input one line on stderr, exit status 2 and the file unchanged."""
import io
import json
import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT
from coinche.result_code import encode
from host_tools.club.cli import main

STANDING_KEYS = {"rank", "team", "name", "played", "won", "drawn", "lost", "points_for", "points_against",
                 "match_points"}


def club(db, *argv):
    """(status, stdout, stderr) of the command line, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    status = main(["--db", str(db)] + [str(a) for a in argv], out, err)
    return status, out.getvalue(), err.getvalue()


def ok(db, *argv):
    status, out, err = club(db, *argv)
    assert status == 0, err
    return json.loads(out)


def dump(db):
    """What the file holds, row by row (the bytes can move under WAL without a change)."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return list(con.iterdump())
    finally:
        con.close()


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """5 teams, rounds of 12 deals (classic2000), round 1 drawn, table 1's result in."""
    db = tmp_path_factory.mktemp("club") / "template.db"
    ok(db, "new", "--name", "Mardi", "--rounds", 3, "--deals", 12, "--rules", "classic2000", "--seed", 11,
       "--bye-score", 500)
    ok(db, "team", "add", "Les As", "Belote & Co", "Capot", "Dix de der", "Surcoinche")
    drawn = ok(db, "draw")
    ok(db, "result", "--round", 1, "--table", 1, "--ns", 1520, "--ew", 980)
    return db, drawn


@pytest.fixture
def db(template, tmp_path):
    path = tmp_path / "event.db"
    shutil.copy(template[0], path)
    return path


def table_teams(db, round_number, table):
    for r in ok(db, "show")["rounds"]:
        if r["round"] == round_number:
            for t in r["tables"]:
                if t["table"] == table:
                    return t["NS"], t["EW"]
    raise AssertionError("no such table")


# -- what works -----------------------------------------------------------------------

def test_new_prints_the_event_with_its_limits(tmp_path):
    event = ok(tmp_path / "e.db", "new", "--name", "Vendredi", "--rounds", 4, "--deals", 15, "--rules", "classic2000",
               "--set", "pass_counts=false", "--ranking", "matches", "--match-points", "4,3,2", "--seed", 7)
    assert event["rules"] == {"preset": "classic2000", "options": {"deals": 15, "pass_counts": False}}
    assert (event["max_deal"], event["multiples_of_10"], event["match_points"], event["bye_match_points"]) == \
        (910, True, [4, 3, 2], 4)


def test_the_file_is_sqlite_in_wal_mode(db):
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_teams_are_numbered_in_the_order_added(template):
    assert [t["number"] for t in ok(template[0], "team", "list")["teams"]] == [1, 2, 3, 4, 5]


def test_draw_of_five_teams_has_two_tables_and_a_bye(template):
    drawn = template[1]
    assert drawn["round"] == 1 and [t["table"] for t in drawn["tables"]] == [1, 2] and len(drawn["bye"]) == 1
    seated = sorted([t["NS"] for t in drawn["tables"]] + [t["EW"] for t in drawn["tables"]] + drawn["bye"])
    assert seated == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("grouped", [True, False])
def test_a_code_with_or_without_its_groups(db, grouped):
    ns, ew = table_teams(db, 1, 2)
    code = ok(db, "code", "--round", 1, "--table", 2, "--ns-team", ns, "--ew-team", ew, "--ns", 1100, "--ew", 1300)
    stored = ok(db, "result", "--code", code["grouped"] if grouped else code["code"])
    assert stored["totals"] == {"NS": 1100, "EW": 1300} and stored["source"] == "code"


def test_a_code_from_teams_that_sat_the_other_way_is_filed_by_team(db):
    ns, ew = table_teams(db, 1, 2)
    code = ok(db, "code", "--round", 1, "--table", 2, "--ns-team", ew, "--ew-team", ns, "--ns", 1100, "--ew", 1300)
    assert ok(db, "result", "--code", code["code"])["totals"] == {"NS": 1300, "EW": 1100}


def test_a_correction_is_kept_and_the_standings_follow(db):
    ns, _ = table_teams(db, 1, 1)
    before = {r["team"]: r for r in ok(db, "standings", "--json", "--after", 1)["ranking"]}
    fixed = ok(db, "correct", "--round", 1, "--table", 1, "--ns", 1420, "--ew", 1080, "--why", "sheet misread",
               "--who", "Ginette")
    assert (fixed["old"], fixed["new"], fixed["who"], fixed["why"]) == (
        {"NS": 1520, "EW": 980}, {"NS": 1420, "EW": 1080}, "Ginette", "sheet misread")
    after = {r["team"]: r for r in ok(db, "standings", "--json", "--after", 1)["ranking"]}
    assert before[ns]["points_for"] == 1520 and after[ns]["points_for"] == 1420
    kept = ok(db, "show")["corrections"]
    assert len(kept) == 1 and kept[0]["who"] == "Ginette" and kept[0]["at"].endswith("Z")


def test_standings_json_has_the_documented_fields(template):
    table = ok(template[0], "standings", "--json")
    assert table["round"] == 0 and len(table["ranking"]) == 5
    assert all(set(row) >= STANDING_KEYS for row in table["ranking"])
    bye = template[1]["bye"][0]
    assert {r["team"]: r["points_for"] for r in table["ranking"]}[bye] == 0  # round 1 is not over
    provisional = ok(template[0], "standings", "--json", "--after", 1)
    assert provisional["round"] == 1
    assert {r["team"]: r["points_for"] for r in provisional["ranking"]}[bye] == 500


def test_standings_as_text(template):
    status, out, _ = club(template[0], "standings")
    assert status == 0 and out.startswith("after round 0") and "Les As" in out


def export_file(path, games):
    path.write_text(json.dumps({"format": 1, "exported": "2026-12-01T21:00:00", "games": games, "problems": []}))
    return path


def round_game(round_number, table, teams, totals, deals=12, code=None, over=True, options=None):
    """A game of games.json as a device in a concours round exports it (docs/club.md)."""
    if code is None:
        code = encode(round_number, table, totals["NS"], totals["EW"], teams["NS"], teams["EW"])
    return {"game": 1, "rules": {"preset": "classic2000", "options": options or {"deals": deals}, "target": 2000},
            "teams": {"NS": "NS", "EW": "EW"}, "deals": [], "total": dict(totals), "over": over,
            "winner": "NS" if totals["NS"] > totals["EW"] else "EW",
            "concours": {"round": round_number, "table": table, "teams": dict(teams), "totals": dict(totals),
                         "deals": deals, "code": code}}


def test_import_of_a_device_export_and_again(db, tmp_path):
    ns, ew = table_teams(db, 1, 2)
    path = export_file(tmp_path / "games.json", [
        {"game": 2, "rules": {"preset": "classic2000", "options": {}, "target": 2000}, "total": {"NS": 2010, "EW": 0},
         "over": True},  # an ordinary game: not a round, left alone
        round_game(1, 2, {"NS": ns, "EW": ew}, {"NS": 1250, "EW": 1190})])
    assert ok(db, "import", path) == {"imported": [{"round": 1, "table": 2, "totals": {"NS": 1250, "EW": 1190}}],
                                      "skipped": []}
    assert ok(db, "import", path)["skipped"] == [{"round": 1, "table": 2, "why": "already stored"}]
    assert ok(db, "draw")["round"] == 2


def test_the_command_line_as_a_program(template, tmp_path):
    db = tmp_path / "p.db"
    shutil.copy(template[0], db)
    args = [sys.executable, "-m", "host_tools.club", "--db", str(db)]
    good = subprocess.run(args + ["standings", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert good.returncode == 0 and json.loads(good.stdout)["ranking"]
    bad = subprocess.run(args + ["result", "--code", "1234 5678 9012 3456"], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    assert bad.stderr.startswith("club: ")


# -- bad input: exit 2, one line, nothing changed ----------------------------------

def refused(db, *argv, match):
    before = dump(db)
    status, out, err = club(db, *argv)
    assert status == 2, (out, err)
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("club: ")
    assert match in err, err
    assert dump(db) == before
    return err


def good_code(db, round_number, table, ns, ew):
    teams = table_teams(db, round_number, table) if round_number == 1 else (1, 2)
    return encode(round_number, table, ns, ew, teams[0], teams[1])


def test_wrong_check_digit(db):
    code = good_code(db, 1, 2, 1100, 1300)
    wrong = code[:15] + str((int(code[15]) + 1) % 10)
    refused(db, "result", "--code", wrong, match="check digit")


def test_two_neighbours_swapped(db):
    code = good_code(db, 1, 2, 1100, 1300)
    index = next(i for i in range(7, 14) if code[i] != code[i + 1])
    swapped = code[:index] + code[index + 1] + code[index] + code[index + 2:]
    refused(db, "result", "--code", swapped, match="check digit")


def test_code_of_a_round_not_drawn(db):
    refused(db, "result", "--code", encode(2, 1, 1000, 900, 1, 2), match="round 2 has not been drawn")


def test_code_of_a_table_that_does_not_exist(db):
    refused(db, "result", "--code", encode(1, 9, 1000, 900, 1, 2), match="round 1 has no table 9")


def test_sheet_of_a_table_that_does_not_exist(db):
    refused(db, "result", "--round", 1, "--table", 3, "--ns", 1000, "--ew", 900, match="round 1 has no table 3")


def test_code_of_other_teams(db):
    ns, ew = table_teams(db, 1, 2)
    stranger = ({1, 2, 3, 4, 5} - {ns, ew}).pop()
    refused(db, "result", "--code", encode(1, 2, 1000, 900, ns, stranger), match="right table")


def test_second_result_for_a_table(db):
    refused(db, "result", "--round", 1, "--table", 1, "--ns", 1000, "--ew", 900, match="already has a result")
    refused(db, "result", "--code", good_code(db, 1, 1, 1000, 900), match="a change is a correction")


def test_draw_before_the_last_rounds_results(db):
    refused(db, "draw", match="round 1 still waits for the results of table 2")


def test_totals_not_a_multiple_of_ten(db):
    refused(db, "result", "--round", 1, "--table", 2, "--ns", 1005, "--ew", 900, match="not a multiple of 10")


def test_totals_more_than_a_round_can_give(db):
    refused(db, "result", "--round", 1, "--table", 2, "--ns", 11000, "--ew", 900, match="more than a round can give")
    refused(db, "code", "--round", 1, "--table", 2, "--ns-team", 1, "--ew-team", 2, "--ns", 11000, "--ew", 0,
            match="more than a round can give")


def test_negative_totals(db):
    refused(db, "result", "--round", 1, "--table", 2, "--ns", -10, "--ew", 900, match="NS total")


def test_code_and_sheet_together_or_half_a_sheet(db):
    refused(db, "result", "--code", good_code(db, 1, 2, 1000, 900), "--round", 1, match="not both")
    refused(db, "result", "--round", 1, "--table", 2, "--ns", 1000, match="all of --round")


def test_a_team_added_after_the_draw_joins_from_the_next_round(db):
    added = ok(db, "team", "add", "Latecomers")["teams"]
    assert added == [{"number": 6, "name": "Latecomers", "joined": 2}]


def test_correction_without_a_result_or_a_reason_or_a_change(db):
    refused(db, "correct", "--round", 1, "--table", 2, "--ns", 1000, "--ew", 900, "--why", "x", match="no result")
    refused(db, "correct", "--round", 1, "--table", 1, "--ns", 1000, "--ew", 900, "--why", " ", match="reason")
    refused(db, "correct", "--round", 1, "--table", 1, "--ns", 1520, "--ew", 980, "--why", "x", match="already stands")
    refused(db, "correct", "--round", 1, "--table", 1, "--ns", 1525, "--ew", 980, "--why", "x", match="multiple of 10")


def test_a_second_event_in_the_same_file(db):
    refused(db, "new", "--name", "Again", "--rounds", 3, "--deals", 12, "--rules", "classic2000",
            match="already holds an event")


@pytest.mark.parametrize("argv,match", [
    (["--rounds", 3, "--deals", 12, "--target", 1000, "--rules", "classic2000"], "not allowed with"),
    (["--rounds", 3, "--rules", "classic2000"], "give --deals D (rounds of D deals), --target T (rounds played to T) or --minutes M"),
    (["--rounds", 10, "--deals", 12, "--rules", "classic2000"], "rounds must be"),
    (["--rounds", 3, "--deals", 51, "--rules", "classic2000"], "deals must be"),
    (["--rounds", 3, "--deals", 12, "--rules", "belote"], "unknown preset"),
    (["--rounds", 3, "--deals", 12, "--rules", "classic2000", "--set", "rounding=maybe"], "rounding"),
    (["--rounds", 3, "--deals", 12, "--rules", "classic2000", "--set", "deals=5"], "--deals"),
    (["--rounds", 3, "--target", 50, "--rules", "classic2000"], "target"),
    (["--rounds", 3, "--deals", 12, "--rules", "classic2000", "--match-points", "2,1"], "W,D,L"),
])
def test_new_with_bad_arguments_creates_no_file(tmp_path, argv, match):
    path = tmp_path / "new.db"
    status, out, err = club(path, "new", "--name", "X", *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and match in err, err
    assert not path.exists()


def test_a_missing_file_is_not_created(tmp_path):
    path = tmp_path / "nothing.db"
    status, _, err = club(path, "standings", "--json")
    assert status == 2 and "does not exist" in err and not path.exists()


@pytest.mark.parametrize("content", [b"", b"name,points\nLes As,1520\n", b"SQLite format 3\x00" + b"\x00" * 200])
def test_a_file_that_is_not_ours_is_left_alone(tmp_path, content):
    path = tmp_path / "other.db"
    path.write_bytes(content)
    status, _, err = club(path, "standings", "--json")
    if content:
        assert status == 2 and ("not an event file" in err or "another program" in err)
        assert path.read_bytes() == content
    else:
        assert status == 2 and "does not exist" in err


def test_an_sqlite_database_of_another_program(tmp_path):
    path = tmp_path / "notes.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    before = path.read_bytes()
    for argv in (["standings", "--json"], ["draw"], ["new", "--name", "X", "--rounds", 3, "--deals", 12, "--rules",
                                                      "classic2000"]):
        status, _, err = club(path, *argv)
        assert status == 2 and "another program" in err
    assert path.read_bytes() == before


def test_import_refusals(db, tmp_path):
    ns, ew = table_teams(db, 1, 2)
    teams = {"NS": ns, "EW": ew}
    missing = tmp_path / "missing.json"
    refused(db, "import", missing, match="cannot read")
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    refused(db, "import", garbage, match="not JSON")
    cases = [
        (round_game(1, 2, teams, {"NS": 1250, "EW": 1190}, over=False), "not over"),
        (round_game(1, 1, {"NS": table_teams(db, 1, 1)[0], "EW": table_teams(db, 1, 1)[1]}, {"NS": 1000, "EW": 900}),
         "a change is a correction"),
        (round_game(1, 2, teams, {"NS": 1250, "EW": 1190}, deals=15), "other rules"),
        (dict(round_game(1, 2, teams, {"NS": 1250, "EW": 1190}), total={"NS": 1, "EW": 2}), "not the game's"),
        (round_game(1, 2, teams, {"NS": 1250, "EW": 1190}, code=encode(1, 2, 1260, 1190, ns, ew)),
         "does not hold"),
    ]
    for index, (game, match) in enumerate(cases):
        path = export_file(tmp_path / ("case%d.json" % index), [game])
        refused(db, "import", path, match=match)
    # all or nothing: a good round and a bad one store neither
    both = export_file(tmp_path / "both.json", [round_game(1, 2, teams, {"NS": 1250, "EW": 1190}),
                                                round_game(1, 2, teams, {"NS": 1250, "EW": 1190})])
    refused(db, "import", both, match="twice")


def test_a_bad_command_line(db):
    refused(db, "result", "--round", "one", match="invalid int value")
    refused(db, "dance", match="invalid choice")



def test_password_from_stdin_is_stored_hashed(db, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("tapis vert 2026\n"))
    assert ok(db, "password") == {"password": "set"}
    con = sqlite3.connect(db)
    stored = con.execute("SELECT value FROM meta WHERE key = 'password'").fetchone()[0]
    con.close()
    assert stored.startswith("scrypt$16384$8$1$") and "tapis" not in stored
    from host_tools.club.service import Club
    with Club(str(db)) as c:
        assert c.check_password("tapis vert 2026") and not c.check_password("tapis vert 2025")


def test_a_short_password_is_refused(db, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1234\n"))
    refused(db, "password", match="at least 8 characters")


def test_a_round_to_a_target_ends_when_a_team_reaches_it(tmp_path):
    path = tmp_path / "target.db"
    ok(path, "new", "--name", "Au but", "--rounds", 2, "--target", 1000, "--rules", "coinche1000")
    ok(path, "team", "add", "A", "B")
    ok(path, "draw")
    refused(path, "result", "--round", 1, "--table", 1, "--ns", 990, "--ew", 700, match="cannot be a final score")
    assert ok(path, "result", "--round", 1, "--table", 1, "--ns", 1010, "--ew", 700)["totals"]["NS"] == 1010


def test_import_ignores_a_target_the_round_does_not_use(db, tmp_path):
    ns, ew = table_teams(db, 1, 2)
    game = round_game(1, 2, {"NS": ns, "EW": ew}, {"NS": 1250, "EW": 1190}, options={"deals": 12, "target": 1500})
    assert ok(db, "import", export_file(tmp_path / "g.json", [game]))["imported"][0]["table"] == 2


def test_a_damaged_event_file(template, tmp_path):
    path = tmp_path / "damaged.db"
    data = bytearray(template[0].read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # our header, the rest destroyed
    path.write_bytes(bytes(data))
    status, out, err = club(path, "standings", "--json")
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("club: ")


def test_a_team_name_twice(tmp_path):
    path = tmp_path / "names.db"
    ok(path, "new", "--name", "Noms", "--rounds", 3, "--deals", 12, "--rules", "classic2000")
    ok(path, "team", "add", "Les As")
    refused(path, "team", "add", "Capot", "les as", match="already a team named 'les as'")
    refused(path, "team", "add", "x" * 41, match="at most 40 characters")


def test_teams_before_the_event(tmp_path):
    path = tmp_path / "empty.db"
    from host_tools.club.service import Club
    Club(str(path), create=True).close()  # ours, no event yet (as `serve` leaves it)
    refused(path, "team", "add", "Les As", match="holds no event yet")
    refused(path, "draw", match="holds no event yet")
