"""Whole games through the real firmware: corpus records -> key planner -> simulator.

For every preset (and federation to 700) the deal records of tests/ui_corpus.py
are turned into button presses by host_tools/calculator/keys.py, pressed on the firmware
running headless on the MicroPython unix port, and the device's final state
(totals, end, winner, the deals it stored) must equal what the scoring core
coinche.game.Game says for the same records. A held-out corpus (another seed)
runs the same check (`make test` plays a sixth of each corpus, a different sixth each
run: tests/sweep.py). Undo (home BACK, OK), deleting and editing a past deal via
History are checked against Game as well.

Presses per deal are printed (pytest -s) and written to
$UI_PRESSES_OUT (default: .pytest_cache/ui_presses.json).
"""
import json
import os

import pytest

import sweep
import ui_corpus
from coinche import melds
from coinche.game import Game
from coinche.record import validate
from coinche.rules import Rules
from conftest import ROOT
from host_tools.calculator import keys as planner
from host_tools.sim import Sim
from table import draft

PRESSES = {}  # label -> [presses per deal], filled by the corpus tests


def canonical(rules, rec):
    return planner.canonical(rules, rec)


def same_melds_outcome(a, b):
    """Two canonical records that differ at most in an explicit melds_to equal to the engine's."""
    a, b = dict(a), dict(b)
    a.pop("melds_to", None)
    b.pop("melds_to", None)
    return a == b


def check_state(rules, st, records):
    """The device state against Game for the same records."""
    g = Game(rules, records)
    assert len(st["deals"]) == len(records)
    dev = Game(rules, st["deals"])  # what the device stored scores as the corpus does, deal by deal
    for i, (rec, stored) in enumerate(zip(records, st["deals"])):
        assert dev.results[i].score == g.results[i].score, (i + 1, rec, stored)
        want = canonical(rules, rec)
        assert stored == want or same_melds_outcome(stored, want), (i + 1, rec, stored)
    assert st["total"] == g.total
    assert st["over"] == g.over
    assert st["winner"] == g.winner
    if g.over:
        assert st["screen"] == "gameover"
    return g


def play(preset, options, records, **kw):
    """Plan and press records on a fresh device; returns (state, presses per deal)."""
    rules = Rules(preset, options)
    lines, counts = planner.plan(rules, records)
    with Sim(rules=preset, target=options.get("target"), **kw) as sim:
        sim.run_script(lines)
        st = sim.state()
    return st, counts


def _ids(corpus):
    seen = {}
    out = []
    for label, _, _, _ in corpus:
        seen[label] = seen.get(label, 0) + 1
        out.append("%s-%d" % (label, seen[label]))
    return out


TUNING = ui_corpus.games(ui_corpus.SEED_TUNING, 150)
HELD_OUT = ui_corpus.games(ui_corpus.SEED_HELD_OUT, 100)
# each game is a device of its own: `make test` plays every GAME_STRIDE-th of each corpus,
# from the run's offset, `make test-full` every game (tests/sweep.py)
GAME_STRIDE = 6


@pytest.mark.parametrize("game", sweep.take(TUNING, GAME_STRIDE), ids=sweep.take(_ids(TUNING), GAME_STRIDE))
def test_corpus_game(game):
    label, preset, options, records = game
    st, counts = play(preset, options, records)
    check_state(Rules(preset, options), st, records)
    PRESSES.setdefault(label, []).extend(counts)


@pytest.mark.parametrize("game", sweep.take(HELD_OUT, GAME_STRIDE), ids=sweep.take(_ids(HELD_OUT), GAME_STRIDE))
def test_held_out_game(game):
    label, preset, options, records = game
    st, counts = play(preset, options, records)
    check_state(Rules(preset, options), st, records)
    PRESSES.setdefault(label + " (held-out)", []).extend(counts)


