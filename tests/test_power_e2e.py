"""Power cuts with the firmware booting ("never lose a game", end to end).

A whole game is pressed on the real App through its button path (key planner
scripts, the real debouncer) on the MicroPython unix port, on a littlefs that
records every program and erase (host_tools/rigs/device_side/cutdev.py). Then, in the same
micropython process, for every operation k of that log, stopped and torn, the
medium a power cut at k leaves is mounted and a new App boots on it (every k
with `make test-full`, every STRIDE-th with `make test`: tests/sweep.py)
(tests/mp/power_e2e.py): it must open on the home screen (or game over) with the
state after the last confirmed action or the one before it, and, for a sample
of k, one more deal entered with the same presses must give the same screens,
frames and result as on a device that never stopped. When a boot itself
writes (it finishes the clean-up a cut left), each of those writes is cut too.

The game: 22+ deals of federation (corpus records from tests/ui_corpus.py),
a language change, a first-dealer change for the next game, an undo (home
BACK, OK) and an undo declined, a correction of the next dealer (menu), an edit and a delete via History, the game
played to its end, a new game from the game-over screen, two more deals.
"""
import json
import os
import random

import pytest

import sweep
import ui_corpus
from coinche.game import Game
from coinche.record import validate
from coinche.rules import Rules
from conftest import ROOT, run_mp
from host_tools.calculator import keys as planner
from table import draft

SCRIPT = os.path.join(ROOT, "tests", "mp", "power_e2e.py")
MENU = ("m_pass", "m_history", "m_undo", "m_settings", "m_chart", "m_stats", "m_dealer", "m_end", "m_new", "m_concours",
        "m_games")  # screens/menu.py Menu.ITEMS
SETTINGS = ("s_preset", "s_target", "s_options", "s_first", "s_lang", "s_contrast", "s_dim", "s_dir")


def menu_to(item):
    """From home: the menu, then down to item (the list starts on its first row)."""
    return ["ok"] + ["down"] * MENU.index(item) + ["ok"]


def settings_to(key):
    return menu_to("m_settings") + ["down"] * SETTINGS.index(key) + ["ok"]


def history_to(n_deals, i):
    """From home: History (opens on the last deal), up to deal i, its menu."""
    return menu_to("m_history") + planner.moves("up", n_deals - 1 - i) + ["ok"]


def plan_points_edit(rules, old):
    """Keys from the deal menu (on Edit) that add 10 card points for the takers,
    keeping everything else; and the record that results. Walks the firmware's
    own Draft steps, so a new step shows up as a key planned for it."""
    d = draft.Draft(rules, record=validate(rules, old))
    ev = ["ok"]  # Edit
    for step in d.steps():
        if step == draft.S_CONFIRM:  # BACK: the card points by tens, one up, OK back here; save
            ev += ["back", "up", "ok", "ok"]
            d.tens += 1
        elif step in (draft.S_TAKER, draft.S_BID):
            ev.append("ok")
        else:
            raise AssertionError("no key planned for step %r" % step)
    return ev, validate(rules, d.record())


