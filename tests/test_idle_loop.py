"""The app's loop sleeps as long as nothing is due (App.idle_ms, App.wait).

A still screen polled every 10 ms woke the chip a hundred times a second (the web
page's emulated RP2040 spent a tenth of a core on it); with the buttons on pin
interrupts the loop now sleeps until the next thing that changes the screen by itself
or a button's edge.  Nothing moves in time for it: the hint line turns, a message
ends and the screen dims when they did with a poll every POLL_MS, and a key down (or
an edge not read yet) keeps the polls at POLL_MS for the debouncer and the repeats.
Runs the real App in-process on the MicroPython unix port (fakeboard).
"""
import json

from conftest import run_mp

LOOP = """
import json
import os
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
IDLE_MAX_MS = 1000  # app.py _IDLE_MAX_MS (a const of its own: not a name on the device)
from events.timing import POLL_MS

def fresh():
    try:
        os.umount("/flash")
    except OSError:
        pass
    mount(RAMBlockDev(4096, 352), "/flash")

def run(idle, toast=False, dim=0):
    fresh()
    board = Board()
    app = App(board, {"rules": "classic2000"})
    app.inputs.interrupts = True  # the edges come from pin interrupts, as on rp2: no sampling
    app.settings["dim"] = dim
    if toast:
        app.show_message("hello", 1500)
    end = board.now + 10000
    polls = 0
    phase = app.view.phase
    events = []
    toasting = app.toast_msg is not None
    dimmed = app.dimmed
    while board.now < end:
        app.poll()
        polls += 1
        if app.view.phase != phase:
            phase = app.view.phase
            events.append(("turn", board.now))
        if toasting and app.toast_msg is None:
            toasting = False
            events.append(("toast over", board.now))
        if app.dimmed != dimmed:
            dimmed = app.dimmed
            events.append(("dimmed", board.now))
        board.sleep_ms(app.idle_ms() if idle else POLL_MS)
    return {"polls": polls, "events": events}

out = {"max": IDLE_MAX_MS, "poll": POLL_MS}
for name, kw in (("home", {}), ("toast", {"toast": True}), ("dim", {"dim": 5})):
    out[name] = [run(False, **kw), run(True, **kw)]
fresh()
board = Board()
app = App(board, {"rules": "classic2000"})
app.inputs.interrupts = True
app.poll()
out["still"] = app.idle_ms()
app.inputs._record(0, 1, board.now)  # UP pressed: its edge in the ring
out["edge"] = app.idle_ms()
app.poll()
board.sleep_ms(POLL_MS)
app.poll()
out["held"] = app.idle_ms()
app.inputs._record(0, 0, board.now)
for _ in range(5):
    board.sleep_ms(POLL_MS)
    app.poll()
out["released"] = app.idle_ms()
print(json.dumps(out))
"""


def test_a_still_screen_sleeps_and_nothing_due_moves():
    out = json.loads(run_mp(code=LOOP).stdout.strip().splitlines()[-1])
    poll = out["poll"]
    for name in ("home", "toast", "dim"):
        every_poll, sleeping = out[name]
        assert every_poll["polls"] >= 10000 // poll
        assert sleeping["polls"] <= 10000 // out["max"] + 12, (name, sleeping)
        kinds = [kind for kind, _ in every_poll["events"]]
        assert kinds == [kind for kind, _ in sleeping["events"]], (name, every_poll, sleeping)
        assert kinds, name  # the hint turns, the message ends, the screen dims
        for (_, was), (_, now) in zip(every_poll["events"], sleeping["events"]):
            assert abs(was - now) < poll, (name, every_poll, sleeping)
    assert poll < out["still"] <= out["max"]  # home: until its hint's turn, at most the longest sleep
    assert out["edge"] == poll  # an edge not read yet: polled at once by the wait, then every poll
    assert out["held"] == poll  # a key held: its repeats need the polls
    assert out["released"] > poll  # released and settled: asleep again
