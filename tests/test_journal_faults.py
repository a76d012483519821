"""Exceptions at write steps of the journal, on the real littlefs code of the
MicroPython unix port (tests/mp_journal/faults.py). A file of its own, beside the
power cuts of tests/test_journal_power.py: the two longest suites of the journal
run side by side on two test workers.

Each step's run plays the scenario from a fresh flash to its end, so the sweep grows
with the square of the steps: `make test` takes every STRIDE-th step from the run's
offset, `make test-full` every step (tests/sweep.py)."""
import pytest

import sweep
from test_journal_power import script

STRIDE = 20


@pytest.mark.parametrize("layout", ["single", "device"])
def test_exceptions_at_every_write_step_lose_and_hide_nothing(layout):
    """MemoryError, KeyboardInterrupt and OSError raised at each write step of record()
    (each line encoded, each write, each close, each remove): the next load gives the state
    before or after the action, silently; the same journal takes the next action; the end
    state is the scenario's. (The compaction scenario: a base written every few actions.)"""
    r = script("faults.py", "checkpoints", layout, sweep.stride(STRIDE), sweep.start(STRIDE))
    assert r["failures"] == 0, r["first"]
    assert r["steps"] > 200
    assert r["sampled"] == len(range(sweep.start(STRIDE), r["steps"], sweep.stride(STRIDE)))
    assert r["runs"] == 3 * r["sampled"]  # every sampled step, every exception, raised
    assert r["surfaced"] >= r["sampled"]  # and record() did raise (always for KeyboardInterrupt)
