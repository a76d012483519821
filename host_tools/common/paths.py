"""The repository's folders, named once for every host tool.

The firmware folder goes on sys.path when the host_tools package is imported (see
host_tools/__init__.py): the tools read the scoring core and the screens the device runs."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
BOARDS = os.path.join(ROOT, "boards")
# The MicroPython scripts run on the unix port, each beside the CPython of its purpose; they
# import one another by bare name, so a script's sys.path holds all three folders.
SIM_DEVICE = os.path.join(ROOT, "host_tools", "sim", "device_side")  # the simulator's device: launcher, fake hardware
BENCH_DEVICE = os.path.join(ROOT, "host_tools", "bench", "device_side")  # make bench's scripts on the device
RIGS_DEVICE = os.path.join(ROOT, "host_tools", "rigs", "device_side")  # test rigs: power cuts, damage, network stand-in
DEVICE_SIDE = (SIM_DEVICE, BENCH_DEVICE, RIGS_DEVICE)
TESTS = os.path.join(ROOT, "tests")
DOCS = os.path.join(ROOT, "docs")
BUILD = os.path.join(ROOT, "build")
SHARED_RP2 = os.path.join(os.path.dirname(ROOT), "shared", "rp2")  # MicroPython UF2s, boot ROM, rp2 source
