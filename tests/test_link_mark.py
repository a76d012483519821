"""Home's link mark on a board with WiFi (link/state.py read through the App), on the
MicroPython unix port: it follows the state the link sets, and drawing it allocates nothing."""
import json

from conftest import run_mp

CODE = """
import sys, json, micropython
sys.path.insert(0, "firmware")
sys.path[:0] = ["host_tools/sim/device_side", "host_tools/rigs/device_side"]
from blockdev import RAMBlockDev, mount
from fakeboard import Board, ColourBoard
from app import App
from link import state

out = {}
for name, make in (("128x64", Board), ("240x135", ColourBoard)):
    try:
        import os
        os.umount("/flash")
    except Exception:
        pass
    mount(RAMBlockDev(4096, 352), "/flash")
    board = make()
    board.WIFI = True
    state.set_state(state.OFFLINE)
    app = App(board, {"rules": "classic2000"})
    app.poll()
    frames = []
    for value in (state.OFFLINE, state.CONNECTING, state.ONLINE):
        state.set_state(value)
        app.poll()  # the App sees the change and redraws home
        frames.append(bytes(board.display.buf))
    micropython.heap_lock()
    try:
        app.render()
        locked = "drawn"
    except MemoryError:
        locked = "allocated"
    micropython.heap_unlock()
    out[name] = {"distinct": len(set(frames)), "locked": locked, "link": app.link is not None}
try:
    state.set_state(7)
    out["bad"] = "taken"
except ValueError:
    out["bad"] = "refused"
print(json.dumps(out))
"""


def test_link_mark_follows_the_state_and_draws_without_allocating():
    proc = run_mp(code=CODE)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    for layout in ("128x64", "240x135"):
        assert result[layout] == {"distinct": 3, "locked": "drawn", "link": True}, (layout, result)
    assert result["bad"] == "refused"
