"""The frozen image's heap on the real port: build/coinche-<board>.uf2 on the
emulated Pico (host_tools/rp2emu), for `make bench`.

    python -m host_tools.bench.frozen [--board pico_oled] [--presets classic2000,federation] [--deploy] [--out FILE]

For each preset, on a fresh flash: the UF2 boots (our boot mounts the three
partitions, main.py starts the app); the app is stopped from the REPL, the
game it started is removed (a fresh device, so the preset and a target that
40 deals do not reach apply) and a new App is built on the same board, whose buttons and clock are driven from a
small script on the device (a 40-deal game of the key planner, 40 ms presses
and 60 ms gaps in virtual time, as host_tools/bench/device_side/bench_ui.py does on the unix
port), so the game runs at the emulated CPU's speed with the real display bus
and the real flash.  Figures, all `gc.mem_alloc()` after `gc.collect()` on the
RP2040 (absolute: the runtime, the REPL and the frozen modules' globals
included):

  base        before the App is built (modules imported, the first app dropped)
  boot        live heap after the App has booted and drawn the home screen
  peak        the largest live heap over the game, sampled after every press
  end         live heap after the 40th deal
  heap        the whole heap (gc.mem_alloc() + gc.mem_free())

The measuring script's own bytecode and its event string (about 1.5 KB) are
on the heap throughout; they are part of every figure.
"""
import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile
import time

from host_tools import rp2emu
from host_tools.bench.budgets import GAME_DEALS, GAME_TARGET
from host_tools.bench.games import bench_game
from host_tools.bench.measure import git_commit
from host_tools.common.paths import BUILD, ROOT
from host_tools.common.script import BUTTONS, GAP_MS, PRESS_MS, parse_script

PRESETS = ("classic2000", "federation")
HEAP_BUDGET = 48 * 1024  # live heap peak of a 40-deal game, frozen image, real port

DEVICE_SCRIPT = """
import gc
import board
import os
board.app = None  # the app main.py started (the REPL stopped it)
def empty(path):  # a fresh device: the game main.py started goes, so the defaults below apply
    for entry in os.ilistdir(path):
        name = path + "/" + entry[0]
        if entry[1] == 0x4000:
            empty(name)
            os.rmdir(name)
        else:
            os.remove(name)
for path in ("/data", "/data_a", "/data_b"):
    try:
        empty(path)
    except OSError:
        pass
del empty
gc.collect()
now = [0]
level = bytearray(4)
board.ticks_ms = lambda: now[0]
board.buttons = tuple((lambda i=i: level[i] == 1) for i in range(4))
board.button_pins = None  # no edge interrupts: the buttons above are polled
from app import App
from events.timing import POLL_MS
EVENTS = %(events)r
def run(app, ms):
    for _ in range(ms // POLL_MS):
        now[0] += POLL_MS
        app.poll()
gc.collect()
base = gc.mem_alloc()
app = App(board, %(defaults)r)
run(app, 1000)
gc.collect()
boot = gc.mem_alloc()
peak = boot
presses = 0
i = 0
while i < len(EVENTS):
    button = EVENTS[i]
    i += 1
    ms = 0
    if button >= 4:  # a hold (4 + button) or a wait (255): the time follows
        ms = EVENTS[i] * 256 + EVENTS[i + 1]
        i += 2
        if button == 255:
            run(app, ms)
            continue
        button -= 4
    level[button] = 1
    run(app, ms or %(press)d)
    level[button] = 0
    run(app, %(gap)d)
    presses += 1
    gc.collect()
    used = gc.mem_alloc()
    if used > peak:
        peak = used
run(app, 1000)
gc.collect()
print({"base": base, "boot": boot, "peak": peak, "end": gc.mem_alloc(),
       "heap": gc.mem_alloc() + gc.mem_free(), "presses": presses, "deals": len(app.game.deals)})
"""


def encode_events(lines):
    """Key script lines -> bytes, small on the device's heap: a press is its
    button (0-3); a hold is 4 + button, a wait 255, each followed by 2 bytes of ms."""
    out = bytearray()
    for step in parse_script(lines):
        op = step[1]
        if op == "press":
            button, ms = BUTTONS.index(step[2]), 0
        elif op == "hold":
            button, ms = BUTTONS.index(step[2]), step[3]
        elif op == "wait":
            button, ms = 255, step[2]
        else:
            raise ValueError("line %d: a `%s` line has no meaning on the device" % (step[0], op))
        if button < 4 and ms == 0:
            out.append(button)
        else:
            out += bytes((button if button == 255 else 4 + button, ms >> 8, ms & 0xFF))
    return bytes(out)


