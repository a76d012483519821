"""Figure 9, the real port: the stock rp2 MicroPython on the emulated RP2040 (125 MHz).

    measure(log) -> dict       (host_tools/bench/table.py renders it as figure 9)

The firmware is deployed as make deploy does (.mpy for armv6m), then main.py runs
with a thin layer around the app, loaded from the REPL (nothing of it is in the
firmware): it times every render (drawing, then the display transfer), the
longest stretch between two polls (a render, a save, a collection: the app sees
no key then), and every few polls collects the garbage to sample the live heap
and time a full collection.  Keys are pressed on the GPIO pins at 30 ms / 30 ms
for the 40-deal game; press-to-pixels is measured on one deal with the keys
apart, from the edge that acts (the press for UP/DOWN, the release for OK/BACK)
to the end of the picture it caused (the first show() after the app took the key),
on each board's own bus.
"""
import ast
import os
import re
import shutil
import statistics
import tempfile

from coinche.game import Game

from host_tools.bench.budgets import GAME_DEALS
from host_tools.bench.games import bench_game
from host_tools.calculator.keys import deal_scripts
from host_tools.common.script import parse_script
from host_tools.rp2emu import EmulatorError, Pico, missing

SAMPLE_EVERY = 8  # polls between two live-heap samples (each a gc.collect())

# Loaded on the device from the REPL, then main.py's own lines: the measuring layer.
INSTRUMENT = """
import gc, time, board
import app as app_module
bench = {"render": {}, "show_max": 0, "gap_max": 0, "gap_screen": "-", "gc_max": 0, "live_max": 0,
         "free_min": 1 << 30, "polls": 0, "last": time.ticks_us()}
gc.collect()
bench["boot_free"] = gc.mem_free()
bench["boot_live"] = gc.mem_alloc()
_render = app_module.App.render
_show = board.display.show
_sleep = board.sleep_ms
def _timed_show():
    t = time.ticks_us()
    _show()
    d = time.ticks_diff(time.ticks_us(), t)
    bench["show"] = d
    if d > bench["show_max"]:
        bench["show_max"] = d
board.display.show = _timed_show
def _timed_render(self):
    bench["show"] = 0
    t = time.ticks_us()
    _render(self)
    d = time.ticks_diff(time.ticks_us(), t)
    r = bench["render"].get(self.view.name)
    if r is None:
        r = bench["render"][self.view.name] = [0, 0, 0, 0]
    draw = d - bench["show"]
    r[0] += 1
    r[1] += draw
    r[2] = max(r[2], draw)
    r[3] = max(r[3], bench["show"])
app_module.App.render = _timed_render
def _sleep_ms(ms):
    now = time.ticks_us()
    gap = time.ticks_diff(now, bench["last"])
    if gap > bench["gap_max"] and bench["polls"] > 1:
        bench["gap_max"] = gap
        bench["gap_screen"] = board.app.view.name if getattr(board, "app", None) else "-"
    bench["polls"] += 1
    free = gc.mem_free()
    if free < bench["free_min"]:
        bench["free_min"] = free
    if bench["polls"] % %(every)d == 0:
        t = time.ticks_us()
        gc.collect()
        d = time.ticks_diff(time.ticks_us(), t)
        if d > bench["gc_max"]:
            bench["gc_max"] = d
        live = gc.mem_alloc()
        if live > bench["live_max"]:
            bench["live_max"] = live
        if bench["polls"] == %(every)d:
            bench["app_live"] = live
    _sleep(ms)
    bench["last"] = time.ticks_us()
board.sleep_ms = _sleep_ms
"""

REPORT = ("import board, bench_layer\nbench = bench_layer.bench\n"
          "bench['edges_dropped'] = board.app.inputs.edges_dropped\n"
          "bench['interrupts'] = board.app.inputs.interrupts\nprint(repr(bench))\n")
MEM_INFO = "import gc, micropython\ngc.collect()\nmicropython.mem_info()\n"


def _deploy(board, image, log):
    with Pico(board, image) as pico:
        log("    deploying into the emulated Pico (%s)" % board)
        pico.deploy()
        pico.wait_for_frame()


def _install_layer(pico):
    """The measuring layer as /bench_layer.py: imported, its module code is freed."""
    source = INSTRUMENT.replace("%(every)d", str(SAMPLE_EVERY))
    pico.exec("f = open('/bench_layer.py', 'w')\nf.write(%r)\nf.close()\n" % source)


