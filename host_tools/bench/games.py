"""The games the bench plays: realistic deal records (tests/ui_corpus.py, else a small
fallback) turned into key scripts by the key planner, played in the simulator."""
import importlib.util
import json
import os
import random
import sys

from coinche.rules import Rules

from host_tools.bench.budgets import CORPUS_DEALS, CORPUS_SEED, GAME_DEALS, GAME_SEED, GAME_TARGET, PRESETS
from host_tools.bench.programs import traceback_tail
from host_tools.bench.tree import environment, launcher
from host_tools.calculator import keys
from host_tools.common.paths import BENCH_DEVICE, ROOT, TESTS
from host_tools.sim.client import Sim, SimError


def corpus():
    """tests/ui_corpus.py, the realistic deals of the UI tests, loaded from its file (None
    without it: the bench then plays small_deal()'s)."""
    path = os.path.join(TESTS, "ui_corpus.py")
    if not os.path.exists(path):
        return None
    if "ui_corpus" not in sys.modules:
        spec = importlib.util.spec_from_file_location("ui_corpus", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["ui_corpus"] = module
    return sys.modules["ui_corpus"]


def small_deal(rules, rnd):
    """A plain valid deal, used only when tests/ui_corpus.py is absent."""
    if rnd.random() < 0.07:
        return {"bid": "pass"}
    bid = rnd.choice((80, 80, 90, 90, 100, 110, 120, 130, 140))
    rec = {"taker": rnd.choice(("NS", "EW")), "bid": bid, "trump": rnd.choice(("S", "H", "D", "C")),
           "coinche": 1 if rnd.random() < 0.1 else 0,
           "points": max(10, min(152, int(rnd.gauss(bid + 8, 19))))}
    if rnd.random() < 0.25:
        rec["belote"] = {rec["taker"]: 1}
    return rec


def deal_source():
    """(name, gen_deal(rules, rnd)): tests/ui_corpus.py's realistic deals, else a small fallback."""
    c = corpus()
    if c is not None:
        return "tests/ui_corpus.py", c.gen_deal
    return "host_tools/bench/games.py fallback", small_deal


def bench_game(preset, deals=GAME_DEALS):
    """(rules, records, script lines, presses per deal): the scripted game of figures 1-3."""
    rules = Rules(preset, {"target": GAME_TARGET})
    _, gen = deal_source()
    rnd = random.Random("%s/%s" % (GAME_SEED, preset))
    recs = [gen(rules, rnd) for _ in range(deals)]
    lines, counts = keys.plan(rules, recs)
    return rules, recs, lines, counts


def run_game(lines, preset, heapsize=None, board="sim", tree=None, bench_app=False, env=None):
    """Play a script in the simulator. Returns (state or None, error text, [bench reports])."""
    app = os.path.join(tree or ROOT, os.path.relpath(BENCH_DEVICE, ROOT), "bench_app.py") if bench_app else None
    reports = []
    try:
        with environment(env):
            sim = Sim(board=board, rules=preset, target=GAME_TARGET, heapsize=heapsize, app=app, timeout=120,
                      main_script=launcher(tree))
        with sim:
            if bench_app:
                sim.state()
            sim.run_script(lines)
            st = sim.state()
            reports = [json.loads(x[6:]) for x in sim.log if x.startswith("bench ")]
        return st, None, reports
    except SimError as e:
        return None, traceback_tail(str(e), 4), reports


def completes(lines, preset, heapsize, tree, deals=GAME_DEALS):
    """(True, None) if the game runs to its end with all its deals saved, else (False, why)."""
    st, err, _ = run_game(lines, preset, heapsize, tree=tree)
    if st is None:
        return False, err
    if len(st["deals"]) != deals:
        return False, "only %d of %d deals saved" % (len(st["deals"]), deals)
    return True, None


def presses_per_deal():
    """(source, {label: (deals, average, max)}) over whole games, about CORPUS_DEALS deals per configuration."""
    c = corpus()
    out = {}
    if c is not None:
        import inspect

        params = list(inspect.signature(c.games).parameters)
        if len(params) > 1 and params[1] == "min_deals":
            games = c.games(CORPUS_SEED, CORPUS_DEALS)
            source = "tests/ui_corpus.py, seed %d, whole games until %d deals per configuration" % (
                CORPUS_SEED, CORPUS_DEALS)
        else:
            games = c.games(CORPUS_SEED, CORPUS_DEALS // 15)
            source = "tests/ui_corpus.py, seed %d, %d whole games per configuration" % (CORPUS_SEED, CORPUS_DEALS // 15)
    else:
        games = []
        for preset in PRESETS:
            rules = Rules(preset, {"target": GAME_TARGET})
            rnd = random.Random("%s/%s" % (CORPUS_SEED, preset))
            games.append((preset, preset, {}, [small_deal(rules, rnd) for _ in range(CORPUS_DEALS)]))
        source = "host_tools/bench/games.py fallback deals (tests/ui_corpus.py absent), %d per preset" % CORPUS_DEALS
    secs = {}
    for label, preset, options, records in games:
        times = []
        _, counts = keys.plan(Rules(preset, options), records, times=times)
        out.setdefault(label, []).extend(counts)
        secs.setdefault(label, []).extend(times)
    res = {k: (len(v), sum(v) / len(v), max(v), sum(secs[k]) / len(secs[k])) for k, v in out.items()}
    four = [label for label in out if label in PRESETS]  # the four presets, one configuration each
    n = sum(len(out[k]) for k in four)
    if n:
        res["all four presets"] = (n, sum(sum(out[k]) for k in four) / n, max(max(out[k]) for k in four),
                                   sum(sum(secs[k]) for k in four) / n)
    return source, res