def measure(board, uf2, preset, deals=GAME_DEALS, flash=None, deploy=False, then=None):
    """The heap figures (dict) of a `deals`-deal game of `preset` on the UF2
    (deploy: on the stock UF2 after `make deploy`'s .mpy files, for comparison).
    then: code run on the device after the game, in the same session (its `app`, its
    buttons `level` and clock `run(app, ms)`); the last line it prints, read as JSON,
    is figures["then"] ({"error": what the device said} when it raised)."""
    _rules, records, lines, _counts = bench_game(preset, deals)
    code = DEVICE_SCRIPT % {
        "events": encode_events(lines),
        "defaults": {"rules": preset, "target": GAME_TARGET},
        "press": PRESS_MS,
        "gap": GAP_MS,
    }
    scratch = None
    if flash is None:
        scratch = tempfile.mkdtemp(prefix="bench-uf2-")
        flash = os.path.join(scratch, "flash.img")
    started = time.monotonic()
    with rp2emu.Pico(board, flash, uf2=uf2) as pico:
        if deploy:
            pico.deploy()
        pico.wait_for_frame()
        out = pico.exec(code, timeout=1800)
        seconds = time.monotonic() - started  # the game's (what follows is not the bench's)
        after = None
        if then is not None:
            try:
                after = pico.exec(then, timeout=1800)
            except rp2emu.EmulatorError as error:  # the game's figures stand; what raised is told
                after = '{"error": %s}' % json.dumps(str(error)[-3000:])
    if scratch is not None:
        shutil.rmtree(scratch, ignore_errors=True)
    figures = json.loads(out.strip().splitlines()[-1].replace("'", '"'))
    figures["seconds"] = round(seconds, 1)
    figures["records"] = len(records)
    if after is not None:
        figures["then"] = json.loads(after.strip().splitlines()[-1])
    return figures


def report(results, board, uf2):
    kb = lambda n: "%.1f KB" % (n / 1024)  # noqa: E731
    lines = [
        "## Frozen image (UF2) on the real port: heap of a %d-deal game" % GAME_DEALS,
        "",
        "`%s` (%d bytes) on the emulated RP2040 (rp2040js, MicroPython v1.28.0), board `%s`;"
        % (os.path.relpath(uf2, ROOT), os.path.getsize(uf2), board),
        "`gc.mem_alloc()` after `gc.collect()`, sampled after every press (host_tools/bench/frozen.py).",
        "Budget: live heap peak at most %s with the frozen image. The `.mpy` rows: the same game"
        % kb(HEAP_BUDGET),
        "on the stock UF2 after `make deploy` (the modules' bytecode is then on the heap).",
        "Generated by `make bench` (host_tools/bench/frozen.py) on %s at commit `%s`; the figures"
        % (datetime.date.today().isoformat(), git_commit()),
        "include the measuring script's ~1 KB. How they went, and where the heap goes: [heap.md](heap.md).",
        "",
        "| install | preset | heap | before the app | after boot | peak | after 40 deals | presses | real time |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for (install, preset), r in results.items():
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %d | %.0f s |" % (
            install, preset, kb(r["heap"]), kb(r["base"]), kb(r["boot"]), kb(r["peak"]), kb(r["end"]),
            r["presses"], r["seconds"]))
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m host_tools.bench.frozen", description=__doc__.split("\n\n")[0])
    p.add_argument("--board", default="pico_oled")
    p.add_argument("--uf2", default=None, help="default build/coinche-BOARD.uf2")
    p.add_argument("--presets", default=",".join(PRESETS))
    p.add_argument("--out", default=None, help="write the table (Markdown) here")
    p.add_argument("--deploy", action="store_true",
                   help="also the same game on the stock UF2 after make deploy (.mpy), for comparison")
    o = p.parse_args(argv)
    uf2 = o.uf2 or os.path.join(BUILD, "coinche-%s.uf2" % o.board)
    if not os.path.exists(uf2):
        print("bench_uf2: skipped: %s is not built (make uf2 BOARD=%s MICROPYTHON_SRC=...)"
              % (os.path.relpath(uf2, ROOT), o.board), file=sys.stderr)
        return 0
    reason = rp2emu.missing(uf2)
    if reason:
        print("bench_uf2: skipped: %s" % reason, file=sys.stderr)
        return 0
    results = {}
    for preset in o.presets.split(","):
        results[("UF2 (frozen)", preset)] = measure(o.board, uf2, preset)
        print("bench_uf2: frozen %s %s" % (preset, json.dumps(results[("UF2 (frozen)", preset)])), file=sys.stderr)
    if o.deploy:
        stock = rp2emu.uf2_path()
        if rp2emu.missing(stock):
            print("bench_uf2: .mpy comparison skipped: %s" % rp2emu.missing(stock), file=sys.stderr)
        else:
            for preset in o.presets.split(","):
                results[(".mpy (make deploy)", preset)] = measure(o.board, stock, preset, deploy=True)
                print("bench_uf2: mpy %s %s" % (preset, json.dumps(results[(".mpy (make deploy)", preset)])),
                      file=sys.stderr)
    text = report(results, o.board, uf2)
    if o.out:
        with open(o.out, "w") as f:
            f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
