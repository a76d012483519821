"""Host-side tools (CPython): the simulator, the emulated Pico, the bench, the device
tools (deploy, UF2, export) and the calculator; what they share is in host_tools.common.

Importing the package puts firmware/ on sys.path, here and nowhere else: every tool reads
the scoring core (and some the screens) the device runs."""
import sys

from host_tools.common.paths import FIRMWARE

if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