def build_game(preset, seed, deals_before_end=22):
    """(script lines, what the script does) for the scenario in the module docstring."""
    rules = Rules(preset)
    rnd = random.Random("power-e2e/%d" % seed)
    game = Game(rules)
    lines = []
    done = []

    def add(rec):
        lines.extend(planner.plan_deal(rules, game, rec))
        game.add(rec)

    def fresh_deal(may_end):
        while True:
            rec = ui_corpus.gen_deal(rules, rnd)
            trial = Game(rules, list(game.deals) + [rec])
            if may_end or not trial.over:
                return rec

    for _ in range(8):
        add(fresh_deal(False))
    # the language: menu > settings > language > UP (fr -> en) > OK, then BACK to the menu, BACK home
    lines += settings_to("s_lang") + ["up", "ok", "back", "back"]
    done.append("lang")
    for _ in range(6):
        add(fresh_deal(False))
    # the first dealer of the next game (this one has deals: only the setting is written)
    lines += settings_to("s_first") + ["up", "ok", "back", "back"]
    done.append("dealer W next game")
    # undo on home: BACK, OK; then BACK, BACK (asked, declined: nothing written)
    last = game.deals[-1]
    lines += ["back", "ok", "back", "back"]
    game = Game(rules, game.deals[:-1])
    done.append("undo")
    add(last)  # the player enters it again
    # the next dealer corrected during the game (a journaled "dealer" action): one UP in the order
    seats = ("N", "W", "S", "E")
    fixed = seats[(seats.index(game.dealer()) + 1) % 4]
    lines += menu_to("m_dealer") + ["up", "ok"]
    game.fixes = game.with_fix(fixed)
    done.append("next dealer %s" % fixed)
    # edit a past deal via History: 10 more card points for the takers
    stored = [canonical(rules, d) for d in game.deals]  # what the device holds
    n = len(stored)
    i = next(j for j in range(n - 2, -1, -1)
             if isinstance(stored[j]["bid"], int) and 20 <= stored[j]["points"] <= 140
             and "melds" not in stored[j] and "melds_to" not in stored[j]
             and not Game(rules, stored[:j] + [plan_points_edit(rules, stored[j])[1]] + stored[j + 1:]).over)
    keys, new = plan_points_edit(rules, stored[i])
    lines += history_to(n, i) + keys + ["back"]  # the edit returns to the history: BACK home
    deals = list(game.deals)
    deals[i] = new
    game = Game(rules, deals, "N", "acw", game.fixes)
    done.append("edit %d" % i)
    # delete a past deal via History: its menu, Delete, OK; BACK from History to home
    j = 2
    lines += history_to(len(game.deals), j) + ["down", "ok", "ok", "back"]
    deals = list(game.deals)
    del deals[j]
    game = Game(rules, deals, "N", "acw", game.fixes)
    done.append("delete %d" % j)
    while len(game.deals) < deals_before_end:
        add(fresh_deal(False))
    while not game.over:
        add(fresh_deal(True))
    first_game = list(game.deals)
    # game over: OK starts a new game with the same rules, West deals first
    lines += ["ok"]
    game = Game(rules, (), "W")
    for _ in range(2):
        add(fresh_deal(False))
    return lines, {"done": done, "first_game": first_game, "second_game": list(game.deals), "rules": rules}


def probe_for(preset):
    """One more deal, the same presses on a booted and on an uncut device: EW took,
    the contract two above the default (80), coinched (held BACK), 10 more card
    points than the default (the contract), 3 fewer units (on the check step)."""
    return ["down", "hold up %d" % planner.hold_for(2), "hold back %d" % planner.LONG_HOLD, "ok", "up", "ok",
            "hold down %d" % planner.hold_for(3), "ok"]


STRIDE = 6


def run_e2e(tmp_path, preset, lines, blocks=352, probe_every=1, quick_stride=STRIDE):
    cfg = {"defaults": {"rules": preset}, "script": lines, "probe": probe_for(preset), "probe_every": probe_every,
           "blocks": blocks, "stride": sweep.stride(quick_stride), "start": sweep.start(quick_stride)}
    path = tmp_path / "e2e.json"
    path.write_text(json.dumps(cfg))
    proc = run_mp(script=SCRIPT, args=[str(path)], heapsize="64M")
    out = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert out, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out[-1])


def canonical(rules, rec):
    return planner.canonical(rules, rec)


def same_deals(rules, stored, records):
    if len(stored) != len(records):
        return False
    for s, rec in zip(stored, records):
        want = canonical(rules, rec)
        a, b = dict(s), dict(want)
        a.pop("melds_to", None)
        b.pop("melds_to", None)
        if a != b:
            return False
    return True


# (preset, seed, blocks): 352 blocks is the Pico; on 40 littlefs reuses blocks sooner
CASES = [("federation", 11, 352), ("federation", 12, 40), ("classic2000", 13, 352)]


@pytest.fixture(scope="module", params=CASES, ids=["%s-%d-%dblocks" % c for c in CASES])
def e2e(request, tmp_path_factory):
    preset, seed, blocks = request.param
    lines, info = build_game(preset, seed)
    r = run_e2e(tmp_path_factory.mktemp("e2e"), preset, lines, blocks)
    return lines, info, r


