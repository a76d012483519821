"""Where the development programs are: the venv's own copy first (next to the
running Python, as `make venv` installs them), else the PATH."""
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
