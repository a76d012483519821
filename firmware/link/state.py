"""The state of the table's link to the organiser, as the home screen shows it.

Kept apart from the link itself (which needs `network` and sockets): the screens
read it through the App on every board that has WiFi (board.WIFI), and this
module imports nothing of the firmware (os only, to see whether /club.json is
there), so a board without a WiFi chip (or the emulator) shows
OFFLINE and plays as before. The link sets the state with set_state(); the App
redraws home when state() changes. Plain ints: reading it allocates nothing.
"""
import os

OFFLINE = 0  # no network, or not yet tried (the start of every boot)
CONNECTING = 1  # joining the WiFi or the broker
ONLINE = 2  # connected to the broker
STATES = (OFFLINE, CONNECTING, ONLINE)
CLUB_FILE = "/club.json"  # what the organiser's tool writes onto a table (docs/link.md)

_current = OFFLINE


def state():
    """The link's state now: OFFLINE, CONNECTING or ONLINE."""
    return _current


def club_file(board):
    """Where this board keeps the club's file (the simulator's flash is under /flash)."""
    return getattr(board, "CLUB_FILE", CLUB_FILE)


def club_exists(board):
    """Is the organiser's file on this board? Without it the link's code is never loaded."""
    try:
        os.stat(club_file(board))
        return True
    except OSError:
        return False


def set_state(value):
    """Called by the link when its state changes."""
    global _current
    if value not in STATES:
        raise ValueError("link state")
    _current = value
