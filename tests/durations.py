"""The order the test files go out in: the slowest first, from the last run's durations.

Under `--dist loadfile --no-loadscope-reorder` (the Makefile's) a free worker takes the
next file in the order collected, so a long file collected last would run alone at the
end while the other worker waits. Each run keeps every test's time (setup, call and
teardown) in build/test-durations.json; the next run sums them per file and sends the
longest files first. A test the file does not know counts 0 s.

A fresh clone has no such record: then each file's seconds come from tests/file_seconds.json,
one run's seconds per file written by `python tests/durations.py --baseline` (the order
only: a stale figure makes a run a little longer, never wrong). A file in neither: the
`device` tier's files first (the emulated Pico's take minutes), then the others, each in
the order collected. The sort is stable: a file's own tests keep their order.

The file is only read while collecting and only written when the run ends (by the
controller, not the workers), so every worker of a run collects the same order.
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DURATIONS = os.path.join(ROOT, "build", "test-durations.json")
BASELINE = os.path.join(ROOT, "tests", "file_seconds.json")


def load(path=DURATIONS):
    """{test node id: seconds} of the last runs; {} when there is none or it is unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, (int, float))} if isinstance(data, dict) else {}


def file_of(nodeid):
    return nodeid.split("::", 1)[0]


def per_file(known):
    """{test file: seconds} summed over its tests."""
    seconds = {}
    for nodeid, value in known.items():
        seconds[file_of(nodeid)] = seconds.get(file_of(nodeid), 0.0) + value
    return seconds


def order_slowest_first(items, known=None, baseline=None):
    """Sort items (in place) by their file's recorded seconds, longest first; the
    fallback order for files with no record (the module docstring)."""
    known = load() if known is None else known
    baseline = load(BASELINE) if baseline is None else baseline
    collected = {item.nodeid for item in items}
    seconds = per_file({nodeid: value for nodeid, value in known.items() if nodeid in collected})
    for name in {file_of(item.nodeid) for item in items} - set(seconds):
        if name in baseline:
            seconds[name] = baseline[name]
    device_files = {file_of(item.nodeid) for item in items if item.get_closest_marker("device")}

    def rank(item):
        name = file_of(item.nodeid)
        if name in seconds:
            return (1, -seconds[name])
        return (0 if name in device_files else 2, 0.0)

    items.sort(key=rank)


class Run:
    """The durations of this run's tests, merged into the file at the end."""

    def __init__(self, path=DURATIONS):
        self.path = path
        self.seconds = {}

    def add(self, report):
        if report.when in ("setup", "call", "teardown"):
            self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    def save(self):
        if not self.seconds:
            return
        merged = load(self.path)
        merged.update({key: round(value, 3) for key, value in self.seconds.items()})
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        partial = self.path + ".%d.part" % os.getpid()
        with open(partial, "w", encoding="utf-8") as f:
            json.dump(merged, f, indent=0, sort_keys=True)
        os.replace(partial, self.path)


RUN = Run()


def write_baseline(path=BASELINE, known=None):
    """tests/file_seconds.json from the last run's record: whole seconds per file."""
    seconds = per_file(load() if known is None else known)
    with open(path, "w", encoding="utf-8") as f:
        json.dump({name: round(value) for name, value in sorted(seconds.items())}, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--baseline"]:
        sys.exit("usage: python tests/durations.py --baseline   (tests/file_seconds.json from build/test-durations.json)")
    write_baseline()
