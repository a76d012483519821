"""Figure 7: x86-64 instructions per press, under valgrind's callgrind (a figure to
compare runs, not a timing)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from host_tools.bench.budgets import GAME_TARGET
from host_tools.bench.programs import BenchError
from host_tools.bench.tree import ui_script


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


def has_micropython_run():
    p = subprocess.run([sys.executable, "-c", "import micropython_run"], capture_output=True)
    return p.returncode == 0


def cpu_per_press(script_path, preset, tree, events):
    """(instructions per press, presses, start-up instructions), or None without valgrind."""
    if not shutil.which("valgrind") or not has_micropython_run():
        return None
    ui = ui_script(tree)
    base = callgrind_ir([ui, "play", preset, str(GAME_TARGET), script_path, "0"])
    full = callgrind_ir([ui, "play", preset, str(GAME_TARGET), script_path, str(events)])
    presses = int(full[1].split()[2])
    return {"per_press": (full[0] - base[0]) / presses, "presses": presses, "startup": base[0],
            "deals": int(full[1].split()[3])}
