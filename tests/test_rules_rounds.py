"""Rounds of a fixed number of deals (options `deals` and `pass_counts`), on CPython and
on the MicroPython unix port: the same scenarios, the same answers."""
import json
import subprocess
import sys

import pytest

from conftest import ROOT, run_mp
from coinche.game import Game, GameError, RunningScore
from coinche.rule_options import MAX_ROUND_DEALS
from coinche.rules import Rules, RulesError
from host_tools.common.rules_help import parse_value
from vectors import deal

PASS = {"bid": "pass"}
NS_100 = deal(taker="NS", bid=100, points=112)   # classic2000: NS 210, EW 50
EW_100 = deal(taker="EW", bid=100, points=112)   # EW 210, NS 50
NS_BIG = deal(taker="NS", bid=160, points=162, tricks=8)  # NS 410, far past nothing: no target in a round

# (name, preset, options, deals, the (over, winner) expected after each deal)
SCENARIOS = [
    ("three deals, NS ahead", "classic2000", {"deals": 3}, [NS_100, EW_100, NS_100],
     [(False, None), (False, None), (True, "NS")]),
    ("two deals, equal totals: a draw", "classic2000", {"deals": 2}, [NS_100, EW_100],
     [(False, None), (True, None)]),
    ("an all-pass deal counts by default", "classic2000", {"deals": 2}, [NS_100, PASS],
     [(False, None), (True, "NS")]),
    ("an all-pass deal is dealt again", "classic2000", {"deals": 2, "pass_counts": False}, [NS_100, PASS, PASS, EW_100],
     [(False, None), (False, None), (False, None), (True, None)]),
    ("the target is not used in a round", "classic2000", {"deals": 6, "target": 400}, [NS_BIG, NS_BIG, EW_100],
     [(False, None), (False, None), (False, None)]),
    ("federation's extra deal on a tie does not apply", "federation", {"deals": 1}, [PASS],
     [(True, None)]),
    ("deals = 0 plays to the target as before", "classic2000", {"deals": 0, "target": 400}, [NS_100, NS_100],
     [(False, None), (True, "NS")]),
]

DRIVER = r'''
import json
import sys
from coinche.game import Game, RunningScore
from coinche.rules import Rules
for name, preset, options, deals, expect in json.loads(sys.stdin.readline()):
    rules = Rules(preset, options)
    game = Game(rules)
    running = RunningScore(rules)
    seen = []
    for rec in deals:
        game.add(rec)
        running.add(rec)
        assert (running.over, running.winner) == (game.over, game.winner), name
        seen.append([game.over, game.winner])
    print(json.dumps([name, seen, game.round_deal(), game.drawn]))
'''


def play(preset, options, deals):
    rules = Rules(preset, options)
    game = Game(rules)
    running = RunningScore(rules)
    seen = []
    for rec in deals:
        game.add(rec)
        running.add(rec)
        assert (running.over, running.winner) == (game.over, game.winner)
        seen.append((game.over, game.winner))
    return game, seen