# run from the REPL: what the layer keeps (its functions and figures) is measured
# and left out of the app's figures; then main.py runs as at boot
# main.py's end, were it to end (an exception out of the app's loop: a MemoryError, say),
# is kept as the figure "crash" (its traceback): a press test then says why, not only that
# the presses stopped landing; the host's Ctrl-C (KeyboardInterrupt) is no crash.
# main.py is the deployed file, or the frozen module of a UF2 with the scoreboard in it
RUN = ("import gc\ngc.collect()\nbefore = gc.mem_alloc()\nimport bench_layer\ngc.collect()\n"
       "bench_layer.bench['layer'] = gc.mem_alloc() - before\ndel before\n"
       "import os\n"
       "try:\n"
       "    if 'main.py' in os.listdir('/'):\n"
       "        exec(open('/main.py').read())\n"
       "    else:\n"
       "        import sys\n"
       "        sys.modules.pop('main', None)\n"
       "        import main\n"
       "except Exception as crash:\n"
       "    import io, sys\n"
       "    trace = io.StringIO()\n"
       "    sys.print_exception(crash, trace)\n"
       "    bench_layer.bench['crash'] = trace.getvalue()\n"
       "    raise\n")


RESTART_MS = 2500  # simulated time for main.py to boot again (about 1 s) and settle


def _instrumented(pico, setup=""):
    _install_layer(pico)
    pico.start(setup + RUN)
    # the display driver lives on (board.display): the new app redraws only what changed,
    # maybe nothing, so wait for the boot by the clock rather than for a picture
    pico.run_ms(RESTART_MS)


def _mem_info(text):
    total = re.search(r"GC: total: (\d+), used: (\d+), free: (\d+)", text)
    largest = re.search(r"max free sz: (\d+)", text)
    return {"total": int(total.group(1)), "used": int(total.group(2)), "free": int(total.group(3)),
            "largest_free": int(largest.group(1)) * 16 if largest else None}


def game(board, image, preset, log, uf2="env", setup="", after=""):
    """The 40-deal game at 30/30 under the measuring layer: heap, renders, pauses.

    uf2: the firmware (Pico's default); setup: REPL lines run before main.py starts
    again; after: REPL lines whose printed repr() joins the figures as "after"."""
    rules, records, lines, _ = bench_game(preset, GAME_DEALS)
    target = rules.spec()["options"].get("target")
    with Pico(board, image, uf2=uf2, timeout=600) as pico:
        pico.wait_for_frame()
        before = _mem_info(pico.exec(MEM_INFO))
        # the bench game's rules (its target is far: 40 deals never end it), then main.py again
        setup += "import board\nboard.app.change_setting('s_preset', %r)\n" % preset
        if target is not None:
            setup += "board.app.change_setting('s_target', %d)\n" % target
        _instrumented(pico, setup + "board.app = None\n")
        log("    %d deals of %s at 30 ms presses / 30 ms gaps" % (len(records), preset))
        pico.play(parse_script(lines), press_ms=30, gap_ms=30)
        figures = ast.literal_eval(pico.exec(REPORT).strip())
        if after:
            try:
                figures["after"] = ast.literal_eval(pico.exec(after).strip())
            except EmulatorError as error:  # the game's own figures are kept
                figures["after_error"] = str(error).strip().splitlines()[-1]
        after_game = _mem_info(pico.exec(MEM_INFO))
        state = pico.state()
    figures.pop("last", None)
    figures["deals_kept"] = len(state["deals"])
    figures["deals_wanted"] = len(records)
    figures["deals_match"], difference = _compare_games(rules, state, records)
    if not figures["deals_match"]:
        figures["first_difference"] = difference
    figures["app_live_max"] = figures["live_max"] - figures["layer"]
    figures["repl_before"] = before
    figures["after_game"] = after_game
    return figures


def _compare_games(rules, state, records):
    """(same, first difference): same when the device's game is the planned one, every
    deal scoring the same and the same totals (a record may differ only where the planner
    leaves the scoring core's default); the first difference is (deal number, the planned
    record, the device's) of the first deal that scores otherwise, or None."""
    want = Game(rules, records)
    got = Game(rules, state["deals"])
    for index in range(min(len(want.results), len(got.results))):
        if want.results[index].score != got.results[index].score:
            return False, (index + 1, records[index], state["deals"][index])
    same = len(state["deals"]) == len(records) and state["total"] == want.total
    return same, None


# before main.py starts again, for press-to-pixels: when the app takes each key (handle)
# and when each display transfer begins and ends (show), on the device's clock, which
# is the emulator's (ticks_us counts the same microseconds since power-on)
PIXEL_MARKS = """
import time, board
import app as app_module
board.pixel_marks = []
_marked_handle_of = app_module.App.handle
def _marked_handle(self, ev):
    board.pixel_marks.append((time.ticks_us(), -1))
    _marked_handle_of(self, ev)
app_module.App.handle = _marked_handle
_marked_show_of = board.display.show
def _marked_show():
    started = time.ticks_us()
    _marked_show_of()
    board.pixel_marks.append((started, time.ticks_us()))
board.display.show = _marked_show
"""
TICKS_MASK = (1 << 30) - 1  # ticks_us wraps there on the rp2 port


