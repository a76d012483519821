"""Where the development tools are: the venv's own copy first (next to the
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