@pytest.mark.parametrize("name,preset,options,deals,expect", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_round_ends_after_its_counted_deals(name, preset, options, deals, expect):
    _, seen = play(preset, options, deals)
    assert seen == expect


def test_the_same_scenarios_on_micropython():
    proc = run_mp(code=DRIVER, stdin=json.dumps(SCENARIOS) + "\n")
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == len(SCENARIOS)
    for (name, preset, options, deals, expect), (mp_name, seen, next_deal, drawn) in zip(SCENARIOS, lines):
        game, _ = play(preset, options, deals)
        assert mp_name == name
        assert [tuple(s) for s in seen] == expect, name
        assert (next_deal, drawn) == (game.round_deal(), game.drawn), name


def test_a_draw_says_so():
    game, _ = play("classic2000", {"deals": 2}, [NS_100, EW_100])
    assert game.drawn and game.winner is None and game.total == {"NS": 260, "EW": 260}
    with pytest.raises(GameError, match="the round is over \\(a draw\\)"):
        game.add(NS_100)


def test_no_deal_after_the_round():
    game, _ = play("classic2000", {"deals": 1}, [NS_100])
    with pytest.raises(GameError, match="game is over \\(NS won\\)"):
        game.add(NS_100)


def test_round_deal_counts_what_home_shows():
    game, _ = play("classic2000", {"deals": 12, "pass_counts": False}, [NS_100, PASS, EW_100])
    assert game.round_deal() == 3  # 2 counted, the next is the third
    game, _ = play("classic2000", {"deals": 12}, [NS_100, PASS, EW_100])
    assert game.round_deal() == 4


def test_undo_of_the_last_deal_reopens_the_round():
    game, _ = play("classic2000", {"deals": 2}, [NS_100, NS_100])
    assert game.over
    game.undo()
    assert not game.over and game.round_deal() == 2


def test_editing_a_deal_into_a_pass_that_does_not_count_keeps_the_round_open():
    game, _ = play("classic2000", {"deals": 2, "pass_counts": False}, [NS_100, EW_100])
    game.replace(0, PASS)
    assert not game.over and game.round_deal() == 2


def test_an_edit_that_would_end_the_round_early_is_refused():
    game, _ = play("classic2000", {"deals": 2, "pass_counts": False}, [PASS, NS_100, EW_100])
    with pytest.raises(GameError, match="already be over after deal 2"):
        game.replace(0, EW_100)  # two counted deals before the third record
    assert game.deals[0]["bid"] == "pass" and game.over


def test_score_next_knows_the_last_deal_of_a_round():
    game, _ = play("classic2000", {"deals": 2, "pass_counts": False}, [NS_100])
    assert game.score_next(PASS)[2] is False
    assert game.score_next(EW_100)[2] is True


def test_round_options_are_kept_in_the_spec():
    rules = Rules("federation", {"deals": 12, "pass_counts": False})
    assert rules.spec() == {"preset": "federation", "options": {"deals": 12, "pass_counts": False}}
    assert Rules.from_spec(rules.spec()) == rules and rules.round_deals == 12
    assert Rules("federation", {"deals": 0, "pass_counts": True}).spec()["options"] == {}


@pytest.mark.parametrize("name,value", [("deals", -1), ("deals", MAX_ROUND_DEALS + 1), ("deals", True),
                                        ("deals", "12"), ("pass_counts", 1), ("pass_counts", "yes")])
def test_bad_round_option_values_name_the_option(name, value):
    with pytest.raises(RulesError) as e:
        Rules("classic2000", {name: value})
    assert e.value.field == name


def test_near_miss_of_a_round_option():
    with pytest.raises(RulesError, match="did you mean 'deals'"):
        Rules("classic2000", {"deal": 12})


def test_command_line_values():
    assert parse_value("deals", "12") == 12
    assert parse_value("pass_counts", "false") is False
    with pytest.raises(RulesError):
        parse_value("deals", "twelve")


def _calculator(args, lines):
    stdin = "".join(json.dumps(rec) + "\n" for rec in lines)
    return subprocess.run([sys.executable, "-m", "host_tools.score"] + args, input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_calculator_plays_a_round_of_two_deals_to_a_draw():
    proc = _calculator(["--rules", "classic2000", "--set", "deals=2"], [NS_100, EW_100])
    last = json.loads(proc.stdout.splitlines()[-1])
    assert proc.returncode == 0 and last["over"] is True and last["winner"] == "draw"


def test_calculator_refuses_a_deal_after_the_round():
    proc = _calculator(["--rules", "classic2000", "--set", "deals=1"], [NS_100, NS_100])
    assert proc.returncode == 2 and "line 2: deal: the game is over (NS won)" in proc.stderr


def test_calculator_on_micropython_gives_the_same_bytes():
    stdin = "".join(json.dumps(rec) + "\n" for rec in [NS_100, PASS, EW_100])
    args = ["--rules", "classic2000", "--set", "deals=2", "--set", "pass_counts=false"]
    mp = run_mp(script="host_tools/score.py", args=args, stdin=stdin)
    cp = _calculator(args, [NS_100, PASS, EW_100])
    assert mp.stdout == cp.stdout and '"winner": "draw"' in mp.stdout


def test_key_planner_accepts_round_options_and_stops_at_the_end():
    args = [sys.executable, "-m", "host_tools.calculator.keys", "--rules", "classic2000", "--set", "deals=1"]
    ok = subprocess.run(args, input=json.dumps(NS_100) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert ok.returncode == 0 and "# deal 1:" in ok.stdout
    two = "".join(json.dumps(NS_100) + "\n" for _ in range(2))
    bad = subprocess.run(args, input=two, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "line 2" in bad.stderr and "over" in bad.stderr