def test_every_cut_boots_the_last_confirmed_state(e2e):
    _lines, _info, r = e2e
    assert r["failures"] == 0, "\n".join(r["first"])
    # every sampled k, stopped and torn, plus the uncut end, each booted a new App
    assert r["cuts"] == len(range(sweep.start(STRIDE), r["ops"], sweep.stride(STRIDE))) + 1
    assert r["boots"] == 2 * r["cuts"] - 1
    # some boots wrote (finishing the clean-up of a cut "new"); each of those writes was cut too
    assert r["boot_writes"] > 0 and r["nested"] > 0
    # the cuts hit both sides of the commit points, and littlefs erased blocks during the game
    # (a sixth of them in a sample of every sixth cut)
    assert r["got_before"] > 20 // sweep.stride(STRIDE) and r["got_after"] > 10 // sweep.stride(STRIDE)
    assert r["erases"] > 0


def test_the_recorded_run_is_the_game_the_scenario_describes(e2e):
    lines, info, r = e2e
    rules = info["rules"]
    states = r["states"]
    kinds = []
    for prev, st in zip(states, states[1:]):
        pd, d = prev["deals"], st["deals"]
        if st["settings"] != prev["settings"]:
            kinds.append("set")
        elif st["archive"] != prev["archive"] or (not d and pd):
            kinds.append("new")
        elif len(d) == len(pd) + 1:
            kinds.append("add")
        elif len(d) == len(pd) - 1:
            kinds.append("del")
        elif st["fixes"] != prev["fixes"]:
            kinds.append("dealer")
        elif len(d) == len(pd):
            kinds.append("edit")
    assert len(kinds) == len(states) - 1
    assert kinds.count("set") == 2 and kinds.count("new") == 1 and kinds.count("edit") == 1, kinds
    assert kinds.count("dealer") == 1, kinds  # the correction, journaled like any other action
    assert kinds.count("del") == 2, kinds  # the undo and the delete via History
    # every state scores as the core says
    for st in states:
        g = Game(Rules.from_spec(st["rules"]), st["deals"], st["dealer"], st["order"], st["fixes"])
        assert st["total"] == g.total and st["over"] == g.over and st["winner"] == g.winner
        assert st["next_dealer"] == g.dealer()
    fixed = [st for st in states if st["fixes"]]
    assert fixed and fixed[0]["next_dealer"] == info["done"][[k.startswith("next dealer") for k in info["done"]]
                                                              .index(True)][-1]
    # the first game: 20+ deals, to its end, archived with its totals
    archived = states[-1]["archive"]
    assert len(archived) == 1 and archived[0]["n"] == len(info["first_game"]) >= 20
    over = [st for st in states if st["over"]]
    assert over and same_deals(rules, over[-1]["deals"], info["first_game"])
    assert archived[0]["result"]["NS"] == over[-1]["total"]["NS"]
    assert archived[0]["result"]["EW"] == over[-1]["total"]["EW"]
    # English from the 2nd action on; the new game is dealt first by West
    final = states[-1]
    assert final["settings"]["lang"] == "en" and final["settings"]["dealer"] == "W" and final["dealer"] == "W"
    assert same_deals(rules, final["deals"], info["second_game"])
    assert r["final_screen"] == "home"


def test_a_booted_device_behaves_as_if_it_never_stopped(e2e):
    _lines, _info, r = e2e
    assert r["failures"] == 0, "\n".join(r["first"])
    assert r["probes"] == r["boots"]
    # the probe is a real deal (game-over states save none) ...
    assert r["probes_saved"] > r["probes"] // 2
    # ... and sees the state: most states give their own screens
    assert r["distinct_traces"] > r["references"] // 2


def test_first_dealer_change_on_a_new_game_is_all_or_nothing(tmp_path):
    """A fresh game, no deal yet: settings > first dealer > West, OK (the change
    applies to this game at once), then one deal. Every cut: before or after."""
    preset = "federation"
    rules = Rules(preset)
    lines = settings_to("s_first") + ["up", "ok", "back", "back"]
    lines += planner.plan_deal(rules, Game(rules), {"taker": "NS", "bid": 100, "trump": "H", "points": 110})
    r = run_e2e(tmp_path, preset, lines, quick_stride=1)  # a short game: every cut
    assert r["actions"] == 3
    assert r["failures"] == 0, "\n".join(r["first"])
