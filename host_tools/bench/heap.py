"""Figures 1 and 2: the smallest heap a game completes in (by bisection), where the live
heap goes, and the heap allocated per press."""
import json
import subprocess

from host_tools.bench.budgets import GAME_DEALS, GAME_TARGET, HEAP_HI
from host_tools.bench.games import completes, run_game
from host_tools.bench.programs import BenchError, micropython, run_micropython, traceback_tail
from host_tools.bench.tree import ui_script


def bisect_heap(lines, preset, tree, **kw):
    """Smallest heapsize at which the game completes in the simulator (see bisect())."""
    return bisect(lambda n: completes(lines, preset, n, tree), preset, **kw)


def completes_direct(script_path, preset, heapsize, tree, deals=GAME_DEALS):
    """Like completes(), without the simulator: bench_ui.py play, the App and the journal only."""
    cmd = [micropython(), "-X", "heapsize=%d" % heapsize, ui_script(tree), "play", preset, str(GAME_TARGET), script_path]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        return False, traceback_tail(p.stderr + "\n" + p.stdout, 4)
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
    out = run_micropython([ui_script(tree), "heap", preset, str(GAME_TARGET),
                   script_path, listing])
    return json.loads(out.strip().splitlines()[-1])


def sim_memory(lines, preset, tree):
    """The simulator's own view of the game's heap (default heap, BENCH_TRACK=1)."""
    st, err, reps = run_game(lines, preset, tree=tree, bench_app=True, env={"BENCH_TRACK": "1"})
    if st is None:
        raise BenchError("%s: the game failed in the simulator: %s" % (preset, err))
    return {"boot": reps[0], "end": reps[-1]}


def alloc_per_press(script_path, preset, tree):
    out = run_micropython([ui_script(tree), "alloc", preset, str(GAME_TARGET),
                   script_path])
    return json.loads(out.strip().splitlines()[-1])
