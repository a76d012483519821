"""Random presses through the real App on the MicroPython unix port: no crash, and after
every event the game is valid (see tests/mp/fuzz_app.py).

`make test-full` presses 100 000 and 20 000 keys from the seeds 1 and 2; `make test`
presses 10 000 and 5 000 from seeds that move with the run's offset (tests/sweep.py),
so each run walks new paths."""
import os

import pytest

import sweep
from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "fuzz_app.py")


@pytest.mark.parametrize("seed,full,quick", [(1, 100000, 10000), (2, 20000, 5000)])
def test_random_presses_never_break_the_game(seed, full, quick):
    n = sweep.count(full, quick)
    if not sweep.FULL:
        seed += 2 * sweep.offset()  # odd and even seeds: the two walks never meet
    # 4 MB of heap: the RAM flash (up to 1.4 MB once written) fills as the walk saves
    # deals and games, more than the default 2 MB holds next to the app
    out = run_mp(script=SCRIPT, args=[str(n), str(seed)], heapsize="4M").stdout
    first = out.splitlines()[0].split()
    assert first[:3] == ["fuzz", "ok", str(n)], "seed %d: %s" % (seed, out)
    saved, screens = int(first[3]), int(first[5])
    # the walk must really play: deals saved and most screens visited
    assert saved > 50 * n // full, "seed %d: %s" % (seed, out)
    assert screens >= 15, "seed %d: %s" % (seed, out)
