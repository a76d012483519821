"""The simulator's client: one simulated device, the real firmware on the MicroPython unix
port in its own process, driven over the line protocol described in docs/architecture.md.

Virtual time only moves when we grant it, so a script gives the same frames every run.
Tests use the Sim class directly (`from host_tools.sim import Sim`)."""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from host_tools.common.frames import SHOT_SCALE, Frame, frame_image
from host_tools.common.paths import SIM_DEVICE
from host_tools.common.programs import quick_micropython, required_tool
from host_tools.common.script import GAP_MS, PRESS_MS, button_name, is_steps, parse_script

SIM_MAIN = os.path.join(SIM_DEVICE, "sim_main.py")  # the device side: board, flash, the app


class SimError(RuntimeError):
    """The device process died, hung, or broke the protocol."""

    def __init__(self, message, stderr="", returncode=None):
        super().__init__(message + ("\n" + stderr.rstrip() if stderr else ""))
        self.stderr = stderr
        self.returncode = returncode


def micropython_path():
    return quick_micropython(required_tool("micropython", SimError, "micropython (unix port)"))


class Sim:
    """One simulated device. Commands are batched; frame()/state()/sync() wait.

    flash=None uses a throw-away image file rather than the device's RAM
    disk, so the MicroPython heap (see heapsize) holds only the firmware.
    main_script is the device side's launcher (the bench runs a compiled one)."""

    def __init__(self, board="sim", rules=None, target=None, flash=None, heapsize=None,
                 app=None, screenshot_dir=None, wrap_in=None, timeout=60.0, verbose=False,
                 main_script=SIM_MAIN, options=None, club=None):
        self.timeout = timeout
        self.verbose = verbose
        self.screenshot_dir = screenshot_dir
        self.shots = []  # paths written
        self.log = []  # L lines and stray output
        self.flash_status = None  # "mounted" / "formatted" / "reformatted"
        self.display = (255, True)  # (contrast, on)
        self._frame = None  # (screen, fmt, w, h, hex) of the latest frame
        self._decoded = None
        self._screen = None
        self._seq = 0
        self.frames = 0  # F lines received
        self._token = 0
        self.answered = 0  # highest sync token answered
        self._closed = False
        self._killed = False  # by us: its exit status is no crash
        self._tmpdir = None
        if flash is None:
            self._tmpdir = tempfile.mkdtemp(prefix="sim-flash-")
            flash = os.path.join(self._tmpdir, "flash.img")
        if screenshot_dir:
            os.makedirs(screenshot_dir, exist_ok=True)
        cmd = [micropython_path()]
        if heapsize:
            cmd += ["-X", "heapsize=%s" % heapsize]
        cmd += [main_script, "--board", board, "--flash", os.path.abspath(flash)]
        if app:
            cmd += ["--app", os.path.abspath(app) if app.endswith(".py") else app]
        if club:  # the club's TABLE.json: the link runs, in real time (docs/link.md)
            cmd += ["--club", os.path.abspath(club)]
        if rules is not None:
            cmd += ["--rules", str(rules)]
        if target is not None:
            cmd += ["--target", str(int(target))]
        if options:  # the other rule options of a fresh device (--set)
            cmd += ["--options", json.dumps(options, separators=(",", ":"))]
        if wrap_in is not None:
            cmd += ["--wrap-in", str(int(wrap_in))]
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._stderr, bufsize=1 << 16,
                                     start_new_session=True)  # Ctrl-C is for us, not the device
        self._lines = queue.SimpleQueue()
        # a reader thread, so the device never blocks on a full pipe while
        # we are still writing a long batch of commands
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    # -- sending
    def send(self, *commands):
        """Queue raw protocol lines (no waiting)."""
        try:
            self.proc.stdin.write(("\n".join(commands) + "\n").encode())
        except (BrokenPipeError, ValueError):
            self._died()

    def flush(self):
        """Push queued commands to the device (still no waiting)."""
        try:
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            self._died()

    def down(self, btn):
        self.send("d " + button_name(btn))

    def up(self, btn):
        self.send("u " + button_name(btn))

    def press(self, btn):
        b = button_name(btn)
        self.send("d " + b, "t %d" % PRESS_MS, "u " + b, "t %d" % GAP_MS)

    def hold(self, btn, ms):
        b = button_name(btn)
        self.send("d " + b, "t %d" % ms, "u " + b, "t %d" % GAP_MS)

    def wait(self, ms):
        if ms > 0:
            self.send("t %d" % ms)

    # -- waiting for the device
    def sync(self):
        """Block until the device has done everything sent so far."""
        self._drain(self.request_sync())

    def request_sync(self):
        """Ask for a sync answer without waiting (see poll(), lag())."""
        self._token += 1
        self.send("sync %d" % self._token)
        self.flush()
        return self._token

    def lag(self):
        """Syncs requested and not answered yet (as far as poll() has seen)."""
        return self._token - self.answered

    def frame(self):
        """The current picture as Frame(screen, fmt, w, h, data), or None before the first."""
        self.sync()
        return self.current()

    def current(self):
        """The latest frame received, without syncing."""
        if self._frame is None:
            return None
        if self._decoded is None:
            screen, fmt, w, h, hx = self._frame
            self._decoded = Frame(screen, fmt, w, h, bytes.fromhex(hx))
        return self._decoded

    def state(self):
        """The app's state_json() document, parsed (None if the app has none)."""
        self.send("state")
        self.flush()
        return self._drain("J")[1]

    def screenshot(self, name):
        self.sync()
        return self._save(name + ".png")

    def run_script(self, lines):
        steps = parse_script(lines) if not is_steps(lines) else lines
        for step in steps:
            op = step[1]
            if op == "press":
                self.press(step[2])
            elif op == "hold":
                self.hold(step[2], step[3])
            elif op == "wait":
                self.wait(step[2])
            elif op == "shot":
                self.sync()
                if self.screenshot_dir:
                    self._save(step[2] + ".png")
        self.sync()

    def send_script(self, lines):
        """Queue a script's keys and waits (lines or parsed steps) and push them to the
        device, without waiting for it: the caller lets time run (a device with a club
        link spends it for real) or waits for something else."""
        steps = parse_script(lines) if not is_steps(lines) else lines
        for step in steps:
            if step[1] == "press":
                self.press(step[2])
            elif step[1] == "hold":
                self.hold(step[2], step[3])
            elif step[1] == "wait":
                self.wait(step[2])
        self.flush()

    def cut_after_save(self, lines, op=None):
        """Run a script whose keys save an action, and cut the power right after the
        journal's save (of an action of kind `op` if given), before the device does
        anything else (the `cut` command); the device is killed then. The flash image
        keeps what was written."""
        self.send("cut %s" % op if op else "cut")
        self.send_script(lines)
        deadline = time.monotonic() + self.timeout
        while "cut" not in self.log:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise SimError("the device saved nothing within %.0f s" % self.timeout, self._stderr_text()) from None
            self._handle(line, None)
        self.kill()

    def poll(self):
        """Handle whatever the device has sent, without blocking. True if the frame changed."""
        before = self._frame
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                break
            self._handle(line, None)
        return self._frame is not before

    def _drain(self, until):
        """Handle device output until the answer `until`; SimError after timeout s of silence."""
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self.kill()
                raise SimError("device did not answer within %.0f s (does the app call board.sleep_ms?)"
                               % self.timeout, self._stderr_text()) from None
            got = self._handle(line, until)
            if got is not None:
                return got
            deadline = time.monotonic() + self.timeout  # output is progress

    def _handle(self, line, until):
        if line is None:
            self._died()
        kind = line[:2]
        if kind == b"F ":
            parts = line[2:].rstrip(b"\n").decode().split(" ")
            if len(parts) != 5:
                raise SimError("bad frame line: %r" % line[:80])
            screen, w, h, fmt, hx = parts
            self._frame = (screen, fmt, int(w), int(h), hx)
            self.frames += 1
            self._decoded = None
            if screen != self._screen:
                self._screen = screen
                self._seq += 1
                if self.screenshot_dir:
                    self._save("%03d-%s.png" % (self._seq, screen))
        elif kind == b"D ":
            level, on = line[2:].split()
            self.display = (int(level), on == b"1")
        elif kind == b"S ":
            token = int(line[2:])
            self.answered = max(self.answered, token)
            if until == token:
                return ("S", token)
        elif kind == b"J ":
            doc = json.loads(line[2:])
            if until == "J":
                return ("J", doc)
        else:
            text = line.decode(errors="replace").rstrip("\n")
            text = text[2:] if text.startswith("L ") else text
            if text.startswith("flash "):
                self.flash_status = text[6:]
            self.log.append(text)
            if self.verbose:
                print("device:", text, file=sys.stderr)
        return None

    def _save(self, name):
        fr = self.current()
        if fr is None or not self.screenshot_dir:
            return None
        path = os.path.join(self.screenshot_dir, name)
        frame_image(fr, SHOT_SCALE, *self.display).save(path)
        self.shots.append(path)
        return path

    # -- ending
    def _stderr_text(self):
        self._stderr.seek(0)
        return self._stderr.read().decode(errors="replace")

    def _died(self):
        try:
            rc = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            rc = self.proc.returncode
        # a write that found the pipe closed gets here before the reader has passed on the
        # device's last lines (the unix port prints a MemoryError on stdout): take them too
        self._reader.join(timeout=5)
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                break
            if line is not None and line[:2] not in (b"F ", b"D ", b"S ", b"J "):
                self.log.append(line.decode(errors="replace").rstrip("\n"))
        raise SimError("device process ended (exit status %s)" % rc, self._crash_text(), rc)

    def _crash_text(self):
        """stderr, plus stray stdout lines (the unix port prints some errors there)."""
        stray = [line for line in self.log[-20:] if not line.startswith("flash ")]
        return "\n".join(stray + [self._stderr_text()])

    def kill(self):
        """SIGKILL the device now (as a power cut would stop it)."""
        if self.proc.poll() is None:
            self._killed = True
            self.proc.kill()
            self.proc.wait()

    def close(self):
        """Stop the device; raise SimError if it had crashed. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.proc.poll() is None:
                try:
                    self.proc.stdin.write(b"quit\n")
                    self.proc.stdin.close()
                except (BrokenPipeError, ValueError):
                    pass
            try:
                rc = self.proc.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                rc = self.proc.returncode
            self._reader.join(timeout=5)
            while not self._lines.empty():  # late output, for the error text
                line = self._lines.get()
                if line is not None and line[:2] not in (b"F ", b"D ", b"S ", b"J "):
                    self.log.append(line.decode(errors="replace").rstrip("\n"))
            if rc != 0 and not self._killed:
                raise SimError("device process ended (exit status %s)" % rc, self._crash_text(), rc)
        finally:
            self._stderr.close()
            if self._tmpdir:
                shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.close()
        else:
            self.kill()
            try:
                self.close()
            except SimError:
                pass

