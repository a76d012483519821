"""The concours as it really goes (host_tools.club): teams that come late or leave,
a typo renamed, a draw undone, two teams swapped, standings by round, the round in
progress, the event exported. One test per situation, from the command line and
from the service the admin page calls; bad input: one line, exit status 2, the
file unchanged."""
import csv
import json
import os
import random
import shutil
import sqlite3
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_club_cli import club, dump, ok, refused
from test_club_pairing import check_round
from test_link_league import postgres  # noqa: F401  (the fixture: a server of our own)
from host_tools.club.pairing import present
from host_tools.club.service import Club, make_event
from host_tools.club.standings import late_byes
from host_tools.club.storage import APPLICATION_ID


def new_event(path, teams=5, *extra):
    ok(path, "new", "--name", "Jeudi", "--rounds", 4, "--deals", 12, "--rules", "classic2000", "--seed", 11,
       "--ranking", "matches", "--bye-score", 500, *extra)
    ok(path, "team", "add", *["Team %d" % n for n in range(1, teams + 1)])
    return path


def fill(path, round_number, skip=()):
    """Every table of the round without a result gets one: NS wins 1000 to 600."""
    for r in ok(path, "show")["rounds"]:
        if r["round"] == round_number:
            for t in r["tables"]:
                if t["result"] is None and not t["forfeit"] and t["table"] not in skip:
                    ok(path, "result", "--round", round_number, "--table", t["table"], "--ns", 1000, "--ew", 600)


def seat_of(drawn, team):
    for t in drawn["tables"]:
        if team in (t["NS"], t["EW"]):
            return t
    return None


def rows(path, *after):
    table = ok(path, "standings", "--json", *(("--after", after[0]) if after else ()))
    return table, {r["team"]: r for r in table["ranking"]}


@pytest.fixture(scope="module")
def drawn_template(tmp_path_factory):
    """5 teams, ranked by matches, bye 500; round 1 drawn, no result yet."""
    path = new_event(tmp_path_factory.mktemp("evening") / "drawn.db")
    return path, ok(path, "draw")


@pytest.fixture
def drawn(drawn_template, tmp_path):
    path = tmp_path / "event.db"
    shutil.copy(drawn_template[0], path)
    return path, drawn_template[1]


@pytest.fixture
def played(drawn):
    """Round 1 complete."""
    fill(drawn[0], 1)
    return drawn


# -- late teams ------------------------------------------------------------------------

def test_a_late_team_is_drawn_from_the_next_round(drawn):
    path, first = drawn
    assert ok(path, "team", "add", "Les Retardataires")["teams"] == [
        {"number": 6, "name": "Les Retardataires", "joined": 2}]
    assert all(6 not in (t["NS"], t["EW"]) for t in ok(path, "show")["rounds"][0]["tables"])
    fill(path, 1)
    second = ok(path, "draw")
    assert seat_of(second, 6) is not None and second["bye"] == []


def test_a_late_teams_missed_round_counts_nothing(drawn):
    path, _ = drawn
    ok(path, "team", "add", "Les Retardataires")
    fill(path, 1)
    late = rows(path)[1][6]
    assert (late["played"], late["points_for"], late["match_points"]) == (0, 0, 0)


def test_with_late_as_bye_a_missed_round_counts_as_a_bye(tmp_path):
    path = new_event(tmp_path / "e.db", 5, "--late-as-bye")
    ok(path, "draw")
    ok(path, "team", "add", "Les Retardataires")
    fill(path, 1)
    late = rows(path)[1][6]
    assert (late["played"], late["won"], late["byes"], late["points_for"], late["match_points"]) == (1, 1, 1, 500, 2)
    assert ok(path, "show")["event"]["late_as_bye"] is True


def test_a_late_add_is_kept_with_who_and_when(drawn):
    path, _ = drawn
    ok(path, "team", "add", "Les Retardataires")
    action = ok(path, "show")["team_actions"][-1]
    assert (action["action"], action["team"], action["joined"]) == ("add", 6, 2) and action["at"].endswith("Z")


def test_teams_added_before_the_first_draw_are_not_actions(drawn):
    assert ok(drawn[0], "show")["team_actions"] == []


