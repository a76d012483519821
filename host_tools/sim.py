"""The scoreboard simulator: real firmware on the MicroPython unix port.

    python3 -m host_tools.sim                       interactive, in the terminal
    python3 -m host_tools.sim --script FILE [...]   headless, scripted

The device side (host_tools/mp/sim_main.py) runs in its own micropython
process; this module drives it over the line protocol described in
docs/architecture.md. Virtual time only moves when we grant it, so a
script gives the same frames every run. Tests use the Sim class directly.
"""
import argparse
import json
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import NamedTuple

from host_tools.tools import required_tool

FIRMWARE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if FIRMWARE_DIR not in sys.path:  # the scoring core, for checking --rules/--target
    sys.path.insert(0, FIRMWARE_DIR)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM_MAIN = os.path.join(ROOT, "host_tools", "mp", "sim_main.py")
BUTTONS = ("UP", "DOWN", "OK", "BACK")
PRESS_MS = 40  # a scripted press: down this long,
GAP_MS = 60  # then up this long before the next event
SHOT_SCALE = 4


class SimError(RuntimeError):
    """The device process died, hung, or broke the protocol."""

    def __init__(self, message, stderr="", returncode=None):
        super().__init__(message + ("\n" + stderr.rstrip() if stderr else ""))
        self.stderr = stderr
        self.returncode = returncode


class ScriptError(ValueError):
    """A script line that cannot be understood; names the line number."""


class Frame(NamedTuple):
    screen: str
    fmt: str  # "mono" (MONO_VLSB bytes) or "rgb565" (row-major, big-endian)
    w: int
    h: int
    data: bytes


def micropython_path():
    return required_tool("micropython", SimError, "micropython (unix port)")


# ------------------------------------------------------------------ flash image

# The device's storage region (docs/storage.md): 352 blocks of 4096 bytes, one
# littlefs today; decision D1 splits it into three littlefs partitions starting
# at blocks 0 (user filesystem), 160 (data A) and 256 (data B).
FLASH_BLOCK_SIZE = 4096
FLASH_BLOCK_COUNT = 352
PARTITION_FIRST_BLOCKS = (0, 160, 256)
LITTLEFS_MAGIC = b"littlefs"  # at byte 8 of either superblock (the first two blocks)
_MAGIC_OFFSET = 8


