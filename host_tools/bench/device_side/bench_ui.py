"""The real App driven through its buttons on the unix port, for `make bench`.

    micropython host_tools/bench/device_side/bench_ui.py MODE PRESET TARGET SCRIPT [ARG]

SCRIPT is a key script as host_tools/calculator/keys.py writes it (up, down, ok, back,
hold BUTTON MS, wait MS; `#` comments). Every event goes through the whole
device path: the button level, App.poll() every 10 ms of virtual time
(debounce, repeat, long press), the screen, the layout, display.show().
A press is 40 ms down then 60 ms up, as in the simulator. The display is a
plain 128x64 MONO_VLSB FrameBuffer whose show() does nothing (the drivers'
show() allocates nothing: tests/test_drivers_*.py), and the journal runs on
littlefs on an image file next to SCRIPT (SCRIPT.img, made afresh), mounted
at /flash as in the simulator.

MODE
  play   press the first ARG events of SCRIPT (all when ARG is absent) and
         exit; prints `played EVENTS PRESSES DEALS`. callgrind runs this
         (ARG = 0: the start-up alone).
  alloc  press the whole SCRIPT (a game), then measure the heap allocated per
         press in steady state on each screen, with gc disabled while
         measuring; prints one JSON object.
  heap   where the live heap goes: import the modules named in the file ARG
         (one per line, dependencies first) one by one, mount the flash,
         build the App, play SCRIPT; gc.mem_alloc() after a collection at
         each point; prints one JSON object. (A file, because the unix port
         dies on a command-line argument of 256 characters or more.)
"""
import gc
import json
import os
import sys


_ROOT = sys.path[0] + "/../../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path.insert(0, _ROOT + "/host_tools/sim/device_side")

BUTTONS = ("up", "down", "ok", "back")
PRESS_MS = 40
GAP_MS = 60


from fakeboard import Board as _FakeBoard  # noqa: E402


class Board(_FakeBoard):
    def __init__(self):
        super().__init__()
        self.level = self.pressed  # the driver below sets button levels