# -- withdrawals -----------------------------------------------------------------------

def test_a_team_withdrawn_between_rounds_is_never_drawn_again(played):
    path, _ = played
    gone = ok(path, "team", "withdraw", 3, "--why", "train to catch")
    assert (gone["team"], gone["why"], gone["forfeit"]) == (3, "train to catch", None)
    for _ in range(3):
        r = ok(path, "draw")
        assert seat_of(r, 3) is None and 3 not in r["bye"]
        fill(path, r["round"])


def test_a_withdrawn_team_keeps_its_results_and_is_listed_last(played):
    path, _ = played
    before = rows(path)[1][3]
    ok(path, "team", "withdraw", 3)
    table, by_team = rows(path)
    assert table["ranking"][-1]["team"] == 3 and by_team[3]["withdrawn"] is True
    assert (by_team[3]["played"], by_team[3]["points_for"]) == (before["played"], before["points_for"])
    assert all(r["withdrawn"] is False for r in table["ranking"][:-1])
    assert table["ranking"][-1]["rank"] == 5


def test_withdrawn_teams_are_ranked_among_themselves(played):
    path, _ = played
    ok(path, "team", "withdraw", 1)
    ok(path, "team", "withdraw", 2)
    ranking = rows(path)[0]["ranking"]
    last_two = [r for r in ranking[-2:]]
    assert {r["team"] for r in last_two} == {1, 2} and [r["rank"] for r in last_two] in ([4, 5], [4, 4])
    key = [(-r["match_points"], r["points_against"] - r["points_for"]) for r in last_two]
    assert key == sorted(key)


def test_a_withdrawal_after_the_draw_is_a_forfeit(drawn):
    path, first = drawn
    table = first["tables"][0]
    gone = ok(path, "team", "withdraw", table["EW"], "--why", "ill")
    assert gone["forfeit"] == {"round": 1, "table": 1, "opponent": table["NS"]}
    fill(path, 1)
    table_json, by_team = rows(path)
    assert table_json["round"] == 1  # the forfeit does not keep the round open
    winner, loser = by_team[table["NS"]], by_team[table["EW"]]
    assert (winner["played"], winner["won"], winner["points_for"], winner["points_against"],
            winner["match_points"]) == (1, 1, 500, 0, 2)
    assert (loser["played"], loser["points_for"], loser["match_points"]) == (0, 0, 0)


def test_a_forfeits_credit_counts_as_its_bye(tmp_path):
    """The opponent of a team that left after the draw was scored as for a bye: it is
    not given a drawn bye before every other team still playing had one, even when it
    loses every game after (5 teams left, rounds 2 to 4: three byes, none to it)."""
    path = tmp_path / "forfeit.db"
    ok(path, "new", "--name", "Jeudi", "--rounds", 4, "--deals", 12, "--rules", "classic2000", "--seed", 11,
       "--ranking", "total")  # a bye scores 0: the credited team is the lowest by points
    ok(path, "team", "add", *["Team %d" % n for n in range(1, 7)])
    first = ok(path, "draw")
    credited = first["tables"][0]["NS"]
    ok(path, "team", "withdraw", first["tables"][0]["EW"], "--why", "train")
    for number in (1, 2, 3, 4):
        drawn = first if number == 1 else ok(path, "draw")
        if number > 1:
            assert credited not in drawn["bye"], (number, drawn)
        for t in drawn["tables"]:
            if not ok(path, "show")["rounds"][number - 1]["tables"][t["table"] - 1]["forfeit"]:
                ns, ew = (600, 1000) if t["NS"] == credited else (1000, 600) if t["EW"] == credited else (800, 700)
                ok(path, "result", "--round", number, "--table", t["table"], "--ns", ns, "--ew", ew)
    assert rows(path)[1][credited]["byes"] == 1


def test_a_forfeit_table_takes_no_result(drawn):
    path, first = drawn
    ok(path, "team", "withdraw", first["tables"][0]["EW"])
    refused(path, "result", "--round", 1, "--table", 1, "--ns", 1000, "--ew", 600, match="is a forfeit")


