"""Figure 8: the calculator streaming 100,000 deals on CPython and on the unix port."""
import os
import subprocess
import sys
import tempfile
import time

from host_tools.bench.budgets import CALCULATOR_DEALS
from host_tools.bench.programs import micropython
from host_tools.common.paths import ROOT


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


def timed_run(cmd):
    """(wall s, CPU s, peak RSS bytes as last seen, exit status, last stdout line) of one process."""
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
    script = os.path.join(ROOT, "host_tools", "score.py")  # the documented command (it forwards)
    return {
        "cpython": timed_run([sys.executable, "-m", "host_tools.score"] + args),
        "micropython": timed_run([micropython(), script] + args),
        "micropython_256k": timed_run([micropython(), "-X", "heapsize=256k", script] + args),
    }
