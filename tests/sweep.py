"""How deep the exhaustive sweeps go: every point, or a sample that moves from run to run.

A sweep tries every point of something countable: every power cut of a scenario, every
write step an exception can hit, every game of a corpus, every screen state of a
text-fit tour, random presses by the hundred thousand. Every point of every sweep takes
longer than the run of the suite that a change waits for. So `make test` samples:
a sweep of stride S takes the points whose index is `offset mod S`, every S-th, and the
offset changes from run to run. Runs one after the other cover every point in turn, and
a fault a point shows fails the run that samples it.

- The run's offset is printed in pytest's header (`sweep: sample 5`). It is carried to
  the test workers in the environment, so all of a run's workers take the same sample.
- `SWEEP_OFFSET=5 make test` takes that run's sample again (a failure seen once is
  repeated).
- `SWEEP=full` (`make test-full`) takes every point of every sweep: the suite as it was
  before sampling, for a release and after a change to the journal, the layouts or the
  texts.
"""
import os
import random

FULL = os.environ.get("SWEEP", "") == "full"
OFFSET_VARIABLE = "SWEEP_OFFSET"


def choose_offset():
    """The run's offset: the one asked for, or a new one (the controller sets it before
    its workers start, so they inherit it)."""
    asked = os.environ.get(OFFSET_VARIABLE, "")
    if asked.strip():
        try:
            return int(asked)
        except ValueError:
            raise SystemExit("%s must be a whole number, not %r" % (OFFSET_VARIABLE, asked))
    offset = random.randrange(1 << 16)
    os.environ[OFFSET_VARIABLE] = str(offset)
    return offset


def offset():
    value = os.environ.get(OFFSET_VARIABLE, "")
    return int(value) if value.strip() else 0


def stride(quick):
    """The stride a sweep uses: 1 when every point is asked for, else `quick`."""
    return 1 if FULL else quick


def start(quick):
    """The first point's index for a sweep of stride `quick` (0 when every point is taken)."""
    return offset() % stride(quick)


def take(points, quick):
    """The points this run samples from a sequence: every `quick`-th, from the run's offset."""
    points = list(points)
    return points[start(quick)::stride(quick)]


def count(full, quick):
    """How many random points a sweep draws: `full` when every point is asked for, else `quick`."""
    return full if FULL else quick


def header():
    if FULL:
        return "sweep: full (every point of every sweep)"
    return "sweep: sample %d (SWEEP_OFFSET=%d repeats it; SWEEP=full takes every point)" % (offset(), offset())