def test_a_forfeit_counts_as_filed_in_the_round_in_progress(drawn):
    path, first = drawn
    assert ok(path, "show")["progress"] == {"round": 1, "filed": 0, "tables": 2}
    ok(path, "team", "withdraw", first["tables"][0]["EW"])
    assert ok(path, "show")["progress"] == {"round": 1, "filed": 1, "tables": 2}
    assert ok(path, "show")["rounds"][0]["tables"][0]["forfeit"] is True


def test_a_team_withdrawn_with_the_bye_of_the_round_in_progress_loses_it(drawn):
    path, first = drawn
    holder = first["bye"][0]
    gone = ok(path, "team", "withdraw", holder)
    assert gone["bye_taken_back"] == 1
    assert ok(path, "show")["rounds"][0]["bye"] == []
    fill(path, 1)
    assert rows(path)[1][holder]["played"] == 0


def test_a_withdrawn_team_never_gets_a_bye(played):
    path, _ = played
    # the lowest-ranked team without a bye would have it: withdraw it
    ranking = rows(path)[0]["ranking"]
    had_bye = set(ok(path, "show")["rounds"][0]["bye"])
    lowest = [r["team"] for r in ranking if r["team"] not in had_bye][-1]
    ok(path, "team", "withdraw", lowest)
    ok(path, "team", "add", "Five")  # back to an odd count of teams present
    fill(path, 1)
    second = ok(path, "draw")
    assert second["bye"] and lowest not in second["bye"] and seat_of(second, lowest) is None


def test_a_withdrawal_is_kept_with_who_when_and_why(played):
    path, _ = played
    ok(path, "team", "withdraw", 2, "--why", "a family matter")
    action = ok(path, "show")["team_actions"][-1]
    assert (action["action"], action["team"], action["why"], action["after_round"]) == (
        "withdraw", 2, "a family matter", 1)
    assert action["who"] and action["at"].endswith("Z")


def test_the_service_withdraws_for_the_admin_page(played, tmp_path):
    with Club(str(played[0])) as c:
        done = c.withdraw_team(4, why="left early", who="admin")
        assert (done["who"], done["why"]) == ("admin", "left early")
        assert [t["withdrawn"] for t in c.state()["teams"]] == [False, False, False, True, False]
        assert c.team_actions()[-1]["who"] == "admin"


# -- renames -----------------------------------------------------------------------------

def test_a_rename_shows_everywhere(played):
    path, _ = played
    done = ok(path, "team", "rename", 2, "Les  As  du  Coin")
    assert (done["old"], done["new"]) == ("Team 2", "Les As du Coin")
    assert rows(path)[1][2]["name"] == "Les As du Coin"
    assert ok(path, "team", "list")["teams"][1]["name"] == "Les As du Coin"
    assert ok(path, "show")["team_actions"][-1]["action"] == "rename"


def test_the_service_renames_for_the_admin_page(played):
    with Club(str(played[0])) as c:
        assert c.rename_team(1, "Capot", who="admin")["new"] == "Capot"
        assert c.teams()[0]["name"] == "Capot"


# -- undo --------------------------------------------------------------------------------

def test_undo_prints_the_round_it_removed(drawn):
    path, first = drawn
    removed = ok(path, "draw", "--undo")["removed"]
    assert removed == first
    assert ok(path, "show")["rounds"] == []
    assert ok(path, "draw") == first  # the same teams and seed: the same draw


def test_a_team_added_after_an_undone_draw_is_in_the_new_draw(drawn):
    path, _ = drawn
    ok(path, "team", "add", "Les Retardataires")
    ok(path, "draw", "--undo")
    again = ok(path, "draw")
    assert seat_of(again, 6) is not None
    assert ok(path, "team", "list")["teams"][5]["joined"] == 1


def test_undo_of_a_later_round_draws_it_again(played):
    path, _ = played
    second = ok(path, "draw")
    assert ok(path, "draw", "--undo")["removed"] == second
    assert ok(path, "draw") == second
    assert [a["action"] for a in ok(path, "show")["team_actions"]] == ["undo"]


def test_the_service_undoes_for_the_admin_page(drawn):
    with Club(str(drawn[0])) as c:
        assert c.undo_draw(who="admin") == drawn[1]
        assert c.team_actions()[-1]["removed"] == drawn[1]