def test_corpus_is_varied():
    """The corpus holds what it claims; otherwise the games above prove little."""
    tot = {}
    for _label, preset, options, records in TUNING:
        for k, v in ui_corpus.stats(records, Rules(preset, options)).items():
            tot.setdefault(preset, {}).setdefault(k, 0)
            tot[preset][k] += v
    for preset, c in tot.items():
        n = c["deals"]
        assert c["pass"] and c["coinche"] and c["failed"] and c["capot_bid"] and c["all_tricks"], (preset, c)
        assert 0.15 <= c["belote"] / n <= 0.4, (preset, c)
        assert c["failed"] < n / 2, (preset, c)
        if preset != "classic2000":
            assert c["melds"] and c["NT"] and c["AT"], (preset, c)
    assert tot["federation"]["melds_to"] and tot["federation"]["generale_bid"]
    assert tot["coinche1001"]["generale_bid"]
    assert sum(g[0] == "federation700" for g in TUNING) and all(len(g[3]) for g in TUNING)


def test_presses_per_deal_report():
    """Average / max presses per deal per preset (runs after the corpus tests)."""
    if not PRESSES:
        pytest.skip("corpus games not run in this session")
    report = {}
    for label in sorted(PRESSES):
        c = PRESSES[label]
        report[label] = {"deals": len(c), "avg": round(sum(c) / len(c), 2), "max": max(c)}
    allc = [k for c in PRESSES.values() for k in c]
    report["all"] = {"deals": len(allc), "avg": round(sum(allc) / len(allc), 2), "max": max(allc)}
    print()
    for label, r in report.items():
        print("presses per deal  %-26s deals %4d  avg %5.2f  max %3d" % (label, r["deals"], r["avg"], r["max"]))
    out = os.environ.get("UI_PRESSES_OUT") or os.path.join(ROOT, ".pytest_cache", "ui_presses.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    # a budget for a usable scoreboard, not a copy of today's figures:
    # an all-pass deal is 2 presses, a typical deal must stay well under 20
    assert report["all"]["avg"] <= 16
    assert report["all"]["max"] <= 40


# ------------------------------------------------------------------ undo, delete, edit

def _plan_into(rules, game, rec):
    ev = planner.plan_deal(rules, game, rec)
    game.add(rec)
    return ev


def test_undo_on_home_and_from_menu():
    label, preset, options, records = ui_corpus.games(ui_corpus.SEED_TUNING, 1, [ui_corpus.CONFIGS[0]])[0]
    rules = Rules(preset, options)
    base = records[:5]
    extra = records[5]
    with Sim(rules=preset) as sim:
        sim.run_script(["back"])  # nothing to undo yet: a message, nothing changes
        st = sim.state()
        assert st["deals"] == [] and st["screen"] == "home"
        g = Game(rules)
        for rec in base:
            sim.run_script(_plan_into(rules, g, rec))
        sim.run_script(_plan_into(rules, g, extra))
        assert len(sim.state()["deals"]) == 6
        # home BACK asks, BACK again says no
        sim.run_script(["back"])
        assert sim.state()["screen"] == "ask"
        sim.run_script(["back"])
        st = sim.state()
        assert st["screen"] == "home" and len(st["deals"]) == 6
        # home BACK, OK: the last deal goes
        sim.run_script(["back", "ok"])
        st = sim.state()
        check_state(rules, st, base)
        assert st["screen"] == "home"
        # menu > undo (third item), OK
        sim.run_script(["ok", "down", "down", "ok", "ok"])
        check_state(rules, sim.state(), base[:4])
        # the game goes on from there: the planner's defaults follow the device's
        g = Game(rules, base[:4])
        for rec in records[4:]:
            sim.run_script(_plan_into(rules, g, rec))
        check_state(rules, sim.state(), base[:4] + records[4:])


def _history_to(n_deals, i, over=False):
    """From home: menu > History (opens on the last deal) > deal i > its menu.
    From the game-over screen UP opens History directly."""
    up = n_deals - 1 - i
    return (["up"] if over else ["ok", "down", "ok"]) + planner.moves("up", up) + ["ok"]


def plan_edit(rules, old, new):
    """Keys from the deal menu's first item (Edit) that turn deal `old` into `new`.

    Walks a Draft loaded from `old`, as the device does, with the planner's
    helpers for the shared steps."""
    new = validate(rules, new)
    d = draft.Draft(rules, record=validate(rules, old))
    ev = ["ok"]  # Edit
    # taker
    if new["bid"] != "pass" and new["taker"] != d.taker:
        ev.append("up" if new["taker"] == "NS" else "down")
        d.taker = new["taker"]
    else:
        ev.append("ok")
    items = d.bid_items()
    mv = planner.wrap_moves(items.index(d.bid), items.index(new["bid"]), len(items))
    if mv:
        ev += mv
        was = d.bid
        d.bid = new["bid"]
        # an edited deal keeps its card points across numeric bids (the device does too)
        if not isinstance(was, int) or not isinstance(d.bid, int):
            d.tens = d.default_tens()
            d.units = 0
    if new["bid"] == "pass":
        return ev + ["ok", "ok"]
    # held OK on the contract cycles its type from the one loaded, held BACK the coinche
    kinds = d.kinds()
    want = new["trump"] if new["trump"] in ("NT", "AT") else "suit"
    ev += ["hold ok 700"] * ((kinds.index(want) - kinds.index(d.kind)) % len(kinds))
    d.kind = want
    if len(d.coinche_items()) > 1:
        ev += ["hold back 700"] * ((new.get("coinche", 0) - d.coinche) % 3)
        d.coinche = new.get("coinche", 0)
    ev.append("ok")
    ev += planner._points_events(d, new)
    # the confirm step: each team's picker (held OK: NS, held BACK: EW) removes what
    # the new record does not have and adds what it lacks
    bel = new.get("belote") or {}
    want = new.get("melds") or {}
    changed = []
    for team in ("NS", "EW"):  # first every team's removals: a belote of one team leaves room for the other's
        wanted = [draft.BELOTE] * bel.get(team, 0) + list(want.get(team, ()))
        have = [draft.BELOTE] * d.belote[0 if team == "NS" else 1] + list(d.melds[team])
        if wanted == have:
            continue
        changed.append((team, wanted))
        while have:  # remove everything, then add in order (melds keep their order)
            it = draft.REMOVE_BELOTE if have[0] == draft.BELOTE else 0  # the only announce: the hold toggles it
            ev += planner.announce_events(d, team, it)[0]
            d.announce(team, it)
            have = [draft.BELOTE] * d.belote[0 if team == "NS" else 1] + list(d.melds[team])
    for team, wanted in changed:
        for it in wanted:
            ev += planner.announce_events(d, team, it)[0]
            d.announce(team, it)
    if rules.has_melds() and d.needs_melds_to():
        # the device cannot go back to "the engine decides": pick whom it would pick
        to = new.get("melds_to", melds.winner(d.melds, d.trump(), rules["carre_nt"]))
        if d.melds_to == "auto":
            ev += ["ok", {"NS": "up", "EW": "down"}.get(to, "ok")]  # OK asks first
        elif to != d.melds_to:  # loaded answer to change: the picker's "best melds?"
            ev += planner.announce_events(d, "NS", draft.BEST)[0]
            ev.append({"NS": "up", "EW": "down"}.get(to, "hold ok 700"))  # held OK is nobody
    ev.append("ok")  # confirm: save
    if planner.capot_question(d):
        ev.append(planner.capot_answer(new))  # "Capot?": OK a capot entered as 162 or 0, BACK the points
    return ev


EDITS = [
    # (config index, deal edited, new record); the rest of the game is corpus deals
    (0, 2, {"taker": "EW", "bid": 110, "trump": "S", "coinche": 2, "points": 127, "belote": {"EW": 1}}),
    (0, 1, {"taker": "NS", "bid": "capot", "trump": "suit", "points": 162, "tricks": 8}),
    (1, 0, {"taker": "NS", "bid": 90, "trump": "AT", "points": 75,
            "belote": {"NS": 1, "EW": 1}, "melds": {"NS": ["tierce"], "EW": ["tierce"]}, "melds_to": "EW"}),
    (1, 3, {"bid": "pass"}),
    (2, 3, {"taker": "EW", "bid": 100, "trump": "NT", "coinche": 0, "points": 99,
            "melds": {"NS": [], "EW": ["carre_9", "quarte"]}}),
    (3, 0, {"taker": "NS", "bid": 80, "trump": "C", "coinche": 1, "points": 0, "tricks": 0}),
    (4, 3, {"taker": "EW", "bid": "generale", "trump": "D", "points": 140}),  # ends the game
]


def _base_game(cfg, n=4):
    """The first n deals of the first corpus game of config cfg that runs longer."""
    for _label, preset, options, records in ui_corpus.games(ui_corpus.SEED_TUNING, 60, [ui_corpus.CONFIGS[cfg]]):
        if len(records) > n:
            return preset, options, records[:n]
    raise AssertionError("no long enough game")


@pytest.mark.parametrize("cfg,i,new", EDITS)
def test_edit_past_deal_via_history(cfg, i, new):
    preset, options, keep = _base_game(cfg)
    rules = Rules(preset, options)
    edited = list(keep)
    edited[i] = new
    over = Game(rules, edited).over  # the edit leaves a valid game (else Game raises)
    with Sim(rules=preset, target=options.get("target")) as sim:
        lines, _ = planner.plan(rules, keep)
        sim.run_script(lines)
        check_state(rules, sim.state(), keep)
        sim.run_script(_history_to(len(keep), i))
        assert sim.state()["screen"] == "deal"
        sim.run_script(plan_edit(rules, keep[i], new))
        st = sim.state()
        assert st["screen"] == ("gameover" if over else "history")  # the edit returns to the history
        check_state(rules, st, edited)
        # editing it back restores the original deal and totals (and reopens a game it had ended);
        # the history is open on the deal edited
        sim.run_script((_history_to(len(keep), i, over) if over else ["ok"]) + plan_edit(rules, new, keep[i]))
        st = sim.state()
        check_state(rules, st, keep)
        assert st["screen"] == "history"


def test_delete_past_deal_via_history():
    preset, options, keep = _base_game(1, 5)
    rules = Rules(preset, options)
    with Sim(rules=preset) as sim:
        sim.run_script(planner.plan(rules, keep)[0])
        # deal 2 > its menu > Delete (second item) > ask: BACK keeps it
        sim.run_script(_history_to(5, 1) + ["down", "ok"])
        assert sim.state()["screen"] == "ask"
        sim.run_script(["back"])
        st = sim.state()
        assert st["screen"] == "deal" and len(st["deals"]) == 5
        sim.run_script(["ok"])  # the highlight is still on Delete
        sim.run_script(["ok"])
        st = sim.state()
        check_state(rules, st, keep[:1] + keep[2:])
        assert st["screen"] == "history"


def test_edit_that_would_end_the_game_early_is_refused():
    """A past deal edited into a game-ending one would orphan the deals after it:
    the confirm step shows the error and OK saves nothing."""
    preset = "classic2000"
    rules = Rules(preset)
    fail = {"taker": "NS", "bid": 160, "trump": "H", "points": 10, "coinche": 1}  # EW +480
    small = {"taker": "NS", "bid": 80, "trump": "H", "points": 90}  # EW +70
    keep = [fail, fail, fail, small, small]
    big = dict(fail, coinche=2)  # EW +800: 2240 after deal 4, over before deal 5
    assert not Game(rules, keep).over
    assert Game(rules, keep[:3] + [big]).over
    with Sim(rules=preset) as sim:
        sim.run_script(planner.plan(rules, keep)[0])
        sim.run_script(_history_to(5, 3) + plan_edit(rules, small, big))
        st = sim.state()
        assert st["screen"] == "entry-confirm"
        check_state(rules, st, keep)
        steps = draft.Draft(rules, record=big).steps()
        assert steps[0] == draft.S_TAKER and steps[-1] == draft.S_CONFIRM
        # BACK walks out of the edit step by step (the check step's shows the tens first), nothing saved
        sim.run_script(["back"] * (len(steps) + 1))
        st = sim.state()
        assert st["screen"] == "deal"
        check_state(rules, st, keep)


def test_game_survives_a_restart(tmp_path):
    """Undo and edit go to the journal: a device restarted on the same flash shows the same game."""
    preset, options, keep = _base_game(1, 4)
    rules = Rules(preset, options)
    flash = str(tmp_path / "flash.img")
    new = {"taker": "EW", "bid": 80, "trump": "NT", "points": 81}
    with Sim(rules=preset, flash=flash) as sim:
        sim.run_script(planner.plan(rules, keep)[0])
        sim.run_script(["back", "ok"])  # undo deal 4
        sim.run_script(_history_to(3, 1) + plan_edit(rules, keep[1], new))
        before = sim.state()
    want = [keep[0], new, keep[2]]
    check_state(rules, before, want)
    with Sim(flash=flash) as sim:  # no --rules: the journal decides
        after = sim.state()
    assert before["screen"] == "history" and after["screen"] == "home"  # the edit returned to the history
    assert dict(after, screen=None) == dict(before, screen=None)


# ------------------------------------------------------------------ leftovers from an earlier choice

def test_belote_left_from_a_suit_does_not_block_an_nt_deal():
    with Sim(rules="federation") as sim:
        # NS 80 at a suit, on the confirm step the NS picker (held OK) adds a belote (UP)
        sim.run_script(["up", "ok", "hold ok 700", "up"])
        assert sim.state()["screen"] == "entry-confirm"
        # ... then back to the contract (through the tens): it was no trump (held OK)
        sim.run_script(["back", "back", "hold ok 700", "ok"])
        assert sim.state()["screen"] == "entry-confirm"
        sim.run_script(["ok"])  # the confirm step names the field at fault and saves nothing
        assert sim.state()["screen"] == "entry-confirm" and not sim.state()["deals"]
        # the NS picker's list of the others ends with the belote's removal (no belote at NT)
        sim.run_script(["hold ok 700", "ok", "up", "ok", "ok"])
        st = sim.state()
    assert st["screen"] == "home" and len(st["deals"]) == 1
    assert st["deals"][0]["trump"] == "NT" and "belote" not in st["deals"][0]


def test_coinche_left_from_a_numeric_bid_does_not_block_a_capot_bid():
    """A coinche set (held BACK) on 80 does not apply to a capot bid where the preset
    forbids it; a held BACK on that bid says so."""
    with Sim(rules="classic2000") as sim:
        sim.run_script(["up", "hold back 700", "ok"])  # NS 80 x2
        st = sim.state()
        assert st["screen"] == "entry-confirm"
        sim.run_script(["back", "back", "down", "down", "hold back 700"])  # bid: 80 -> pass -> capot
        assert sim.state()["screen"] == "entry-bid"
        sim.run_script(["wait 1600", "ok", "ok"])
        st = sim.state()
    assert st["screen"] == "home" and len(st["deals"]) == 1
    assert st["deals"][0]["bid"] == "capot" and st["deals"][0]["coinche"] == 0


# ------------------------------------------------------------------ team names

def test_team_names_are_journaled_and_shown(tmp_path):
    """Settings > Teams: NS becomes "Nous", EW "Eux" (the French pair, first in the list);
    a restart on the same flash keeps them; back to NS/EW is the list's first row."""
    flash = str(tmp_path / "flash.img")
    to_teams = ["ok", "down", "down", "down", "ok", "up", "ok"]  # menu > settings > teams (last row)
    with Sim(rules="classic2000", flash=flash) as sim:
        sim.run_script(to_teams + ["ok", "up", "ok", "down", "ok", "up", "up", "ok", "back", "back", "back"])
        st = sim.state()
        assert st["screen"] == "home" and st["settings"]["names"] == {"NS": "Nous", "EW": "Eux"}
    with Sim(flash=flash) as sim:
        assert sim.state()["settings"]["names"] == {"NS": "Nous", "EW": "Eux"}
        sim.run_script(to_teams + ["ok", "down", "ok", "back", "back", "back"])  # NS: DOWN from "Nous" is NS again
        st = sim.state()
    assert st["settings"]["names"] == {"EW": "Eux"}
