"""100 000 random presses through the real App on the MicroPython unix port:
no crash, and after every event the game is valid (see tests/mp/fuzz_app.py)."""
import os

import pytest

from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "fuzz_app.py")


@pytest.mark.parametrize("seed", [1, 2])
def test_random_presses_never_break_the_game(seed):
    n = 100000 if seed == 1 else 20000
    # 4 MB of heap: the RAM flash (up to 1.4 MB once written) fills as the walk saves
    # deals and games, more than the default 2 MB holds next to the app
    out = run_mp(script=SCRIPT, args=[str(n), str(seed)], heapsize="4M").stdout
    first = out.splitlines()[0].split()
    assert first[:3] == ["fuzz", "ok", str(n)], out
    saved, screens = int(first[3]), int(first[5])
    # the walk must really play: deals saved and most screens visited
    assert saved > 50, out
    assert screens >= 15, out