# -- swap --------------------------------------------------------------------------------

def test_a_swap_changes_two_teams_places(drawn):
    path, first = drawn
    a, b = first["tables"][0]["NS"], first["tables"][1]["EW"]
    swapped = ok(path, "draw", "--swap", a, b)
    assert set(swapped) == {"round", "tables", "bye", "rematches"} and swapped["round"] == 1
    assert swapped["tables"][0]["NS"] == b and swapped["tables"][1]["EW"] == a
    assert swapped["tables"][0]["EW"] == first["tables"][0]["EW"] and swapped["bye"] == first["bye"]
    assert ok(path, "show")["rounds"][0]["tables"][0]["NS"] == b


def test_a_swap_with_the_team_that_has_the_bye(drawn):
    path, first = drawn
    a, holder = first["tables"][0]["NS"], first["bye"][0]
    swapped = ok(path, "draw", "--swap", a, holder)
    assert swapped["bye"] == [a] and swapped["tables"][0]["NS"] == holder


def test_a_swap_beside_a_table_already_filed(drawn):
    path, first = drawn
    fill(path, 1, skip=(1,))
    a, b = first["tables"][0]["NS"], first["tables"][0]["EW"]
    assert ok(path, "draw", "--swap", a, b)["tables"][0] == {"table": 1, "NS": b, "EW": a}


def test_the_service_swaps_for_the_admin_page(drawn):
    first = drawn[1]
    with Club(str(drawn[0])) as c:
        a, b = first["tables"][0]["NS"], first["tables"][1]["NS"]
        swapped = c.swap_teams(a, b, who="admin")
        assert swapped["tables"][1]["NS"] == a
        assert (c.team_actions()[-1]["action"], c.team_actions()[-1]["other"]) == ("swap", b)


# -- standings by round -----------------------------------------------------------------

def test_the_next_draw_does_not_change_the_standings(played):
    path, _ = played
    before = rows(path)[0]
    ok(path, "draw")
    assert rows(path)[0] == before and before["round"] == 1


def test_results_typed_during_a_round_are_not_counted_yet(played):
    path, _ = played
    second = ok(path, "draw")
    before = rows(path)[0]
    ok(path, "result", "--round", 2, "--table", 1, "--ns", 1200, "--ew", 400)
    assert rows(path)[0] == before
    assert rows(path, 2)[0]["provisional"] is True and before["provisional"] is False
    assert club(path, "standings", "--after", 2)[1].startswith("after round 2 (provisional")
    provisional = rows(path, 2)[1]
    assert provisional[second["tables"][0]["NS"]]["points_for"] == before_points(before, second) + 1200


def before_points(table, second):
    return {r["team"]: r["points_for"] for r in table["ranking"]}[second["tables"][0]["NS"]]


def test_standings_after_an_earlier_round(played):
    path, _ = played
    after_one = rows(path)[0]
    second = ok(path, "draw")
    fill(path, 2)
    assert rows(path)[0]["round"] == 2
    assert rows(path, 1)[0] == after_one
    assert rows(path, 0)[0]["round"] == 0 and all(r["played"] == 0 for r in rows(path, 0)[0]["ranking"])
    assert second["round"] == 2


def test_standings_as_text_mark_the_withdrawn(played):
    path, _ = played
    ok(path, "team", "withdraw", 5)
    status, out, _ = club(path, "standings", "--after", 1)
    assert status == 0 and out.startswith("after round 1")
    assert out.splitlines()[-1].endswith("withdrawn") and "Team 5" in out.splitlines()[-1]


def test_the_state_gives_the_round_in_progress(played):
    path, _ = played
    assert ok(path, "show")["progress"] is None
    ok(path, "draw")
    ok(path, "result", "--round", 2, "--table", 1, "--ns", 1200, "--ew", 400)
    state = ok(path, "show")
    assert state["progress"] == {"round": 2, "filed": 1, "tables": 2}
    assert state["standings"]["round"] == 1
    assert all({"joined", "withdrawn"} <= set(t) for t in state["teams"])


# -- the event's options -----------------------------------------------------------------

