"""Where the development programs are: the venv's own copy first (next to the
running Python, as `make venv` installs them), else the PATH."""
import functools
import os
import shutil
import sys


def find_tool(name):
    """Path of executable `name`, or None when it is nowhere."""
    cand = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(cand):
        return cand
    return shutil.which(name)


def required_tool(name, error, described=None):
    """Path of executable `name`; when it is nowhere, error (the calling tool's exception
    class) is raised saying so and how to get it (described: how to name it, e.g.
    "micropython (unix port)")."""
    found = find_tool(name)
    if not found:
        raise error("%s not found: run `make venv`" % (described or name))
    return found


QUICK_LAUNCHER = "micropython-quick"
_QUICK_SOURCE = """#!%(python)s -S
# Written by host_tools/common/programs.py beside the PyPI unix port's own launcher:
# the same interpreter (the micropython_run extension), started without CPython's site
# set-up, which is half of a start's cost; the suite starts MicroPython thousands of times.
import sys
sys.path.insert(0, %(site)r)
from micropython_run import run_main
sys.exit(run_main(sys.argv))
"""


@functools.lru_cache(maxsize=None)  # once per process: every test's start asks for it
def quick_micropython(launcher):
    """The unix port as the PyPI package installs it is a Python script that imports the
    interpreter (micropython_run) through the site machinery of the venv's CPython, about
    25 ms a start of which MicroPython needs none. Beside it, a launcher that skips that
    (written once, then reused); `launcher` itself when it is not that script (a native
    micropython on the PATH) or the quick one cannot be written."""
    try:
        with open(launcher, "rb") as handle:
            head = handle.read(400)
    except OSError:
        return launcher
    first = head.split(b"\n", 1)[0]
    if not (first.startswith(b"#!") and b"python" in first and b"micropython_unix" in head):
        return launcher
    try:
        import micropython_run  # pyright: ignore[reportMissingImports]  (the PyPI unix port)
    except ImportError:
        return launcher
    python = first[2:].decode().strip().split()[0]
    source = _QUICK_SOURCE % {"python": python, "site": os.path.dirname(os.path.realpath(micropython_run.__file__))}
    quick = os.path.join(os.path.dirname(launcher), QUICK_LAUNCHER)
    try:
        with open(quick) as handle:
            if handle.read() == source:
                return quick
    except OSError:
        pass
    try:  # test workers may write it at the same moment: each its own file, then renamed
        partial = "%s.%d" % (quick, os.getpid())
        with open(partial, "w") as handle:
            handle.write(source)
        os.chmod(partial, 0o755)
        os.replace(partial, quick)
    except OSError:
        return launcher
    return quick
