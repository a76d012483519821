"""Exceptions at every write step of the journal, on the real littlefs code of the
MicroPython unix port (tests/mp_journal/faults.py). A file of its own, beside the
power cuts of tests/test_journal_power.py: the two longest suites of the journal
run side by side on two test workers."""
import pytest

from test_journal_power import script


@pytest.mark.parametrize("layout", ["single", "device"])
def test_exceptions_at_every_write_step_lose_and_hide_nothing(layout):
    """MemoryError, KeyboardInterrupt and OSError raised at every write step of record()
    (each line encoded, each write, each close, each remove): the next load gives the state
    before or after the action, silently; the same journal takes the next action; the end
    state is the scenario's. (The compaction scenario: a base written every few actions.)"""
    r = script("faults.py", "checkpoints", layout)
    assert r["failures"] == 0, r["first"]
    assert r["steps"] > 200 and r["runs"] == 3 * r["steps"]  # every step, every exception, raised
    assert r["surfaced"] > r["steps"]  # and record() did raise in many (always for KeyboardInterrupt)