def flash_image_problem(path):
    """None if `path` may be used as the simulator's flash image, else why not.

    A missing or empty file is fine (a new image), and so is one of the
    device's size that holds a littlefs superblock at a partition start or is
    still blank (all 0x00 or 0xFF, as the simulator creates it). Anything
    else was not made by the simulator: mounting would format it."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    if os.path.isdir(path):
        return "it is a directory"
    if size == 0:
        return None
    expected = FLASH_BLOCK_SIZE * FLASH_BLOCK_COUNT
    if size != expected:
        return "it is %d bytes, a flash image is %d (%d blocks of %d)" % (
            size, expected, FLASH_BLOCK_COUNT, FLASH_BLOCK_SIZE)
    try:
        with open(path, "rb") as f:
            blank = True
            for first in PARTITION_FIRST_BLOCKS:
                for block in (first, first + 1):
                    f.seek(block * FLASH_BLOCK_SIZE)
                    data = f.read(FLASH_BLOCK_SIZE)
                    if data[_MAGIC_OFFSET:_MAGIC_OFFSET + len(LITTLEFS_MAGIC)] == LITTLEFS_MAGIC:
                        return None
                    if first == 0 and data.strip(b"\x00") and data.strip(b"\xff"):
                        blank = False
    except OSError as e:
        return "cannot read it (%s)" % (e.strerror or e)
    if blank:
        return None
    return "it holds no littlefs superblock at block %s" % ", ".join(str(b) for b in PARTITION_FIRST_BLOCKS)


def start_blank_image(path):
    """Make `path` a blank image of the device's size (zeros: the device
    formats it at its first start), whatever it held."""
    with open(path, "wb") as f:
        f.truncate(FLASH_BLOCK_SIZE * FLASH_BLOCK_COUNT)


# ------------------------------------------------------------------ scripts

_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")


def parse_script(lines):
    """Script text (lines) -> [(lineno, op, arg...)]; ScriptError on a bad line.

    ops: ("press", BTN), ("hold", BTN, ms), ("wait", ms), ("shot", NAME)."""
    steps = []
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        op = words[0].lower()
        try:
            if op.upper() in BUTTONS and len(words) == 1:
                steps.append((n, "press", op.upper()))
            elif op == "hold" and len(words) == 3 and words[1].upper() in BUTTONS:
                steps.append((n, "hold", words[1].upper(), _ms(words[2])))
            elif op == "wait" and len(words) == 2:
                steps.append((n, "wait", _ms(words[1])))
            elif op == "shot" and len(words) == 2 and _NAME_RE.match(words[1]):
                steps.append((n, "shot", words[1]))
            else:
                raise ValueError("expected up|down|ok|back, hold BUTTON MS, wait MS or shot NAME (see --help)")
        except ValueError as e:
            raise ScriptError("line %d: %s: %r" % (n, e, raw.rstrip("\n"))) from None
    return steps


def _ms(word):
    if not word.isdigit():
        raise ValueError("milliseconds must be a whole number, got %r" % word)
    return int(word)


# ------------------------------------------------------------------ images

def _pixels_mono(frame):
    """MONO_VLSB -> one byte per pixel (0/1), row-major."""
    w, h, data = frame.w, frame.h, frame.data
    out = bytearray(w * h)
    for page in range(h // 8):
        row = data[page * w:(page + 1) * w]
        for bit in range(8):
            y = page * 8 + bit
            if y >= h:
                break
            base = y * w
            mask = 1 << bit
            for x, b in enumerate(row):
                if b & mask:
                    out[base + x] = 1
    return out


def _rgb565(hi, lo):
    v = (hi << 8) | lo
    return ((v >> 11) & 31) * 255 // 31, ((v >> 5) & 63) * 255 // 63, (v & 31) * 255 // 31


def _brightness(level, on):
    """Lit-pixel brightness 0..255: an OLED at contrast 0 is dim, not dark."""
    return 0 if not on else 64 + 191 * level // 255


def frame_image(frame, scale=SHOT_SCALE, level=255, on=True):
    """A PIL image of a frame as the panel would show it (dimmed, or dark when off)."""
    from PIL import Image

    bright = _brightness(level, on)
    if frame.fmt == "mono":
        px = _pixels_mono(frame)
        lut = bytes((0, bright)) + bytes(254)
        img = Image.frombytes("L", (frame.w, frame.h), bytes(px.translate(lut)))
    elif frame.fmt == "rgb565":
        d = frame.data
        rgb = bytearray()
        for i in range(0, frame.w * frame.h * 2, 2):
            rgb += bytes(c * bright // 255 for c in _rgb565(d[i], d[i + 1]))
        img = Image.frombytes("RGB", (frame.w, frame.h), bytes(rgb))
    else:
        raise ValueError("unknown frame format %r" % frame.fmt)
    if scale != 1:
        img = img.resize((frame.w * scale, frame.h * scale), Image.NEAREST)
    return img


# ------------------------------------------------------------------ the device

class Sim:
    """One simulated device. Commands are batched; frame()/state()/sync() wait.

    flash=None uses a throw-away image file rather than the device's RAM
    disk, so the MicroPython heap (see heapsize) holds only the firmware."""

    def __init__(self, board="sim", rules=None, target=None, flash=None, heapsize=None,
                 app=None, screenshot_dir=None, wrap_in=None, timeout=60.0, verbose=False):
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
        cmd += [SIM_MAIN, "--board", board, "--flash", os.path.abspath(flash)]
        if app:
            cmd += ["--app", os.path.abspath(app) if app.endswith(".py") else app]
        if rules is not None:
            cmd += ["--rules", str(rules)]
        if target is not None:
            cmd += ["--target", str(int(target))]
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
        self.send("d " + _button(btn))

    def up(self, btn):
        self.send("u " + _button(btn))

    def press(self, btn):
        b = _button(btn)
        self.send("d " + b, "t %d" % PRESS_MS, "u " + b, "t %d" % GAP_MS)

    def hold(self, btn, ms):
        b = _button(btn)
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
        steps = parse_script(lines) if not _is_steps(lines) else lines
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


def _button(btn):
    b = btn.upper()
    if b not in BUTTONS:
        raise ValueError("unknown button %r" % btn)
    return b


def _is_steps(lines):
    return isinstance(lines, list) and lines and isinstance(lines[0], tuple)


# ------------------------------------------------------------------ terminal

_HALF = (" ", "\u2580", "\u2584", "\u2588")  # (top, bottom) bits: none, top, bottom, both
# 2x2 pixels per cell, index = tl | tr << 1 | bl << 2 | br << 3
_QUAD = " \u2598\u259d\u2580\u2596\u258c\u259e\u259b\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588"
# 2x4 pixels per cell: Unicode braille, dot bit of the pixel at (column, row) in the cell
_BRAILLE_BASE = 0x2800
_BRAILLE_BIT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][column]

# Renderings, least dense first: (name, pixels per cell across, down). The
# terminal shows the first that fits; all three show every pixel (in colour a
# braille cell has one colour for its lit dots). When even braille does not fit,
# each braille dot stands for a step x step block of pixels (lit if any is).
HALF_BLOCKS = ("half blocks", 1, 2)
QUADRANTS = ("quadrants", 2, 2)
BRAILLE = ("braille", 2, 4)
STATUS_LINES = 2  # under the picture: the status line and the key legend


def box_size(w, h, mode, step=1):
    """Terminal columns and rows a w x h frame needs in `mode`, box and status lines included."""
    _, across, down = mode
    return -(-w // (across * step)) + 2, -(-h // (down * step)) + 2 + STATUS_LINES


def choose_rendering(w, h, fmt, cols=None, rows=None):
    """(mode, step) for a frame in a cols x rows terminal: the biggest picture that fits.

    Mono frames try half blocks, quadrants, then braille; colour frames half
    blocks (two colours per cell), then braille (every pixel's place, one
    colour per cell). step > 1 only when even that does not fit."""
    modes = (HALF_BLOCKS, QUADRANTS, BRAILLE) if fmt == "mono" else (HALF_BLOCKS, BRAILLE)
    if cols is None or rows is None:
        return modes[0], 1
    for mode in modes:
        need_cols, need_rows = box_size(w, h, mode)
        if need_cols <= cols and need_rows <= rows:
            return mode, 1
    step = 2
    while True:
        need_cols, need_rows = box_size(w, h, BRAILLE, step)
        if (need_cols <= cols and need_rows <= rows) or step >= max(w, h):
            return BRAILLE, step
        step += 1


def full_size(w, h):
    """The smallest terminal (columns, rows) that shows every pixel in half blocks."""
    return box_size(w, h, HALF_BLOCKS)


def _mono_bit(data, w, x, y):
    return (data[(y >> 3) * w + x] >> (y & 7)) & 1


def _mono_grid(frame, step):
    """Rows of 0/1 pixels; with step > 1 one per step x step block, lit if any pixel is."""
    w, h, data = frame.w, frame.h, frame.data
    if step == 1:
        px = _pixels_mono(frame)
        return [px[y * w:(y + 1) * w] for y in range(h)], w, h
    gw, gh = -(-w // step), -(-h // step)
    grid = [bytearray(gw) for _ in range(gh)]
    for y in range(h):
        row = grid[y // step]
        for x in range(w):
            if _mono_bit(data, w, x, y):
                row[x // step] = 1
    return grid, gw, gh


def _cell_bits(grid, gw, gh, x0, y0, across, down):
    """The lit pixels of one cell as a list of (column, row) inside the cell."""
    out = []
    for dy in range(down):
        y = y0 + dy
        if y >= gh:
            break
        row = grid[y]
        for dx in range(across):
            x = x0 + dx
            if x < gw and row[x]:
                out.append((dx, dy))
    return out


def _mono_lines(grid, gw, gh, mode):
    name, across, down = mode
    lines = []
    for y0 in range(0, gh, down):
        cells = []
        for x0 in range(0, gw, across):
            lit = _cell_bits(grid, gw, gh, x0, y0, across, down)
            if name == "braille":
                code = 0
                for dx, dy in lit:
                    code |= _BRAILLE_BIT[dy][dx]
                cells.append(chr(_BRAILLE_BASE + code) if code else " ")
            elif name == "quadrants":
                i = 0
                for dx, dy in lit:
                    i |= 1 << (dx + 2 * dy)
                cells.append(_QUAD[i])
            else:
                i = 0
                for _, dy in lit:
                    i |= 1 << dy
                cells.append(_HALF[i])
        lines.append("".join(cells))
    return lines


def render_frame(frame, cols=None, rows=None, level=255, on=True, colour=True):
    """The frame inside a box, as terminal lines (pure: no I/O).

    cols x rows is the whole terminal (the box plus STATUS_LINES lines under
    it); choose_rendering() picks how many pixels share a character cell."""
    w, h, data = frame.w, frame.h, frame.data
    mode, step = choose_rendering(w, h, frame.fmt, cols, rows)
    dim = colour and on and level < 255
    if frame.fmt == "mono":
        if not on:
            need_cols, need_rows = box_size(w, h, mode, step)
            body = [" " * (need_cols - 2)] * (need_rows - 2 - STATUS_LINES)
        else:
            body = _mono_lines(*_mono_grid(frame, step), mode)
        if dim:
            g = _brightness(level, on)
            body = ["\x1b[38;2;%d;%d;%dm%s\x1b[39m" % (g, g, g, line) for line in body]
    elif frame.fmt == "rgb565":
        bright = _brightness(level, on)
        if mode is HALF_BLOCKS:
            body = _rgb_half_lines(data, w, h, bright)
        else:
            body = _rgb_braille_lines(data, w, h, step, bright)
    else:
        raise ValueError("unknown frame format %r" % frame.fmt)
    inner = box_size(w, h, mode, step)[0] - 2
    top = "\u250c" + "\u2500" * inner + "\u2510"
    bottom = "\u2514" + "\u2500" * inner + "\u2518"
    return [top] + ["\u2502" + line + "\u2502" for line in body] + [bottom]


def _scaled(c, bright):
    r, g, b = c
    if bright != 255:
        r, g, b = r * bright // 255, g * bright // 255, b * bright // 255
    return r, g, b


def _rgb_half_lines(data, w, h, bright):
    body = []
    for y in range(0, h, 2):
        out = []
        prev = None
        for x in range(w):
            i = (y * w + x) * 2
            top = _scaled(_rgb565(data[i], data[i + 1]), bright)
            if y + 1 < h:
                i += w * 2
                bot = _scaled(_rgb565(data[i], data[i + 1]), bright)
            else:
                bot = (0, 0, 0)
            if (top, bot) != prev:
                out.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (top + bot))
                prev = (top, bot)
            out.append("\u2580")
        out.append("\x1b[0m")
        body.append("".join(out))
    return body


def _rgb_braille_lines(data, w, h, step, bright):
    """Braille cells in colour: a cell's background is the frame's background
    colour if the cell shows any of it (else the cell's most common colour); its
    dots are the other pixels, drawn in their most common colour. With step > 1
    a dot stands for a step x step block, taking the block's first pixel that
    is not the frame's background (so thin lines and text survive)."""
    values = [(data[i] << 8) | data[i + 1] for i in range(0, w * h * 2, 2)]
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    background = max(counts, key=counts.get)
    gw, gh = -(-w // step), -(-h // step)
    if step == 1:
        grid = [values[y * w:(y + 1) * w] for y in range(h)]
    else:
        grid = []
        for gy in range(gh):
            row = []
            for gx in range(gw):
                v = background
                for y in range(gy * step, min(h, (gy + 1) * step)):
                    for x in range(gx * step, min(w, (gx + 1) * step)):
                        if values[y * w + x] != background:
                            v = values[y * w + x]
                            break
                    if v != background:
                        break
                row.append(v)
            grid.append(row)
    body = []
    for y0 in range(0, gh, 4):
        out = []
        prev = None
        for x0 in range(0, gw, 2):
            cell = {}
            for dy in range(4):
                if y0 + dy < gh:
                    row = grid[y0 + dy]
                    for dx in range(2):
                        if x0 + dx < gw:
                            cell[(dx, dy)] = row[x0 + dx]
            tally = {}
            for v in cell.values():
                tally[v] = tally.get(v, 0) + 1
            back = background if background in tally else max(tally, key=tally.get)
            others = {v: n for v, n in tally.items() if v != back}
            fore = max(others, key=others.get) if others else back
            code = 0
            for (dx, dy), v in cell.items():
                if v != back:
                    code |= _BRAILLE_BIT[dy][dx]
            colours = _scaled(_rgb565(fore >> 8, fore & 255), bright) + _scaled(_rgb565(back >> 8, back & 255), bright)
            if colours != prev:
                out.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % colours)
                prev = colours
            out.append(chr(_BRAILLE_BASE + code) if code else " ")
        out.append("\x1b[0m")
        body.append("".join(out))
    return body


_KEYS_CSI = {ord("A"): "UP", ord("B"): "DOWN", ord("C"): "OK", ord("D"): "BACK"}


def parse_keys(data):
    """Raw terminal bytes -> button names, "QUIT" for q. Lone Esc is BACK."""
    out = []
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x1B:
            if i + 1 < n and data[i + 1] in (ord("["), ord("O")):
                j = i + 2
                while j < n and not 0x40 <= data[j] <= 0x7E:  # parameters of the sequence
                    j += 1
                if j < n and data[j] in _KEYS_CSI:
                    out.append(_KEYS_CSI[data[j]])
                i = j + 1
                continue
            out.append("BACK")
        elif c in (0x0D, 0x0A):
            out.append("OK")
        elif c in (0x7F, 0x08):
            out.append("BACK")
        elif c in (ord("q"), ord("Q")):
            out.append("QUIT")
        i += 1
    return out


class KeyTracker:
    """Terminal keystrokes -> button down/up commands (pure; time is passed in).

    A terminal reports no key release, only the keystroke and, while a key
    is held, auto-repeats after an initial delay (250-700 ms, terminal
    dependent) at 20-40 per second. A lone keystroke has to wait out that
    delay before we know it was not a hold, so while it is undecided
    (`frozen`) the caller stops granting virtual time: the app sees an
    exact short press (PRESS_MS) whatever the wait, and a hold that starts
    at the first keystroke. Repeats arriving within confirm_ms of each
    other mean auto-repeat; the button is released release_ms after the
    last one. first_ms is learnt from the first hold (its repeat delay).

    Order: every keystroke's commands are emitted when it arrives, after
    those of the keystrokes before it (another key settles a pending tap at
    once), and every release is followed by GAP_MS, so the device sees the
    keys in typing order however fast they come."""

    IDLE, TAPPED, PROBE, HELD = range(4)

    def __init__(self, first_ms=700, confirm_ms=80, release_ms=150):
        self.first_ms = first_ms
        self.confirm_ms = confirm_ms
        self.release_ms = release_ms
        self.state = self.IDLE
        self.btn = None
        self.t0 = 0  # first keystroke
        self.t1 = 0  # latest keystroke

    @property
    def frozen(self):
        return self.state in (self.TAPPED, self.PROBE)

    @property
    def held(self):
        return self.btn if self.state != self.IDLE else None

    def key(self, btn, now):
        if self.state != self.IDLE and btn == self.btn:
            if self.state == self.TAPPED:
                self.state = self.PROBE
            elif self.state == self.PROBE:
                if now - self.t1 <= self.confirm_ms:
                    self.first_ms = min(1000, max(250, self.t1 - self.t0 + 150))
                    self.state = self.HELD
                else:
                    out = self._finish()
                    return out + self.key(btn, now)
            self.t1 = now
            return []
        out = self._finish()
        self.state = self.TAPPED
        self.btn = btn
        self.t0 = self.t1 = now
        return out + ["d " + btn, "t %d" % PRESS_MS]

    def tick(self, now):
        s = self.state
        if (s == self.TAPPED and now - self.t0 >= self.first_ms
                or s == self.PROBE and now - self.t1 > self.confirm_ms
                or s == self.HELD and now - self.t1 > self.release_ms):
            return self._finish()
        return []

    def finish(self):
        """Commands that end whatever is pending (a tap, a probe, a hold), as at quit."""
        return self._finish()

    def _finish(self):
        """Release whatever is down; a probe that was not confirmed was two taps."""
        s, b = self.state, self.btn
        self.state = self.IDLE
        self.btn = None
        if s == self.IDLE:
            return []
        # GAP_MS after every release: a release and the next key's press at
        # the same instant would reach the app in button order, not typing
        # order (the firmware polls UP, DOWN, OK, BACK in turn, and UP/DOWN
        # act on the press, OK/BACK on the release)
        if s == self.PROBE:
            return ["u " + b, "t %d" % GAP_MS, "d " + b, "t %d" % PRESS_MS, "u " + b, "t %d" % GAP_MS]
        return ["u " + b, "t %d" % GAP_MS]


LEGEND = "\u2191/\u2193 UP/DOWN   Enter/\u2192 OK   Bksp/Esc/\u2190 BACK   q quit"


def size_note(frame, cols, rows):
    """What the status line says about the rendering in a cols x rows terminal."""
    (name, across, down), step = choose_rendering(frame.w, frame.h, frame.fmt, cols, rows)
    full_cols, full_rows = full_size(frame.w, frame.h)
    if step == 1 and across == 1:
        return ""
    if step == 1:
        shown = "%s %dx%d px/char" % (name, across, down)
    else:
        shown = "%s, %dx%d px merged per dot" % (name, step, step)
    return "  [%s; %dx%d or more: every pixel]" % (shown, full_cols, full_rows)


def _screen_lines(sim, cols, rows, tracker):
    fr = sim.current()
    level, on = sim.display
    if fr is None:
        lines = ["(waiting for the first frame)"]
    else:
        lines = render_frame(fr, cols, rows, level, on)
    screen = fr.screen if fr else "-"
    held = tracker.held
    status = "screen: %s" % screen
    if fr is not None:
        status += size_note(fr, cols, rows)
    if not on:
        status += "   (display off)"
    elif level < 255:
        status += "   (contrast %d)" % level
    if held:
        status += "   [%s]" % held
    # a line wider than the terminal would wrap and push the picture up
    return lines + [status[:cols], LEGEND[:cols]]


def interactive(sim, out=None, tick_ms=20):
    """Drive sim from the keyboard in real time until q / Ctrl-C."""
    import termios
    import tty

    out = out or sys.stdout
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tracker = KeyTracker()
    start = time.monotonic()
    granted = 0
    size = None
    old_term = signal.getsignal(signal.SIGTERM)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        tty.setcbreak(fd)  # keys unbuffered, no echo; Ctrl-C still interrupts
        out.write("\x1b[?1049h\x1b[?25l\x1b[2J")
        out.flush()
        dirty = True
        while True:
            ready, _, _ = select.select([fd], [], [], tick_ms / 1000)
            now = int((time.monotonic() - start) * 1000)
            cmds = []
            if ready:
                data = os.read(fd, 256)
                if not data:  # the terminal went away
                    break
                keys = parse_keys(data)
                quit_now = "QUIT" in keys
                for k in keys[:keys.index("QUIT")] if quit_now else keys:
                    cmds += tracker.key(k, now)
                if quit_now:
                    # the keys typed before q still reach the device, in order
                    cmds += tracker.finish()
                    sim.send(*cmds)
                    sim.sync()
                    break
                dirty = True
            released = tracker.tick(now)
            if released:
                cmds += released
                dirty = True
            granted += sum(int(c[2:]) for c in cmds if c.startswith("t "))
            owed = now - granted
            # grant real time, unless a keystroke is undecided or the device lags behind
            if not tracker.frozen and owed >= tick_ms and sim.lag() < 3:
                cmds.append("t %d" % owed)
                granted += owed
            if cmds:
                sim.send(*cmds)
                sim.request_sync()
            if sim.poll():
                dirty = True
            cur = shutil.get_terminal_size((80, 24))
            if cur != size:
                size = cur
                dirty = True
                out.write("\x1b[2J")
            if dirty:
                dirty = False
                lines = _screen_lines(sim, size.columns, size.lines, tracker)
                out.write("\x1b[H" + "\x1b[K\r\n".join(line for line in lines) + "\x1b[K\x1b[J")
                out.flush()
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        out.flush()
        signal.signal(signal.SIGTERM, old_term)


# ------------------------------------------------------------------ command line

SCRIPT_HELP = """\
script language (--script FILE, or a script on stdin), one event per line:
  up | down | ok | back   a short press: the button down %(press)d ms, then up %(gap)d ms
  hold KEY MS             KEY (up, down, ok, back) held down MS ms, then up %(gap)d ms,
                          e.g. "hold ok 1200" (a long OK) or "hold up 2000" (repeat)
  wait MS                 MS ms pass with no button down (e.g. "wait 130000")
  shot NAME               save the current picture as NAME.png in --screenshot-dir
                          (NAME: letters, digits, _ . -)
  # text                  a comment, alone or after an event; blank lines are skipped
Names are case-insensitive; MS is a whole number of milliseconds. Virtual time
only moves with these events, so a script gives the same pictures every run.
A bad line stops the run before it starts, naming the line.

interactive keys (a terminal, no --script): arrow up/down = UP/DOWN,
Enter or arrow right = OK, Backspace, Esc or arrow left = BACK, q quits.
A terminal reports no key release: to hold a button, hold its key down until
the terminal auto-repeats; the button is released %(release)d ms after the last
repeat. A single keystroke is an exact %(press)d ms press; keys always reach the
device in the order they were typed.

terminal size: the %(oled)s OLED shows every pixel as blocks in a %(oled_size)s
terminal, the %(pack)s Display Pack in %(pack_size)s; smaller terminals get 2x2
pixels (quadrants) or 2x4 pixels (braille) per character: %(braille_size)s is enough to
see every OLED pixel in braille, so 80x24 is fine; the status line says when a
smaller rendering is in use.
"""


def script_help():
    return SCRIPT_HELP % {
        "press": PRESS_MS, "gap": GAP_MS, "release": KeyTracker().release_ms,
        "oled": "128x64", "oled_size": "%dx%d" % full_size(128, 64),
        "pack": "240x135", "pack_size": "%dx%d" % full_size(240, 135),
        "braille_size": "%dx%d" % box_size(128, 64, BRAILLE)}


# -- the command line, shared with the emulated Pico (python -m host_tools.rp2emu) ----

class OptionError(ValueError):
    """A command-line option that cannot be used; the message names the option (or the
    script's file and line)."""


def device_parser(prog, board, board_help, screenshots_help, timeout, **parser_options):
    """An argparse parser with the options every way of running the scoreboard on the host
    takes (the simulator, the emulated Pico): --board, --script, --state-out, --rules,
    --target, --screenshot-dir, --timeout, -v. The tool adds its own; checked_options()
    checks them."""
    p = argparse.ArgumentParser(prog=prog, **parser_options)
    p.add_argument("--board", default=board, help=board_help)
    p.add_argument("--script", help="press the keys of this script, headless ('-' = stdin)")
    p.add_argument("--state-out", help="write the app's state JSON here when the run ends")
    p.add_argument("--rules", help="rules preset for a fresh device (%s)" % ", ".join(_presets()))
    p.add_argument("--target", help="target score for a fresh device (100..99990)")
    p.add_argument("--screenshot-dir", help=screenshots_help)
    p.add_argument("--timeout", type=float, default=timeout, help="seconds to wait for the device")
    p.add_argument("-v", "--verbose", action="store_true", help="show device log lines")
    return p


def checked_options(args, tool, script):
    """Checks the options of device_parser(): --rules and --target become what the device
    takes (the target an int); the key script (script: a file, '-' for stdin, None for
    none) is read. Returns its steps (None without a script), or raises OptionError.
    tool names the program in the note about `shot` lines without --screenshot-dir."""
    from coinche.rules import RulesError
    try:
        args.rules, args.target = check_rules(args.rules, args.target)
    except RulesError as e:
        raise OptionError("--%s" % e) from None
    if script is None:
        return None
    try:
        if script == "-":
            text = sys.stdin.read().splitlines()
        else:
            with open(script, encoding="utf-8") as f:
                text = f.read().splitlines()
        steps = parse_script(text)
    except OSError as e:
        raise OptionError(str(e)) from None
    except ScriptError as e:
        raise OptionError("%s: %s" % (script, e)) from None
    if not args.screenshot_dir and any(step[1] == "shot" for step in steps):
        print("%s: note: `shot` lines save nothing without --screenshot-dir" % tool, file=sys.stderr)
    return steps


def write_state(path, doc):
    """--state-out: the app's state as the simulator writes it (sorted, indented JSON)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")


def _parser():
    p = device_parser("python3 -m host_tools.sim", "sim", "board (sim, or one hwsim.py knows)",
                      "PNG per screen change and per `shot NAME`", 60.0,
                      description=__doc__.split("\n")[0], epilog=script_help(),
                      formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--flash", help="flash image file, kept between runs (created if missing; "
                   "a file that is not a flash image is refused)")
    p.add_argument("--format", action="store_true",
                   help="start the --flash file over as a blank image, whatever it holds (all of it is lost)")
    p.add_argument("--heapsize", help="MicroPython heap, e.g. 200000 or 192k")
    p.add_argument("--app", help="app module or .py file (default app)")
    return p


def _presets():
    from coinche.rules import PRESET_NAMES
    return PRESET_NAMES


def check_rules(preset, target):
    """(preset, target as int) for the device, or RulesError with a clear message."""
    from coinche.rules import DEFAULT_PRESET, Rules, RulesError
    from host_tools.rules_help import parse_value

    options = {}
    if target is not None:
        options["target"] = parse_value("target", target.strip())
    if preset is not None and preset not in _presets():
        from coinche.record import suggest
        hint = suggest(preset, _presets())
        raise RulesError("rules", "unknown preset %r%s (presets: %s)" % (
            preset, " - did you mean %r?" % hint if hint else "", ", ".join(_presets())))
    Rules(preset or DEFAULT_PRESET, options)  # the target's range
    return preset, options.get("target")


def main(argv=None):
    args = _parser().parse_args(argv)
    script = args.script
    if script is None and not sys.stdin.isatty():
        script = "-"
    try:
        steps = checked_options(args, "sim", script)
    except OptionError as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    if args.flash and args.format:
        try:
            start_blank_image(args.flash)
        except OSError as e:
            print("sim: cannot write %s: %s" % (args.flash, e.strerror or e), file=sys.stderr)
            return 2
    elif args.flash:
        problem = flash_image_problem(args.flash)
        if problem is None and os.path.isfile(args.flash) and os.path.getsize(args.flash) == 0:
            start_blank_image(args.flash)  # an empty file holds nothing to lose
        if problem:
            print("sim: %s is not a flash image made by the simulator: %s.\n"
                  "sim: it was left untouched; choose another --flash file, or add --format "
                  "to start this one over as a blank image (all of it is lost)" % (args.flash, problem),
                  file=sys.stderr)
            return 2
    sim = None
    try:
        sim = Sim(board=args.board, rules=args.rules, target=args.target, flash=args.flash,
                  heapsize=args.heapsize, app=args.app, screenshot_dir=args.screenshot_dir,
                  timeout=args.timeout, verbose=args.verbose)
        if steps is None:
            interactive(sim)
        else:
            sim.run_script(steps)
        if args.state_out:
            write_state(args.state_out, sim.state())
        sim.close()
    except SimError as e:
        if sim is not None:
            sim.kill()
        print("sim: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
