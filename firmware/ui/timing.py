"""Key timing shared by the firmware and the host key planner.

Kept in one tiny pure module so the planner (CPython) computes hold lengths
from the very numbers the device uses.
"""
from coinche.compat import const

POLL_MS = const(10)       # the app polls the buttons this often
DEBOUNCE_MS = const(20)   # contacts settle within this (ui/inputs.py: how each way in uses it)
REPEAT_FIRST = const(400) # held UP/DOWN: first repeat after this long
LONG_MS = const(600)      # held OK/BACK: the "long" action fires here


def repeat_gap(n):
    """Delay before repeat n+1 once repeat n fired (n >= 1): speeds up while held."""
    if n < 4:
        return 150
    if n < 8:
        return 100
    return 80


def repeat_at(k):
    """Time of the k-th repeat (k >= 1) after the press was registered."""
    t = REPEAT_FIRST
    for n in range(1, k):
        t += repeat_gap(n)
    return t
