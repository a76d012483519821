"""Exceptions injected at every write step of record(): nothing confirmed is ever lost or hidden.

micropython faults.py SCENARIO LAYOUT [STRIDE [START]]

A write step is any call record() makes that can fail halfway through a
change: encoding a line (a MemoryError while a base or archive is written
line by line was the old way to commit half a base), a file's write() and
close, os.remove, os.mkdir. For each step k (every STRIDE-th from START: tests/sweep.py) and each of
MemoryError, KeyboardInterrupt and OSError(EIO), the scenario runs from a
fresh flash with that exception raised at step k. After the exception the
journal is loaded again (a new Journal, as after the app restarts): the state
must be the one before the interrupted action or after it, never anything
else, with no notice; then the action is recorded again if it was lost and
the scenario goes on. The end state must be the scenario's. Also, after every
exception, the same Journal object must take the next action (the app keeps
running after a MemoryError or an OSError: "Not saved!").
Prints one JSON line.
"""
import builtins
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path[:0] = [_HERE, _HERE + "/../../firmware", _HERE + "/../../host_tools/sim/device_side", _HERE + "/../../host_tools/bench/device_side",
                 _HERE + "/../../host_tools/rigs/device_side"]

import os  # noqa: E402

import layouts  # noqa: E402
import model  # noqa: E402
import scenarios  # noqa: E402
import store.journal as journal_module  # noqa: E402
from store.journal import Journal  # noqa: E402


class Injected:
    """Counts write steps; raises `fault` at step `at` (-1: never)."""

    def __init__(self):
        self.steps = 0
        self.at = -1
        self.fault = None
        self.armed = False  # only inside record()
        self.fired = False  # the exception was raised (a copy may have absorbed it)

    def step(self):
        if not self.armed:
            return
        k = self.steps
        self.steps += 1
        if k == self.at:
            self.fired = True
            fault = self.fault
            raise fault() if isinstance(fault, type) else fault


INJECT = Injected()


class FileProxy:
    def __init__(self, file, writing):
        self._file = file
        self._writing = writing

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._writing:
            try:
                INJECT.step()
            except BaseException:
                self._file.close()  # a failure around close: what was written is committed
                raise
        self._file.close()
        return False

    def close(self):
        self.__exit__()

    def write(self, data):
        INJECT.step()
        return self._file.write(data)

    def read(self, *args):
        return self._file.read(*args)

    def readinto(self, buffer):
        return self._file.readinto(buffer)


_real_open = builtins.open


def open_counted(path, mode="r", *args):
    file = _real_open(path, mode, *args)
    return FileProxy(file, "w" in mode or "a" in mode)


class OsProxy:
    """The journal's `os`, with the calls that change the flash counted."""

    def remove(self, path):
        INJECT.step()
        os.remove(path)

    def mkdir(self, path):
        INJECT.step()
        os.mkdir(path)

    def __getattr__(self, name):
        return getattr(os, name)


_real_encode = journal_module.encode


def encode_counted(obj):
    INJECT.step()
    return _real_encode(obj)


journal_module.open = open_counted
journal_module.os = OsProxy()
journal_module.encode = encode_counted


def run(actions, opts, layout, expect, fails, where):
    """The scenario with the armed injection; returns the steps counted."""
    layouts.fresh(layout, 352)
    roots = layouts.roots(layout)
    journal = Journal(roots, **opts)
    journal.load()
    state = expect[0]
    index = 0
    faults = 0
    while index < len(actions):
        action = actions[index]
        INJECT.armed = True
        try:
            journal.record(action)
            raised = None
        except (MemoryError, KeyboardInterrupt, OSError) as error:
            raised = error
        INJECT.armed = False
        if raised is None:
            state = model.step(state, action)
            index += 1
            continue
        faults += 1
        before, after = state, model.step(state, action)
        loaded = Journal(roots, **opts).load()
        if model.same(loaded, after):
            state = after
            index += 1
        elif not model.same(loaded, before):
            fails.append("%s action %d (%s) %r: got %s" % (where, index, action["op"], raised, model.describe(loaded)))
            return faults
        if loaded["notice"] is not None:
            fails.append("%s action %d: notice %s" % (where, index, loaded["notice"]))
        if isinstance(raised, (MemoryError, OSError)) and index < len(actions):
            # the app goes on with the same journal: the next action (or the same again) must record
            try:
                journal.record(actions[index])
                state = model.step(state, actions[index])
                index += 1
            except OSError as error:
                fails.append("%s: the same journal refused the next action: %r" % (where, error))
                return faults
        else:
            journal = Journal(roots, **opts)
            journal.load()
    final = Journal(roots, **opts).load()
    if not model.same(final, expect[-1]) or final["notice"] is not None:
        fails.append("%s: final %s %s" % (where, model.describe(final), final["notice"]))
    return faults


def main():
    name, layout = sys.argv[1], sys.argv[2]
    stride = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    make, opts = scenarios.SCENARIOS[name]
    actions = make()
    expect = model.states(actions)
    fails = []
    INJECT.at = -1
    INJECT.steps = 0
    run(actions, opts, layout, expect, fails, "no fault")
    total = INJECT.steps
    injected = 0
    surfaced = 0  # runs where record() raised (with two copies, the other copy often takes the action)
    for fault in (MemoryError, KeyboardInterrupt, OSError(5)):
        for k in range(start, total, stride):
            INJECT.steps = 0
            INJECT.at = k
            INJECT.fault = fault
            INJECT.fired = False
            surfaced += run(actions, opts, layout, expect, fails, "%r at step %d" % (fault, k)) > 0
            injected += INJECT.fired
            layouts.unmount(layout)
    print(json.dumps({"scenario": name, "layout": layout, "steps": total, "sampled": len(range(start, total, stride)),
                      "runs": injected, "surfaced": surfaced,
                      "failures": len(fails), "first": fails[:5]}))


main()
