"""Power cuts with the firmware booting: the real App on every cut of a recorded game.

    micropython -X heapsize=32M tests/mp/power_e2e.py CONFIG.json

CONFIG (written by tests/test_power_e2e.py):
  {"defaults": {"rules": P}, "script": [simulator script lines],
   "probe": [script lines], "probe_every": N, "blocks": 352, "stride": S, "start": F}

1. Record: a fresh littlefs on a recording power-cut device (host_tools/rigs/device_side/cutdev.py),
   the real App on a fake board whose buttons the script presses through the
   real debouncer (`up` = down 40 ms, up 60 ms; `hold ok 700`; `wait 500`, as
   in the simulator), the clock advancing 10 ms per poll. After every script
   line the App's state (rules, first dealer, dealer corrections, deals, totals, settings, archive
   summaries) is taken; a line that changed it is a confirmed action, and the
   index of its first and last flash operation is kept. A line that writes
   without changing the state, or changes it without writing, is a failure.
2. Cut: for every k in the write/erase log (every S-th from F, and the end: the
   sample of tests/sweep.py), stopped and torn (the first half of
   operation k lands), the medium a cut at k leaves is mounted and a NEW App
   boots on it. It must not crash, must render, must open on the home screen
   (game over when the game is over) with no "recovered" notice, and its state
   must be the state after the action running at k or the one before it (for
   a cut between actions: the state after the last one), never anything else,
   and never "before" again once "after" was seen inside one action. When the
   boot wrote (it finished a clean-up the cut left), every cut of those writes
   (stopped and torn) is booted too and must give the same state.
3. Behave as if never stopped: every probe_every-th k (and the end), the probe
   presses go to the booted App, and to an App that never stopped: the same
   script replayed on a fresh, uncut device up to the same state, then BACK to
   its home screen. Screens, frames (CRC of the frame buffer after each press)
   and the resulting state must be identical. The booted device is then booted
   once more: the probe's result must have been saved.

Prints one JSON line: counts, the states, action marks and the first failures.

Also the simulator's `--app` for tests/test_sigkill.py: imported as a module
(not __main__), run(board, defaults) installs a hook on the image-file block
device, then runs the real app.run. The hook appends one line per flash
operation to $E2E_OPS ("p BLOCK OFFSET LEN" / "e BLOCK"), written before the
operation starts, and at operation $E2E_STOP_AT (if set) prints "L stop N"
and waits for the SIGKILL, with the operation not done ($E2E_STOP_MODE=stop)
or half done (tear: the first half of its bytes written).
"""
import json
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_ROOT = _HERE + "/../.."
for _p in (_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/rigs/device_side", _ROOT + "/firmware"):
    if _p not in sys.path:
        sys.path.insert(0, _p)


BUTTONS = {"up": 0, "down": 1, "ok": 2, "back": 3}
PRESS_MS = 40  # as the simulator presses a key (host_tools/common/script.py)
GAP_MS = 60
POLL_MS = 10


# ------------------------------------------------------------------ the fake board

from fakeboard import Board  # noqa: E402


def advance(app, board, ms):
    """Let ms of time pass the way run() spends it: a poll every 10 ms."""
    while ms > 0:
        board.now += POLL_MS
        ms -= POLL_MS
        app.poll()


def do_line(app, board, line):
    """One simulator script line, pressed through the App's real Inputs."""
    line = line.split("#", 1)[0].strip()
    if not line:
        return False
    w = line.split()
    if w[0] == "wait":
        advance(app, board, int(w[1]))
        return True
    if w[0] == "hold":
        b, ms = BUTTONS[w[1]], int(w[2])
    else:
        b, ms = BUTTONS[w[0]], PRESS_MS
    board.pressed[b] = 1
    advance(app, board, ms)
    board.pressed[b] = 0
    advance(app, board, GAP_MS)
    return True


def snap(app):
    """What must survive a power cut: the game, the settings, the past games."""
    g = app.game
    arc = app.archive
    return {"rules": g.rules.spec(), "dealer": g.first_dealer, "order": g.order, "fixes": [list(f) for f in g.fixes],
            "next_dealer": g.dealer(), "deals": [dict(d) for d in g.deals],
            "total": dict(g.total), "over": g.over, "winner": g.winner, "settings": dict(app.settings),
            "archive": [arc.summary(i) for i in range(len(arc))] if hasattr(arc, "summary") else []}


def _crc(buf):
    import binascii
    return binascii.crc32(buf)


# ------------------------------------------------------------------ the cut loop

class Run:
    def __init__(self, cfg):
        self.cfg = cfg
        self.defaults = cfg["defaults"]
        self.script = cfg["script"]
        self.probe_lines = cfg["probe"]
        self.blocks = cfg.get("blocks", 352)
        self.fails = []
        self._refs = {}

    def fail(self, msg):
        if len(self.fails) < 20:
            self.fails.append(msg)
        else:
            self.fails[-1] = "... and more"

    def record(self):
        """Play the script once on a recording device: states, action marks, the log."""
        import cutdev
        from app import App

        dev = cutdev.fresh(self.blocks, "/flash", record=True)
        self.snapshot = dev.image()
        board = Board("/flash/data")
        app = App(board, self.defaults)
        app.render()
        # action 0 is the first boot (it records the first "new")
        self.states = [snap(app)]
        self.marks = [(0, len(dev.log))]  # (first op, end op) of each action
        self.lines = [-1]  # script line of each action
        for i, line in enumerate(self.script):
            before_ops = len(dev.log)
            if not do_line(app, board, line):
                continue
            st = snap(app)
            ops = len(dev.log)
            changed = st != self.states[-1]
            if changed and ops == before_ops:
                self.fail("line %d %r: state changed, nothing written" % (i, line))
            elif ops != before_ops and not changed:
                self.fail("line %d %r: %d flash operations, no confirmed change" % (i, line, ops - before_ops))
            if changed:
                self.states.append(st)
                self.marks.append((before_ops, ops))
                self.lines.append(i)
        self.log = dev.log
        self.final_screen = app.screen
        # the uncut device, rebooted: the same state, and a clean boot writes nothing
        img = cutdev.CutDev(4096, self.blocks, under=dev.image())
        cutdev.mount(img, "/flash")
        app2 = App(Board("/flash/data"), self.defaults)
        if snap(app2) != self.states[-1]:
            self.fail("uncut reboot: %s != %s" % (json.dumps(snap(app2)), json.dumps(self.states[-1])))
        if img.ops:
            self.fail("uncut reboot wrote %d operations" % img.ops)
        cutdev.unmount("/flash")

    def action_at(self, k):
        """Index of the action whose operations include k (len(states) - 1 past the end)."""
        for a in range(len(self.marks)):
            if self.marks[a][0] <= k < self.marks[a][1]:
                return a
        return len(self.states) - 1

    def cut_all(self):
        import cutdev

        replay = cutdev.Replay(self.snapshot, self.log, 4096, self.blocks)
        total = len(self.log)
        every = self.cfg.get("probe_every", 0)
        after_seen = {}
        self.boots = 0
        self.nested = 0
        self.probes = 0
        self.probes_saved = 0
        self.got_before = 0
        self.got_after = 0
        self.boot_writes = 0
        # every stride-th cut from start (tests/sweep.py), and the uncut end always
        stride = self.cfg.get("stride", 1)
        cuts = list(range(self.cfg.get("start", 0), total, stride)) + [total]
        self.cuts = len(cuts)
        for k in cuts:
            a = self.action_at(k)
            for tear in (False, True):
                if tear and k == total:
                    continue
                where = "k=%d%s (action %d, line %d)" % (k, " torn" if tear else "", a, self.lines[a])
                img = replay.at(k, tear)
                booted = self.boot(img, where)
                if booted is None:
                    continue
                self.boots += 1
                app, board, st = booted
                if img.ops:
                    self.boot_writes += 1
                after = self.states[a]
                before = self.states[a - 1] if a > 0 else after
                got = None
                if k == total:
                    if st == after:
                        got = a
                elif st == after:
                    after_seen[(a, tear)] = True
                    got = a
                elif st == before and not after_seen.get((a, tear)):
                    got = a - 1
                if got is None:
                    self.fail(where + ": booted state %s; before %s; after %s"
                              % (json.dumps(st), json.dumps(before), json.dumps(after)))
                else:
                    if got == a and k < total and a > 0:
                        self.got_after += 1
                    elif got < a:
                        self.got_before += 1
                if got is not None and every and (k % every == 0 or k == total):
                    self.probe(app, board, img, max(got, 0), where)
                cutdev.unmount("/flash")
                if img.ops and k < total:
                    # the medium as the cut left it, before this boot wrote to it
                    self.cut_the_boot(replay.at(k, tear).image(), st, where)

    def boot(self, img, where):
        """Mount img, boot a new App on it: (app, board, state), or None after a failure."""
        import cutdev
        from app import App

        try:
            cutdev.mount(img, "/flash")
        except OSError as e:
            self.fail(where + ": littlefs does not mount: %r" % e)
            return None
        board = Board("/flash/data")
        try:
            app = App(board, self.defaults)
            app.render()
        except Exception as e:  # any crash at boot is the finding
            self.fail(where + ": boot crashed: %r" % e)
            cutdev.unmount("/flash")
            return None
        st = snap(app)
        want_screen = "gameover" if st["over"] else "home"
        if app.screen != want_screen:
            self.fail(where + ": booted on screen %s, not %s" % (app.screen, want_screen))
        if app.toast_msg is not None:
            self.fail(where + ": boot message %r" % app.toast_msg)
        return app, board, st

    def cut_the_boot(self, survivor, want, where):
        """The boot wrote (it finished a clean-up, or started the first game): cut
        each of those writes too; the next boot must give the same state."""
        import cutdev

        rec = cutdev.CutDev(4096, self.blocks, record=True, under=survivor)
        if self.boot(rec, where + " (recording the boot)") is None:
            return
        cutdev.unmount("/flash")
        replay = cutdev.Replay(survivor, rec.log, 4096, self.blocks)
        for j in range(len(rec.log)):
            for tear in (False, True):
                w = "%s, then the boot cut at %d%s" % (where, j, " torn" if tear else "")
                booted = self.boot(replay.at(j, tear), w)
                if booted is None:
                    continue
                self.nested += 1
                if booted[2] != want:
                    self.fail(w + ": booted state %s, not %s" % (json.dumps(booted[2]), json.dumps(want)))
                cutdev.unmount("/flash")

    def run_probe(self, app, board):
        """The probe presses: (screen, frame CRC) after each, then the state."""
        trace = []
        for line in self.probe_lines:
            if do_line(app, board, line):
                app.render()
                trace.append((app.screen, _crc(board.display.buf)))
        return trace, snap(app)

    def reference(self, s):
        """An App that never stopped, in state s, on its home screen, then the probe."""
        if s in self._refs:
            return self._refs[s]
        import vfs
        from blockdev import RAMBlockDev
        from app import App

        try:
            vfs.umount("/ref")
        except OSError:
            pass
        dev = RAMBlockDev(4096, self.blocks)
        vfs.VfsLfs2.mkfs(dev, progsize=256)
        vfs.mount(vfs.VfsLfs2(dev, progsize=256), "/ref")
        board = Board("/ref/data")
        app = App(board, self.defaults)
        for line in self.script[:self.lines[s] + 1]:
            do_line(app, board, line)
        if snap(app) != self.states[s]:
            self.fail("reference run did not reach state %d" % s)
        n = 0
        while app.screen not in ("home", "gameover") and n < 8:
            do_line(app, board, "back")
            n += 1
        if snap(app) != self.states[s]:
            self.fail("reference: going home from state %d changed it" % s)
        res = self.run_probe(app, board)
        vfs.umount("/ref")
        self._refs[s] = res
        return res

    def probe(self, app, board, img, s, where):
        import cutdev
        from app import App

        want_trace, want_state = self.reference(s)
        trace, st = self.run_probe(app, board)
        self.probes += 1
        if len(st["deals"]) == len(self.states[s]["deals"]) + 1:
            self.probes_saved += 1
        if trace != want_trace:
            i = 0
            while i < min(len(trace), len(want_trace)) and trace[i] == want_trace[i]:
                i += 1
            self.fail(where + ": probe differs from an uncut device at press %d: %r != %r"
                      % (i, trace[i:i + 1], want_trace[i:i + 1]))
        if st != want_state:
            self.fail(where + ": probe state %s != uncut %s" % (json.dumps(st), json.dumps(want_state)))
        # and the probe's result is on flash
        cutdev.unmount("/flash")
        cutdev.mount(img, "/flash")
        again = snap(App(Board("/flash/data"), self.defaults))
        if again != st:
            self.fail(where + ": after the probe, a reboot gives %s, not %s" % (json.dumps(again), json.dumps(st)))


def main():
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    r = Run(cfg)
    r.record()
    r.cut_all()
    traces = [t for t, _ in r._refs.values()]
    distinct = len([t for i, t in enumerate(traces) if t not in traces[:i]])
    erases = len([op for op in r.log if op[0] == "e"])
    print(json.dumps({"ops": len(r.log), "cuts": r.cuts, "erases": erases, "actions": len(r.states), "boots": r.boots,
                      "nested": r.nested, "probes": r.probes, "references": len(traces), "distinct_traces": distinct,
                      "probes_saved": r.probes_saved, "got_before": r.got_before, "got_after": r.got_after,
                      "boot_writes": r.boot_writes, "marks": r.marks, "lines": r.lines, "states": r.states,
                      "final_screen": r.final_screen, "failures": len(r.fails), "first": r.fails}))


# ------------------------------------------------------------------ simulator --app hook (test_sigkill)

def _install_hook():
    import os
    import time

    import blockdev

    path = os.getenv("E2E_OPS")
    stop_at = int(os.getenv("E2E_STOP_AT") or "-1")
    tear = os.getenv("E2E_STOP_MODE") == "tear"
    if not path:
        return
    out = open(path, "ab")  # noqa: SIM115 - unbuffered binary file, held for the process's life
    count = [0]
    cls = blockdev.FileBlockDev
    real_write = cls._write

    def stop(self, addr, data):
        if tear:
            real_write(self, addr, bytes(data[:len(data) // 2]))
        sys.stdout.write("L stop %d\n" % count[0])
        while True:  # the host kills us here
            time.sleep(1)

    def program(self, block, offset, data):
        n = count[0]
        out.write(b"p %d %d %d\n" % (block, offset, len(data)))
        if n == stop_at:
            stop(self, block * self.block_size + offset, data)
        count[0] = n + 1
        real_write(self, block * self.block_size + offset, data)

    def erase(self, block):
        n = count[0]
        out.write(b"e %d\n" % block)
        if n == stop_at:
            stop(self, block * self.block_size, self._erased)
        count[0] = n + 1
        real_write(self, block * self.block_size, self._erased)

    cls._program = program
    cls._erase = erase


def run(board, defaults=None):
    _install_hook()
    import app
    app.run(board, defaults)


if __name__ == "__main__":
    main()
