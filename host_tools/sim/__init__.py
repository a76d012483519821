"""The scoreboard simulator: the real firmware on the MicroPython unix port, driven from
CPython (`python -m host_tools.sim`, or the Sim class in tests).

client: the Sim class and the line protocol; flash_file: the --flash image; terminal:
frames as terminal text; keyboard: keystrokes as presses and releases; interactive: the
real-time loop; cli: the command line; gallery: the screens' reference pictures. The
device side is host_tools/sim/device_side/ (MicroPython)."""
from host_tools.sim.client import Sim, SimError, micropython_path

__all__ = ["Sim", "SimError", "micropython_path"]
