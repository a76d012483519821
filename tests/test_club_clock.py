"""The round clock (new --minutes M): started, paused, resumed, given or taken
minutes by the organiser, kept in the event so every page computes the same time
left; a timed round's result counts the deals played (a device export with fewer
deals than the event's is filed); the calculator and the key planner end a round
on time with {"end": "time"}."""
import datetime
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from test_club_cli import club, dump, export_file, ok, round_game
from coinche.result_code import encode
from coinche.rules import Rules
from host_tools.calculator.keys import PlanError, plan, plan_end_now
from host_tools.club.service import Club

START = datetime.datetime(2026, 12, 3, 20, 0, 0, tzinfo=datetime.timezone.utc)


def refused(db, *argv, match):
    before = dump(db)
    status, out, err = club(db, *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and match in err, err
    assert dump(db) == before


@pytest.fixture
def timed(tmp_path):
    """A pairs event of 4 teams, rounds of 12 deals or 40 minutes, round 1 drawn."""
    path = tmp_path / "timed.db"
    ok(path, "new", "--name", "Chrono", "--rounds", 3, "--deals", 12, "--minutes", 40, "--rules", "classic2000",
       "--seed", 4)
    ok(path, "team", "add", "A", "B", "C", "D")
    ok(path, "draw")
    return path


class Clock:
    """The service with a clock the test moves."""

    def __init__(self, path):
        self.at = START
        self.club = Club(str(path))
        self.club.time = lambda: self.at

    def after(self, seconds):
        self.at += datetime.timedelta(seconds=seconds)
        return self.club.clock()


def test_the_clock_before_its_start_shows_the_whole_round(timed):
    assert ok(timed, "clock") == {"round": None, "minutes": 40, "running": False, "paused": False,
                                  "left_seconds": 2400, "warning": None}


def test_started_it_counts_down_and_warns_at_five_minutes_and_at_the_end(timed):
    clock = Clock(timed)
    assert clock.club.clock("start")["running"] is True
    assert clock.after(60)["left_seconds"] == 2340
    view = clock.after(34 * 60)
    assert (view["left_seconds"], view["warning"], view["running"]) == (300, "5min", True)
    view = clock.after(301)
    assert (view["left_seconds"], view["warning"], view["running"]) == (0, "end", False)


def test_a_pause_stops_it_and_a_resume_goes_on_from_there(timed):
    clock = Clock(timed)
    clock.club.clock("start")
    clock.after(600)
    assert clock.club.clock("pause")["paused"] is True
    assert clock.after(900)["left_seconds"] == 1800
    clock.club.clock("resume")
    assert clock.after(60) == {"round": 1, "minutes": 40, "running": True, "paused": False, "left_seconds": 1740,
                               "warning": None}


def test_minutes_added_and_removed(timed):
    clock = Clock(timed)
    clock.club.clock("start")
    assert clock.club.clock("add", 5)["left_seconds"] == 45 * 60
    assert clock.club.clock("add", -10)["minutes"] == 35
    with pytest.raises(Exception, match="36 cannot be removed"):
        clock.club.clock("add", -36)


def test_the_state_gives_the_projector_the_clock(timed):
    clock = Clock(timed)
    clock.club.clock("start")
    clock.after(2100)
    view = clock.club.state()["clock"]
    assert {k: view[k] for k in ("minutes", "running", "left_seconds", "warning")} == \
        {"minutes": 40, "running": True, "left_seconds": 300, "warning": "5min"}


def test_the_clock_is_kept_in_the_file(timed):
    ok(timed, "clock", "start")
    ok(timed, "clock", "pause")
    again = ok(timed, "clock")
    assert again["paused"] is True and again["round"] == 1 and 2390 <= again["left_seconds"] <= 2400


@pytest.mark.parametrize("argv, match", [
    (["clock", "pause"], "not started"),
    (["clock", "resume"], "not started"),
    (["clock", "add", "5"], "not started"),
    (["clock", "start", "5"], "minutes go with add only"),
    (["clock", "stop"], "invalid choice"),
])
def test_clock_actions_out_of_turn(timed, argv, match):
    refused(timed, *argv, match=match)


def test_a_clock_started_twice_or_resumed_while_running(timed):
    ok(timed, "clock", "start")
    refused(timed, "clock", "start", match="already started")
    refused(timed, "clock", "resume", match="running: there is nothing to resume")
    refused(timed, "clock", "add", 0, match="not 0")


def test_an_untimed_event_has_no_clock(tmp_path):
    path = tmp_path / "e.db"
    ok(path, "new", "--name", "E", "--rounds", 2, "--deals", 4, "--rules", "classic2000")
    refused(path, "clock", match="not timed")
    assert ok(path, "show")["clock"] is None


def test_rounds_of_minutes_only(tmp_path):
    path = tmp_path / "e.db"
    event = ok(path, "new", "--name", "E", "--rounds", 2, "--minutes", 30, "--rules", "classic2000")
    assert (event["deals"], event["target"], event["minutes"]) == (0, None, 30)
    ok(path, "team", "add", "A", "B")
    ok(path, "draw")
    # ended on time, far from any target: filed as it stands
    assert ok(path, "result", "--round", 1, "--table", 1, "--ns", 420, "--ew", 380)["totals"] == {"NS": 420, "EW": 380}


def test_a_round_to_a_target_ended_on_time_is_filed_below_the_target(tmp_path):
    path = tmp_path / "e.db"
    ok(path, "new", "--name", "E", "--rounds", 2, "--target", 1000, "--minutes", 45, "--rules", "classic2000")
    ok(path, "team", "add", "A", "B")
    ok(path, "draw")
    assert ok(path, "result", "--round", 1, "--table", 1, "--ns", 820, "--ew", 640)["source"] == "sheet"


def test_a_device_export_of_a_timed_round_counts_the_deals_played(timed, tmp_path):
    drawn = ok(timed, "show")["rounds"][0]["tables"][0]
    teams = {"NS": drawn["NS"], "EW": drawn["EW"]}
    game = round_game(1, 1, teams, {"NS": 610, "EW": 450})
    game["concours"]["deals"] = 7  # the clock ended the round after 7 of its 12 deals
    assert ok(timed, "import", export_file(tmp_path / "games.json", [game]))["imported"][0]["totals"] == \
        {"NS": 610, "EW": 450}


def test_an_export_of_more_deals_than_the_round_is_refused(timed, tmp_path):
    drawn = ok(timed, "show")["rounds"][0]["tables"][0]
    game = round_game(1, 1, {"NS": drawn["NS"], "EW": drawn["EW"]}, {"NS": 610, "EW": 450})
    game["concours"]["deals"] = 13
    refused(timed, "import", export_file(tmp_path / "games.json", [game]), match="timed rounds have at most 12")


def test_an_untimed_event_still_wants_every_deal(tmp_path):
    path = tmp_path / "e.db"
    ok(path, "new", "--name", "E", "--rounds", 2, "--deals", 12, "--rules", "classic2000", "--seed", 1)
    ok(path, "team", "add", "A", "B")
    drawn = ok(path, "draw")["tables"][0]
    game = round_game(1, 1, {"NS": drawn["NS"], "EW": drawn["EW"]}, {"NS": 610, "EW": 450})
    game["concours"]["deals"] = 7
    refused(path, "import", export_file(tmp_path / "games.json", [game]), match="the event's rounds have 12")


# -- the calculator and the key planner: {"end": "time"} ---------------------------------------

DEALS = ['{"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 70, "belote": {"NS": 1, "EW": 0}}',
         '{"taker": "EW", "bid": 80, "trump": "S", "points": 85}']


def score(lines, *command):
    command = command or (sys.executable, "-m", "host_tools.score")
    return subprocess.run(list(command) + ["--rules", "classic2000", "--set", "deals=12"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_the_calculator_ends_a_round_on_time(interpreter):
    command = () if interpreter == "cpython" else (os.path.join(ROOT, ".venv", "bin", "micropython"),
                                                   "host_tools/score.py")
    done = score(DEALS + ['{"end": "time"}'], *command)
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.splitlines()[-1])
    assert last == {"end": "time", "deals": 2, "total": {"NS": 100, "EW": 530}, "over": True, "winner": "EW"}


def test_equal_totals_on_time_are_a_draw():
    done = score(['{"end": "time"}'])
    assert json.loads(done.stdout) == {"end": "time", "deals": 0, "total": {"NS": 0, "EW": 0}, "over": True,
                                       "winner": "draw"}


@pytest.mark.parametrize("lines, match", [
    (['{"end": "now"}'], 'line 1: the end of a round is exactly {"end": "time"}'),
    (['{"end": "time", "deals": 3}'], 'line 1: the end of a round is exactly'),
    (DEALS[:1] + ['{"end": "time"}'] + DEALS[1:], "line 3: the round ended on time at line 2"),
])
def test_the_calculator_refuses_a_bad_end(lines, match):
    done = score(lines)
    assert done.returncode == 2 and match in done.stderr, done.stderr


def test_the_key_planner_ends_its_script_on_time():
    rules = Rules("classic2000", {"deals": 12})
    records = [json.loads(line) for line in DEALS] + [{"end": "time"}]
    script, presses = plan(rules, records)
    # the end's keys come after its line: Menu > "End the round now" > OK to its question
    assert len(presses) == 2 and script[-5:] == ["# the round ends on time after deal 2: EW wins"] + plan_end_now()
    assert plan_end_now()[0] == "ok" and plan_end_now()[-2:] == ["ok", "ok"]
    with pytest.raises(PlanError, match="line 2: the round ended on time at line 1"):
        plan(rules, [{"end": "time"}] + records[:1])


def test_a_timed_round_from_the_calculator_into_the_app(timed):
    """Seven deals and the clock: the calculator's totals, as a code, filed."""
    done = score(DEALS * 3 + DEALS[:1] + ['{"end": "time"}'])
    last = json.loads(done.stdout.splitlines()[-1])
    assert last["deals"] == 7 and last["over"]
    seat = ok(timed, "show")["rounds"][0]["tables"][0]
    code = encode(1, 1, last["total"]["NS"], last["total"]["EW"], seat["NS"], seat["EW"])
    assert ok(timed, "result", "--code", code)["totals"] == last["total"]
