"""Random presses through the real App on the MicroPython unix port: no crash, and after
every event the game is valid (see tests/mp/fuzz_app.py).

`make test-full` presses 100 000 and 20 000 keys from the seeds 1 and 2; `make test`
presses 5 000 and 2 500 from seeds that move with the run's offset (tests/sweep.py),
so each run walks new paths."""
import ast
import os

import pytest

import sweep
from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "fuzz_app.py")
PLAYED = {"home", "menu", "entry-taker", "entry-bid", "entry-tens", "entry-confirm", "deal", "history"}


@pytest.mark.parametrize("seed,full,quick", [(1, 100000, 5000), (2, 20000, 2500)])
def test_random_presses_never_break_the_game(seed, full, quick):
    n = sweep.count(full, quick)
    if not sweep.FULL:
        seed += 2 * sweep.offset()  # odd and even seeds: the two walks never meet
    # 4 MB of heap: the RAM flash (up to 1.4 MB once written) fills as the walk saves
    # deals and games, more than the default 2 MB holds next to the app
    out = run_mp(script=SCRIPT, args=[str(n), str(seed)], heapsize="4M").stdout
    first = out.splitlines()[0].split()
    assert first[:3] == ["fuzz", "ok", str(n)], "seed %d: %s" % (seed, out)
    saved = int(first[3])
    visited = set(ast.literal_eval(out.splitlines()[1].split(" ", 1)[1]))
    # the walk must really play: deals saved, and the screens of a deal, its history and the
    # menu reached (which others a walk of a few thousand presses reaches varies with its seed: 10 to 20)
    assert saved > 50 * n // full, "seed %d: %s" % (seed, out)
    assert PLAYED <= visited, "seed %d: %s" % (seed, out)
