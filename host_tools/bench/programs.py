"""The programs the bench runs (the unix port, mpy-cross) and its one error."""
import subprocess

from host_tools.common.paths import ROOT
from host_tools.common.programs import required_tool


class BenchError(RuntimeError):
    pass


def micropython():
    return required_tool("micropython", BenchError)


def mpy_cross():
    return required_tool("mpy-cross", BenchError)


def run_micropython(args, heapsize=None, timeout=300):
    cmd = [micropython()] + (["-X", "heapsize=%d" % heapsize] if heapsize else []) + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        raise BenchError("%s failed (%d):\n%s\n%s" % (" ".join(cmd), p.returncode, p.stdout[-2000:], p.stderr[-3000:]))
    return p.stdout


def traceback_tail(text, n=3):
    """The last n lines of a traceback, on one line, paths relative to the repository."""
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return " | ".join(x.strip() for x in lines[-n:]).replace(ROOT + "/", "")
