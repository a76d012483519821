"""The repository's folders, named once for every host tool.

The firmware folder goes on sys.path when the host_tools package is imported (see
host_tools/__init__.py): the tools read the scoring core and the screens the device runs."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
HOST_MP = os.path.join(ROOT, "host_tools", "mp")  # the simulator's MicroPython side
TESTS = os.path.join(ROOT, "tests")
DOCS = os.path.join(ROOT, "docs")
BUILD = os.path.join(ROOT, "build")
SHARED_RP2 = os.path.join(os.path.dirname(ROOT), "shared", "rp2")  # MicroPython UF2s, boot ROM, rp2 source