class Driver:
    """Buttons and virtual time, like the simulator's launcher: poll, then sleep 10 ms."""

    def __init__(self, app, board, poll_ms):
        self.app = app
        self.board = board
        self.poll_ms = poll_ms

    def run(self, ms):
        app = self.app
        board = self.board
        step = self.poll_ms
        for _ in range(ms // step):
            board.now += step
            app.poll()

    def press(self, b):
        self.board.level[b] = 1
        self.run(PRESS_MS)
        self.board.level[b] = 0
        self.run(GAP_MS)

    def hold(self, b, ms):
        self.board.level[b] = 1
        self.run(ms)
        self.board.level[b] = 0
        self.run(GAP_MS)


def events(path, limit=-1):
    """Script lines -> (button index or -1 for a wait, ms) (ms 0 = a plain press), read as they go.

    A generator, so the script costs no heap however long it is; limit >= 0
    stops after that many events."""
    n = 0
    with open(path) as f:
        for line in f:
            if n == limit:
                return
            line = line.split("#", 1)[0].strip().lower()
            if not line:
                continue
            w = line.split()
            if w[0] in BUTTONS and len(w) == 1:
                ev = (BUTTONS.index(w[0]), 0)
            elif w[0] == "hold" and len(w) == 3:
                ev = (BUTTONS.index(w[1]), int(w[2]))
            elif w[0] == "wait" and len(w) == 2:
                ev = (-1, int(w[1]))
            else:
                raise ValueError("bad script line: %r" % line)
            n += 1
            yield ev


def play(drv, evs):
    """(events, presses): press the script; a hold is one press."""
    n = presses = 0
    for b, ms in evs:
        n += 1
        if b < 0:
            drv.run(ms)
        elif ms:
            drv.hold(b, ms)
            presses += 1
        else:
            drv.press(b)
            presses += 1
    return n, presses


# -- allocation per press ------------------------------------------------------

UP, DOWN, OK, BACK = 0, 1, 2, 3
N_PRESSES = 40
WARMUP = 4

# (label, keys from home, then OK until this screen (None: no OK), keys measured).
# Steps answered by one key (three-way screens, the announce picker) move on at
# every press, so they have no steady state; the confirm step is measured with
# its UP/DOWN (the card points by one: the deal scored again at every press), the list of the
# other announces behind the picker's OK with its UP/DOWN. The confirm step keeps
# the card points shown before, so UP/DOWN back and forth allocates nothing; a sweep
# (UP only: every press a new value, scored and drawn) is measured apart
# (SWEEP, not budgeted: every screen's budget is measured back and forth).
SWEEP = ("entry-confirm", (UP,), "entry-confirm", (UP,))
HOLD_MS = 700  # a held OK: past the long press
ROUTES = (
    ("entry-bid", (UP,), None, (UP, DOWN)),
    ("entry-tens", (UP, OK, BACK), None, (UP, DOWN)),  # the check step's BACK: the card points by tens
    ("entry-confirm", (UP,), "entry-confirm", (UP, DOWN)),
    ("entry-meld-list", (UP,), "entry-confirm", (UP, DOWN)),
    ("menu", (OK,), None, (UP, DOWN)),
    ("history", (OK, DOWN, OK), None, (UP, DOWN)),
    ("deal", (OK, DOWN, OK, OK), None, (UP, DOWN)),
    ("settings", (OK, DOWN, DOWN, DOWN, OK), None, (UP, DOWN)),
    ("options", (OK, DOWN, DOWN, DOWN, OK, DOWN, DOWN, OK), None, (UP, DOWN)),
    ("setting", (OK, DOWN, DOWN, DOWN, OK, DOWN, OK), None, (UP, DOWN)),  # target: digits
    ("setting-text", (OK, DOWN, DOWN, DOWN, OK, OK), None, (UP, DOWN)),  # preset: a label
    ("archive", (OK, UP, OK), None, (UP, DOWN)),  # the last row of the menu
    ("chart", (OK,) + (DOWN,) * 4 + (OK,), None, (UP, DOWN)),
    ("stats", (OK,) + (DOWN,) * 5 + (OK,), None, (UP, DOWN)),
)


def go_home(drv):
    app = drv.app
    for _ in range(16):
        if app.screen == "home":
            return
        drv.press(BACK)
    raise RuntimeError("cannot get back home from %s" % app.screen)


def reach(drv, keys, until, extra):
    app = drv.app
    for k in keys:
        drv.press(k)
    if until is not None:
        for _ in range(12):
            if app.screen == until:
                break
            if app.screen == "entry-confirm":
                return False  # one more OK would save a deal
            drv.press(OK)
        else:
            return False
    for k in extra:  # a key, or (key, ms): a hold
        if isinstance(k, tuple):
            drv.hold(k[0], k[1])
        else:
            drv.press(k)
    return True


def measure(drv, keys, n):
    """(total bytes, max bytes of one press, per-key totals) over n presses alternating keys."""
    gc.collect()
    gc.disable()
    total = 0
    most = 0
    per = [0] * len(keys)
    try:
        for i in range(n):
            j = i % len(keys)
            a = gc.mem_alloc()
            drv.press(keys[j])
            d = gc.mem_alloc() - a
            total += d
            per[j] += d
            if d > most:
                most = d
    finally:
        gc.enable()
    return total, most, per


def measure_calls(fn, n):
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        for _ in range(n):
            fn()
        return gc.mem_alloc() - a
    finally:
        gc.enable()


def first_alloc(fn):
    """Where fn() first allocates: 'file:line function' frames (innermost first), [] if nowhere.

    Runs fn with the heap locked; the MemoryError's traceback names the call.
    (fn takes no arguments: a call with *args would itself allocate.)"""
    import io
    import micropython

    err = None
    micropython.heap_lock()
    try:
        fn()
    except MemoryError as e:
        err = e
    finally:
        micropython.heap_unlock()
    if err is None:
        return []
    buf = io.StringIO()
    sys.print_exception(err, buf)
    frames = []
    for line in buf.getvalue().split("\n"):
        line = line.strip()
        if line.startswith("File ") and "bench_ui" not in line:
            # File "screens/table_screens.py", line 85, in key
            parts = line.split('"')
            rest = parts[2].split(",")
            frames.append("%s:%s %s" % (parts[1], rest[1].strip()[5:], rest[2].strip()[3:]))
    frames.reverse()
    return frames


def alloc_report(drv):
    app = drv.app
    out = {"screens": {}, "deals": len(app.game.deals)}
    # the instrument: the harness itself costs 0 bytes, and 10 bytearray(100) are seen
    out["harness"] = measure_calls(lambda: None, 100)
    out["calibration"] = measure_calls(lambda: bytearray(100), 10)
    go_home(drv)
    drv.run(3000)  # let the "saved" toast expire
    app.render()
    out["home_render"] = {"calls": 100, "bytes": measure_calls(app.render, 100), "site": first_alloc(app.render)}
    out["idle_poll"] = {"calls": 100, "bytes": measure_calls(app.poll, 100)}
    for label, keys, until, measured in ROUTES:
        extra = ((OK, HOLD_MS), OK) if label == "entry-meld-list" else ()  # the NS picker, its list
        ok = reach(drv, keys, until, extra)
        name = app.screen
        want = label if label == "entry-meld-list" else (until or label)
        if label == "setting-text":
            want = "setting"
        if not ok or name != want:
            out["screens"][label] = {"skipped": "not reached (on %s)" % name}
            go_home(drv)
            continue
        for i in range(WARMUP):
            drv.press(measured[i % len(measured)])
        total, most, per = measure(drv, measured, N_PRESSES)
        if app.screen != name:
            out["screens"][label] = {"skipped": "left the screen while measuring (%s)" % app.screen}
            go_home(drv)
            continue
        row = {"presses": N_PRESSES, "bytes": total, "max": most,
               "keys": ["UP", "DOWN"][:len(measured)], "per_key": per,
               "redraw": measure_calls(app.render, 10) // 10}
        if total:
            # first allocation of the key handling and of the redraw (heap locked;
            # a screen may be left half-changed, so this comes last)
            ev = measured[0]  # a PRESS event of that button (events.inputs: PRESS << 2 | button)
            row["site_key"] = first_alloc(lambda ev=ev: app.handle(ev))
            row["site_draw"] = first_alloc(app.render)
        out["screens"][label] = row
        go_home(drv)
    label, keys, until, measured = SWEEP
    if reach(drv, keys, until, ()) and app.screen == label:
        total, most, per = measure(drv, measured, N_PRESSES)
        out["sweep"] = {"screen": label, "presses": N_PRESSES, "bytes": total, "max": most}
    go_home(drv)
    return out


def teardown(app):
    """What the live heap of a played game holds: drop one part at a time, count what is freed."""
    from render import text

    parts = []
    n = len(getattr(text, "_cache", ()))
    a = live()
    if hasattr(text, "_cache"):
        text._cache.clear()
    parts.append(("render.text string cache (%d strings)" % n, a - live()))
    a = live()
    app.table = None
    app.view = None
    parts.append(("game: deals, results, the journal's copy", a - live()))
    a = live()
    app.texts = None
    parts.append(("language table", a - live()))
    return parts


def live():
    gc.collect()
    return gc.mem_alloc()


def main(argv):
    import micropython

    mode, preset, target, path = argv[1], argv[2], int(argv[3]), argv[4]
    arg = argv[5] if len(argv) > 5 else None
    heap = {"start": live(), "modules": []}
    if mode == "heap":
        with open(arg) as f:
            names = [x.strip() for x in f if x.strip()]
        for name in names:
            a = live()
            __import__(name)
            heap["modules"].append((name, live() - a))
    a = live()
    from blockdev import FileBlockDev, mount

    heap["harness"] = live() - a  # the block device module
    a = live()
    from app import App
    from events.timing import POLL_MS

    heap["modules"].append(("(imported by app, not listed)", live() - a))
    heap["code"] = sum(n for _, n in heap["modules"])
    a = live()
    image = path + ".img"  # a fresh littlefs image next to the script
    try:
        os.remove(image)
    except OSError:
        pass
    mount(FileBlockDev(image), "/flash")
    heap["flash"] = live() - a
    a = heap["pre_app"] = live()
    board = Board()
    app = App(board, {"rules": preset, "target": target})
    drv = Driver(app, board, POLL_MS)
    app.poll()
    heap["app"] = live() - a
    heap["booted"] = live()
    n_events, presses = play(drv, events(path, int(arg) if mode == "play" and arg is not None else -1))
    if mode == "heap":
        heap["end"] = live()
        heap["deals"] = len(app.game.deals)
        heap["presses"] = presses
        heap["mem_total"] = micropython.mem_total()
        heap["mem_peak"] = micropython.mem_peak()
        heap["parts"] = teardown(app)
        app = drv = board = None
        heap["no_app"] = live()  # after dropping the App: what stays in modules
        print(json.dumps(heap))
    elif mode == "play":
        print("played", n_events, presses, len(app.game.deals))
    elif mode == "alloc":
        out = alloc_report(drv)
        out["presses"] = presses
        print(json.dumps(out))
    else:
        raise ValueError("mode must be play or alloc")


main(sys.argv)