def test_the_language_is_kept_and_defaults_to_french(tmp_path):
    assert ok(tmp_path / "a.db", "new", "--name", "A", "--rounds", 2, "--deals", 12, "--rules", "classic2000",
              "--lang", "it")["lang"] == "it"
    assert ok(tmp_path / "b.db", "new", "--name", "B", "--rounds", 2, "--deals", 12,
              "--rules", "classic2000")["lang"] == "fr"


def test_a_language_the_pages_do_not_speak(tmp_path):
    status, out, err = club(tmp_path / "c.db", "new", "--name", "C", "--rounds", 2, "--deals", 12,
                            "--rules", "classic2000", "--lang", "es")
    assert status == 2 and out == "" and "invalid choice" in err and not (tmp_path / "c.db").exists()


# -- export ------------------------------------------------------------------------------

def test_export_writes_the_four_files(played, tmp_path):
    path, first = played
    ok(path, "correct", "--round", 1, "--table", 1, "--ns", 1010, "--ew", 590, "--why", "sheet misread",
       "--who", "Ginette")
    ok(path, "team", "rename", 1, "=SUM(A1:A9)")
    out = tmp_path / "out"
    done = ok(path, "export", "--out", out)
    assert sorted(p.name for p in out.iterdir()) == ["corrections.csv", "event.json", "results.csv", "standings.csv"]
    assert done["round"] == 1 and len(done["files"]) == 4
    event = json.loads((out / "event.json").read_text(encoding="utf-8"))
    assert event["event"]["name"] == "Jeudi" and len(event["rounds"]) == 1 and event["corrections"]
    results = list(csv.DictReader((out / "results.csv").open(encoding="utf-8", newline="")))
    assert [(r["outcome"], r["table"]) for r in results] == [("result", "1"), ("result", "2"), ("bye", "")]
    assert (results[0]["ns_total"], results[0]["source"]) == ("1010", "correction")
    standings = list(csv.DictReader((out / "standings.csv").open(encoding="utf-8", newline="")))
    assert len(standings) == 5 and standings[0]["rank"] == "1" and standings[0]["after_round"] == "1"
    assert any(r["name"] == "'=SUM(A1:A9)" for r in standings)  # not run as a formula by a spreadsheet
    corrections = list(csv.DictReader((out / "corrections.csv").open(encoding="utf-8", newline="")))
    assert [(c["old_ns"], c["new_ns"], c["who"], c["why"]) for c in corrections] == [
        ("1000", "1010", "Ginette", "sheet misread")]


def test_export_of_a_forfeit_and_a_table_waiting(drawn, tmp_path):
    path, first = drawn
    ok(path, "team", "withdraw", first["tables"][0]["EW"])
    ok(path, "export", "--out", tmp_path / "out")
    results = list(csv.DictReader((tmp_path / "out" / "results.csv").open(encoding="utf-8", newline="")))
    assert [r["outcome"] for r in results] == ["forfeit", "waiting", "bye"]


def test_export_into_a_file_that_is_not_a_folder(played, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    status, out, err = club(played[0], "export", "--out", blocker)
    assert status == 2 and out == "" and len(err.splitlines()) == 1


# -- older files ---------------------------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE event (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, rounds INTEGER NOT NULL,
    deals INTEGER NOT NULL, target INTEGER, rules TEXT NOT NULL, ranking TEXT NOT NULL, match_points TEXT NOT NULL,
    bye_score INTEGER NOT NULL, bye_match_points INTEGER NOT NULL, seed INTEGER NOT NULL, max_deal INTEGER NOT NULL,
    tens INTEGER NOT NULL, created TEXT NOT NULL);