def latency(board, image, preset, log, gap_ms=600, uf2="env", setup=""):
    """Press-to-pixels on one deal typed with the keys apart (ms): per acting edge, the
    end of the last bus transfer of the first show() after the app took that key (uf2,
    setup: as for game()). A later picture before the next key (the hint line turning
    every 2 s, a message running out) is the clock's, not the press's: it is not counted."""
    _, records, lines, _ = bench_game(preset, 2)
    steps = parse_script(deal_scripts(lines)[1][0])
    with Pico(board, image, uf2=uf2, timeout=600) as pico:
        pico.wait_for_frame()
        _instrumented(pico, setup + PIXEL_MARKS)
        transfers = []
        record = pico.display

        original_i2c, original_spi = record.i2c, record.spi

        def i2c(micros, data):
            transfers.append(micros)
            original_i2c(micros, data)

        def spi(micros, level, duty, data):
            transfers.append(micros)
            original_spi(micros, level, duty, data)

        record.i2c, record.spi = i2c, spi
        press_ms = 30
        start = pico.now_us() + 50_000
        edges = []  # (acting edge, start of the next key): a press's pixels come in between
        t = start
        for step in steps:
            if step[1] == "wait":
                t += step[2] * 1000
            if step[1] not in ("press", "hold"):
                continue
            if edges and edges[-1][1] is None:
                edges[-1] = (edges[-1][0], t)
            held = press_ms if step[1] == "press" else step[3]
            if step[1] == "press":  # a hold's repeats redraw on: not one press's pixels
                edges.append((t if step[2] in ("UP", "DOWN") else t + held * 1000, None))
            t += (held + gap_ms) * 1000
        pico.play(steps, press_ms=press_ms, gap_ms=gap_ms, start_us=start)
        figures = ast.literal_eval(pico.exec(REPORT).strip())
        marks = ast.literal_eval(pico.exec("import board\nprint(repr(board.pixel_marks))").strip())
    return {"latency_ms": pixels_after(edges, marks, transfers, gap_ms), "presses": len(edges),
            "render": figures["render"], "show_max": figures["show_max"]}


def pixels_after(edges, marks, transfers, gap_ms=600):
    """Per acting edge, ms to the end of the last bus transfer of the first show() that
    began after the app took a key at or after the edge (before the next key); an edge
    whose show sent nothing (nothing changed) has no figure. marks: (ticks, -1) for a
    key taken, (began, ended) for a show, on the device's clock; transfers: the bus's
    times on the emulator's."""
    base = transfers[0] - (transfers[0] & TICKS_MASK) if transfers else 0

    def host(ticks):  # the device's 30-bit ticks on the emulator's clock, near the transfers
        micros = base + ticks
        return micros + (TICKS_MASK + 1) if transfers and micros < transfers[0] - (TICKS_MASK + 1) // 2 else micros

    keys = [host(taken) for taken, kind in marks if kind == -1]
    shows = [(host(began), host(ended)) for began, ended in marks if ended != -1]
    out = []
    for edge, following in edges:
        following = following or edge + gap_ms * 1000
        taken = [at for at in keys if edge <= at < following]
        if not taken:
            continue
        after = [show for show in shows if taken[0] <= show[0] < following]
        if not after:
            continue
        began, ended = min(after)
        sent = [m for m in transfers if began <= m <= ended]
        if sent:
            out.append((max(sent) - edge) / 1000)
    return out


def measure(log=print, preset="federation"):
    """Every real-port figure, or {"error": why} when the emulator cannot run."""
    why = missing()
    if why:
        return {"error": why}
    work = tempfile.mkdtemp(prefix="rp2bench-")
    r = {"preset": preset}
    try:
        with Pico("pico_oled", os.path.join(work, "stock.img")) as pico:  # nothing deployed yet
            r["stock"] = _mem_info(pico.exec(MEM_INFO))
        oled = os.path.join(work, "oled.img")
        _deploy("pico_oled", oled, log)
        fresh = os.path.join(work, "oled-game.img")
        shutil.copy(oled, fresh)
        r["game"] = game("pico_oled", fresh, preset, log)
        log("    press-to-pixels, pico_oled")
        r["latency_oled"] = latency("pico_oled", oled, "classic2000", log)
        pack = os.path.join(work, "pack.img")
        _deploy("pico_display_pack", pack, log)
        log("    press-to-pixels, pico_display_pack")
        r["latency_pack"] = latency("pico_display_pack", pack, "classic2000", log)
    except EmulatorError as e:
        r["error"] = str(e)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return r


def summary(values):
    if not values:
        return "-"
    return "median %.0f, max %.0f" % (statistics.median(values), max(values))
