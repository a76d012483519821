"""Home on a new device as the simulator draws it, at each text of its turning hint line.

The emulated Pico and the web page run in real time and do not wait for the host, so
the picture a test finds after a boot may be one whose hint line has turned since the
boot drew it (the faster the machine, the more often): a boot's home is any of these.
"""
from host_tools.sim import Sim

HOME_HINTS = 3  # home's hint line turns through three texts (screens/table_screens.py)
HINT_MS = 2000  # each shown this long (app.py)


def sim_home_frames(board):
    """Home's pictures on a new device of board, one per hint text (Sim frames)."""
    with Sim(board=board) as sim:
        sim.wait(1500)
        frames = [sim.frame()]
        for _ in range(HOME_HINTS - 1):
            sim.wait(HINT_MS)
            frames.append(sim.frame())
    assert len({f.data for f in frames}) == HOME_HINTS, "home's hint line no longer turns through %d texts" % HOME_HINTS
    return frames


def sim_homes(board):
    """The pixels of home's pictures on a new device of board, one per hint text."""
    return [f.data for f in sim_home_frames(board)]