CREATE TABLE team (number INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE round (number INTEGER PRIMARY KEY, drawn TEXT NOT NULL);
CREATE TABLE seat (round INTEGER NOT NULL REFERENCES round(number), number INTEGER NOT NULL,
    ns INTEGER NOT NULL REFERENCES team(number), ew INTEGER NOT NULL REFERENCES team(number),
    PRIMARY KEY (round, number));
CREATE TABLE bye (round INTEGER NOT NULL REFERENCES round(number), team INTEGER NOT NULL REFERENCES team(number),
    PRIMARY KEY (round, team));
CREATE TABLE result (round INTEGER NOT NULL, number INTEGER NOT NULL, ns_total INTEGER NOT NULL,
    ew_total INTEGER NOT NULL, source TEXT NOT NULL, code TEXT, entered TEXT NOT NULL, PRIMARY KEY (round, number),
    FOREIGN KEY (round, number) REFERENCES seat(round, number));
CREATE TABLE correction (id INTEGER PRIMARY KEY AUTOINCREMENT, round INTEGER NOT NULL, number INTEGER NOT NULL,
    old_ns INTEGER NOT NULL, old_ew INTEGER NOT NULL, new_ns INTEGER NOT NULL, new_ew INTEGER NOT NULL,
    who TEXT NOT NULL, at TEXT NOT NULL, why TEXT NOT NULL);
"""


def test_an_event_file_of_the_first_schema_is_brought_up_to_date(tmp_path):
    """A file written before teams could come and go: every team playing since
    round 1, the pages in French, and everything of this file works on it."""
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.execute("PRAGMA application_id = %d" % APPLICATION_ID)
    con.executescript(OLD_SCHEMA)
    con.execute("INSERT INTO meta VALUES ('schema', '1')")
    con.execute("INSERT INTO event VALUES (1, 'Ancien', 3, 12, NULL, ?, 'matches', '[2, 1, 0]', 0, 2, 5, 910, 1, "
                "'2025-01-01T20:00:00Z')", (json.dumps({"preset": "classic2000", "options": {"deals": 12}}),))
    con.executemany("INSERT INTO team VALUES (?, ?)", [(n, "Old %d" % n) for n in range(1, 5)])
    con.commit()
    con.close()
    state = ok(path, "show")
    assert state["event"]["lang"] == "fr" and state["event"]["late_as_bye"] is False
    assert (state["event"]["format"], state["event"]["minutes"], state["clock"]) == ("pairs", None, None)
    assert [(t["joined"], t["withdrawn"]) for t in state["teams"]] == [(1, False)] * 4
    ok(path, "draw")
    ok(path, "team", "withdraw", 4)
    assert ok(path, "show")["team_actions"][0]["action"] == "withdraw"
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "3"
    con.close()


# -- bad input: one line, exit 2, nothing changed ------------------------------------------

def test_withdrawing_twice(played):
    ok(played[0], "team", "withdraw", 2)
    refused(played[0], "team", "withdraw", 2, match="already withdrawn")


def test_an_unknown_team(played):
    refused(played[0], "team", "withdraw", 9, match="no team 9")
    refused(played[0], "team", "rename", 0, "X", match="no team 0")
    refused(played[0], "draw", "--swap", 1, 9, match="no team 9")


def test_an_empty_reason(played):
    refused(played[0], "team", "withdraw", 2, "--why", "  ", match="cannot be blank")


def test_undo_after_a_result_is_in(drawn):
    fill(drawn[0], 1, skip=(2,))
    refused(drawn[0], "draw", "--undo", match="cannot be undone")


def test_undo_with_no_round_drawn(tmp_path):
    path = new_event(tmp_path / "e.db")
    refused(path, "draw", "--undo", match="nothing to undo")


def test_a_swap_across_rounds(drawn):
    path, _ = drawn
    ok(path, "team", "add", "Les Retardataires")  # joins in round 2: in no round drawn yet
    refused(path, "draw", "--swap", 1, 6, match="not in round 1")


def test_a_swap_of_a_withdrawn_team(played):
    path, _ = played
    ok(path, "team", "withdraw", 5)
    second = ok(path, "draw")
    refused(path, "draw", "--swap", 5, second["tables"][0]["NS"], match="has withdrawn")


def test_a_swap_of_a_team_with_itself(drawn):
    refused(drawn[0], "draw", "--swap", 2, 2, match="two different teams")


def test_a_swap_of_a_table_already_filed(drawn):
    path, first = drawn
    fill(path, 1, skip=(2,))
    refused(path, "draw", "--swap", first["tables"][0]["NS"], first["tables"][1]["NS"], match="already has its result")


def test_undo_and_swap_together(drawn):
    refused(drawn[0], "draw", "--undo", "--swap", 1, 2, match="not allowed with")


@pytest.mark.parametrize("name, match", [
    ("", "cannot be empty"), ("   ", "cannot be empty"),
    ("Les\tAs", "control"), ("Les\nAs", "control"), ("Les\x1b[2JAs", "control"),
    ("Les \u202eSA", "direction"), ("\u2066Les As\u2069", "direction"), ("x" * 41, "at most 40"),
])
def test_a_rename_to_a_bad_name(played, name, match):
    refused(played[0], "team", "rename", 2, name, match=match)


def test_a_rename_to_another_teams_name(played):
    refused(played[0], "team", "rename", 2, "team 3", match="already a team named")


def test_a_rename_to_the_same_name(played):
    refused(played[0], "team", "rename", 2, "Team 2", match="already named")


@pytest.mark.parametrize("name", ["Capot\u202e", "Ca\x00pot", "Ca\u200fpot"])
def test_team_add_refuses_control_and_direction_characters(drawn, name):
    refused(drawn[0], "team", "add", "Fine", name, match="control or direction")


def test_a_team_added_when_every_round_is_drawn(tmp_path):
    path = tmp_path / "e.db"
    ok(path, "new", "--name", "Court", "--rounds", 1, "--deals", 12, "--rules", "classic2000", "--seed", 1)
    ok(path, "team", "add", "A", "B")
    ok(path, "draw")
    refused(path, "team", "add", "C", match="would play none")


def test_standings_after_a_round_not_drawn(played):
    refused(played[0], "standings", "--json", "--after", 2, match="rounds drawn: 1")
    refused(played[0], "standings", "--json", "--after", -1, match="rounds drawn: 1")


def test_a_draw_with_fewer_than_two_teams_left(tmp_path):
    path = tmp_path / "e.db"
    ok(path, "new", "--name", "Seuls", "--rounds", 3, "--deals", 12, "--rules", "classic2000", "--seed", 1)
    ok(path, "team", "add", "A", "B")
    ok(path, "team", "withdraw", 2)
    refused(path, "draw", match="two teams still playing")


def test_a_refused_action_changes_nothing_from_the_service(played):
    before = dump(played[0])
    with Club(str(played[0])) as c:
        for action in (lambda: c.withdraw_team(42), lambda: c.rename_team(1, "A\u202eB", who="admin"),
                       lambda: c.swap_teams(1, 1), lambda: c.add_teams(["Ok", "Ok"])):
            with pytest.raises(Exception) as caught:
                action()
            assert type(caught.value).__name__ == "ClubError"
    assert dump(played[0]) == before


def test_a_team_credited_with_a_forfeit_keeps_it_when_it_leaves_later(drawn):
    path, first = drawn
    table = first["tables"][0]
    ok(path, "team", "withdraw", table["EW"])
    fill(path, 1)
    credited = rows(path)[1][table["NS"]]
    ok(path, "draw")
    ok(path, "team", "withdraw", table["NS"])
    assert rows(path, 1)[1][table["NS"]]["points_for"] == credited["points_for"] == 500


# -- random evenings through the service and its file ---------------------------------------

@st.composite
def service_evenings(draw):
    teams = draw(st.integers(2, 9))
    steps = draw(st.lists(st.sampled_from(["draw", "draw", "draw", "withdraw", "late", "undo", "swap"]),
                          min_size=1, max_size=12))
    return teams, steps, draw(st.integers(0, 10 ** 6)), draw(st.booleans())


@settings(max_examples=25, deadline=None)
@given(service_evenings())
def test_random_evenings_through_the_service(evening):
    """The service's draws over random evenings (withdrawals before or after a draw,
    late teams, undone draws, swaps), stored in a real file: each team present once
    per round, never a withdrawn one, the fewest rematches, byes fair."""
    count, steps, seed, late_as_bye = evening
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder, Club(os.path.join(folder, "e.db"), create=True) as c:
        c.create_event(make_event("Hasard", 5, "classic2000", deals=12, ranking="matches", seed=seed,
                                  late_as_bye=late_as_bye))
        c.add_teams(["T%d" % n for n in range(1, count + 1)])
        for step in steps:
            rounds = c.rounds()
            teams = c.store.teams()
            if rounds:  # the round in progress gets its results before anything but an undo or swap
                if step not in ("undo", "swap"):
                    for t in rounds[-1]["tables"]:
                        if t["table"] in c._missing(rounds[-1], c.store.results(), teams):
                            c.result(rounds[-1]["round"], t["table"], rnd.randrange(0, 2000, 10), 1000)
            playing = present(teams, len(rounds) + 1)
            if step == "draw" and len(rounds) < 5 and len(playing) >= 2:
                order = [row["team"] for row in c.standings()["ranking"]]
                late = late_byes(c.event(), teams, len(rounds))
                drawn = c.draw()
                pairs = [(t["NS"], t["EW"]) for t in drawn["tables"]]
                check_round(drawn["round"], teams, rounds, order, late, pairs, drawn["bye"], drawn["rematches"])
            elif step == "withdraw" and playing:
                c.withdraw_team(rnd.choice(playing), why="random")
            elif step == "late" and len(rounds) < 5 and len(playing) < 11:  # checked by brute force
                c.add_teams(["L%d" % (len(teams) + 1)])
            elif step == "undo" and rounds and not any(k[0] == rounds[-1]["round"] for k in c.store.results()):
                c.undo_draw()
            elif step == "swap" and rounds and not any(k[0] == rounds[-1]["round"] for k in c.store.results()):
                seated = [t for x in rounds[-1]["tables"] for t in (x["NS"], x["EW"])] + rounds[-1]["bye"]
                movable = [t for t in seated if next(x for x in teams if x["number"] == t)["withdrawn"] is None]
                if len(movable) >= 2:
                    a, b = rnd.sample(movable, 2)
                    c.swap_teams(a, b)
        ranking = c.standings()["ranking"]
        assert [r["withdrawn"] for r in ranking] == sorted(r["withdrawn"] for r in ranking)
        state = c.state()
        if state["progress"] is not None:
            assert state["standings"]["round"] == state["progress"]["round"] - 1


# -- PostgreSQL ------------------------------------------------------------------------------

def test_teams_that_come_and_go_in_postgresql(postgres):  # noqa: F811  (the imported fixture)
    """The same actions on a PostgreSQL event, and an event made before them
    (without the new columns and table) brought up to date when opened."""
    with Club(postgres, create=True) as c:
        c.create_event(make_event("Ligue", 3, "classic2000", deals=12, ranking="matches", seed=3, bye_score=500,
                                  lang="de"))
        c.add_teams(["A", "B", "C", "D", "E"])
        # as an event of the first schema was: no team_action, no joined / withdrawn / lang / late_as_bye
        with c.store.transaction():
            c.store.execute("DROP TABLE team_action")
            c.store.execute("ALTER TABLE team DROP COLUMN joined")
            c.store.execute("ALTER TABLE team DROP COLUMN withdrawn")
            c.store.execute("ALTER TABLE event DROP COLUMN lang")
            c.store.execute("ALTER TABLE event DROP COLUMN late_as_bye")
            c.store.set_meta("schema", "1")
    with Club(postgres) as c:
        assert c.store.meta("schema") == "3" and c.event_summary()["lang"] == "fr"
        first = c.draw()
        assert c.undo_draw(who="admin") == first
        first = c.draw()
        c.add_teams(["Late"])
        c.rename_team(1, "Anne", who="admin")
        table = first["tables"][0]
        c.swap_teams(table["NS"], first["bye"][0])
        first = c.rounds()[0]
        table = first["tables"][0]
        assert c.withdraw_team(table["EW"], why="left")["forfeit"]["opponent"] == table["NS"]
        for t in first["tables"][1:]:
            c.result(1, t["table"], 1000, 600)
        standings = c.standings()
        assert standings["round"] == 1 and standings["ranking"][-1]["team"] == table["EW"]
        assert {r["team"]: r["points_for"] for r in standings["ranking"]}[table["NS"]] == 500
        second = c.draw()
        assert any(6 in (t["NS"], t["EW"]) for t in second["tables"]) or second["bye"] == [6]
        assert [a["action"] for a in c.team_actions()] == ["undo", "add", "rename", "swap", "withdraw"]
        assert c.state()["progress"] == {"round": 2, "filed": 0, "tables": len(second["tables"])}
