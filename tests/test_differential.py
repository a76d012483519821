"""CPython and the MicroPython unix port score the same vectors identically.

The vectors (10 000 valid deals per preset, deals under random option
overrides, and invalid records; `make test` draws 3 000 a preset from a seed that
moves with the run's offset, `make test-full` all from the fixed seed: tests/sweep.py)
are generated once into a JSON-lines file;
the same small driver then runs once under each interpreter and the outputs
are compared line by line. The calculator CLI is compared the same way.
"""
import json
import os
import random
import subprocess
import sys

import pytest

import sweep
from conftest import FIRMWARE, ROOT, micropython_path
from coinche.rule_options import OPTIONS, ORDER
from coinche.rules import Rules, RulesError
from vectors import PRESETS, gen_invalid, gen_valid
from test_cli import C2_GAME, FED_GAME  # the games the CPython CLI test plays
from test_cli import text as lines_of  # deals as the calculator reads them: one JSON object a line

N_VALID = sweep.count(10000, 3000)
N_INVALID = sweep.count(1500, 450)
SEED = 20240601 if sweep.FULL else 20240601 + sweep.offset()
N_OVERRIDE_SPECS = 40
N_PER_OVERRIDE = 100

DRIVER = r'''
import sys
import json
sys.path.insert(0, sys.argv[2])
from coinche.rules import Rules
from coinche.record import validate, RecordError
from coinche.scoring import score

f = open(sys.argv[1])
specs = [Rules.from_spec(s) for s in json.loads(f.readline())]
w = sys.stdout.write
for line in f:
    o = json.loads(line)
    rules = specs[o["s"]]
    try:
        r = score(rules, validate(rules, o["d"]))
        w("%s %d %d %s\n" % (r.made, r.score["NS"], r.score["EW"], r.winner))
    except RecordError as e:
        w("E %s | %s\n" % (e.field, e))
f.close()
'''


def random_spec(rnd):
    """A preset plus a few random overrides (any allowed value)."""
    preset = rnd.choice(PRESETS)
    opts = {}
    for name in rnd.sample(list(ORDER), rnd.randint(1, 5)):
        allowed = OPTIONS[name]
        opts[name] = rnd.choice((700, 1500, 5000)) if allowed is None else rnd.choice(allowed)
    try:
        return Rules(preset, opts)
    except RulesError:  # pragma: no cover - every generated value is allowed
        raise


@pytest.fixture(scope="module")
def vectors_file(tmp_path_factory):
    rnd = random.Random(SEED)
    specs, lines, expect_field = [], [], []

    def add(rules, valid, invalid):
        """So many valid and invalid deals under rules (their spec joins specs)."""
        si = len(specs)
        specs.append(rules.spec())
        for _ in range(valid):
            lines.append({"s": si, "d": gen_valid(rules, rnd)})
            expect_field.append(None)
        for _ in range(invalid):
            rec, field = gen_invalid(rules, rnd)
            lines.append({"s": si, "d": rec})
            expect_field.append(field)

    for p in PRESETS:
        add(Rules(p), N_VALID, N_INVALID)
    for _ in range(N_OVERRIDE_SPECS):
        add(random_spec(rnd), N_PER_OVERRIDE, 0)
    d = tmp_path_factory.mktemp("vectors")
    path = str(d / "vectors.jsonl")
    with open(path, "w") as f:
        f.write(json.dumps(specs) + "\n")
        for o in lines:
            f.write(json.dumps(o) + "\n")
    driver = str(d / "driver.py")
    with open(driver, "w") as f:
        f.write(DRIVER)
    return path, driver, lines, expect_field


def run_driver(exe, driver, path):
    proc = subprocess.run([exe, driver, path, FIRMWARE], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.splitlines()


@pytest.fixture(scope="module")
def outputs(vectors_file):
    path, driver, lines, _ = vectors_file
    cpy = run_driver(sys.executable, driver, path)
    mpy = run_driver(micropython_path(), driver, path)
    return cpy, mpy


def test_enough_vectors(vectors_file):
    _, _, lines, expect = vectors_file
    valid = sum(1 for e in expect if e is None)
    assert len(lines) == len(expect) and valid >= 4 * N_VALID


def test_cpython_and_micropython_score_every_vector_the_same(vectors_file, outputs):
    _, _, lines, _ = vectors_file
    cpy, mpy = outputs
    assert len(cpy) == len(mpy) == len(lines)
    diff = [i for i in range(len(lines)) if cpy[i] != mpy[i]]
    assert not diff, "first difference at vector %d: %s\n  CPython:     %s\n  MicroPython: %s" % (
        diff[0], json.dumps(lines[diff[0]]), cpy[diff[0]], mpy[diff[0]])


def test_generated_valid_deals_are_valid_and_invalid_ones_name_their_field(vectors_file, outputs):
    _, _, lines, expect = vectors_file
    cpy, _ = outputs
    for i, field in enumerate(expect):
        if field is None:
            assert not cpy[i].startswith("E "), (lines[i], cpy[i])
        else:
            assert cpy[i].startswith("E %s | " % field), (lines[i], field, cpy[i])


def test_vectors_cover_made_failed_and_errors(outputs):
    cpy, _ = outputs
    kinds = {line.split(" ", 1)[0] for line in cpy}
    assert {"True", "False", "None", "E"} <= kinds


# --- the calculator CLI under both interpreters ------------------------------------------

GAME_1001 = [
    {"taker": "NS", "bid": 100, "trump": "H", "points": 90, "melds": {"NS": ["tierce"]}},
    {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 70, "belote": {"NS": 1}},
]


CLI_CASES = [
    ("classic2000", ["--rules", "classic2000"], lines_of(C2_GAME)),
    ("federation-700", ["--rules", "federation", "--target", "700"], lines_of(FED_GAME)),
    ("federation-set", ["--rules", "federation", "--set", "target=700", "--set", "coinche=bid"], lines_of(FED_GAME)),
    ("c2000-norounding", ["--rules=classic2000", "--set", "rounding=false"], lines_of(C2_GAME)),
    ("coinche1001", ["--rules", "coinche1001"], lines_of(GAME_1001)),
    ("coinche1000-blank-lines", ["--rules", "coinche1000"], "\n" + lines_of(GAME_1001) + "\n\n"),
    ("invalid-line", ["--rules", "classic2000"],
     lines_of(C2_GAME[:2]) + '{"taker": "NS", "bid": 100, "trump": "H", "points": 170}\n' + lines_of(C2_GAME[2:])),
    ("malformed-json", ["--rules", "classic2000"], lines_of(C2_GAME[:1]) + '{"taker": "NS", "bid": 100,\n'),
    ("unknown-key", ["--rules", "coinche1001"], '{"taker": "NS", "bid": 100, "trump": "H", "point": 90}\n'),
    ("not-an-object", ["--rules", "coinche1001"], "[1, 2]\n"),
    ("help", ["--help"], ""),
    ("no-rules", [], ""),
    ("bad-preset", ["--rules", "belote"], ""),
    ("bad-option", ["--rules", "federation", "--set", "traget=700"], ""),
    ("bad-target", ["--rules", "federation", "--target", "x"], ""),
]


def run_cli(exe_args, args, stdin):
    proc = subprocess.run(exe_args + list(args), input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("name,args,stdin", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_cli_same_output_on_both_interpreters(name, args, stdin):
    c = run_cli([sys.executable, "-m", "host_tools.score"], args, stdin)
    m = run_cli([micropython_path(), os.path.join("host_tools", "score.py")], args, stdin)
    assert c == m
