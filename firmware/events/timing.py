"""Key timing shared by the firmware and the host key planner.

Kept in one tiny pure module so the planner (CPython) computes hold lengths
from the very numbers the device uses.
"""
from coinche.compat import const

POLL_MS = const(10)       # the app polls the buttons this often
DEBOUNCE_MS = const(20)   # contacts settle within this (events/inputs.py: how each way in uses it)
REPEAT_FIRST = const(400) # held UP/DOWN: first repeat after this long
LONG_MS = const(600)      # held OK/BACK: the "long" action fires here


def repeat_gap(repeat):
    """Delay before the next repeat once repeat number `repeat` (>= 1) fired: speeds up while held."""
    if repeat < 4:
        return 150
    if repeat < 8:
        return 100
    return 80


def repeat_at(repeat):
    """Time of repeat number `repeat` (>= 1) after the press was registered."""
    at = REPEAT_FIRST
    for earlier in range(1, repeat):
        at += repeat_gap(earlier)
    return at
