"""Buttons to events: debouncing, short press, long press, accelerating repeat.

Any zero-argument callable works as a button (True while pressed), and the
clock is passed in, so tests drive both (the idea of Adafruit's Debouncer and
of Peter Hinch's Pushbutton). All time arithmetic is wrap-safe ticks_diff.

UP/DOWN act on the press (then repeat while held); OK/BACK act on release so a
hold can mean something else (LONG fires once at LONG_MS and eats the release).
Events are small ints (kind << 2 | button): no allocation per event.
"""
from coinche.compat import const
from ui.timing import DEBOUNCE_MS, LONG_MS, REPEAT_FIRST, repeat_gap

try:
    from time import ticks_diff
except ImportError:  # CPython (tests, planner)
    def ticks_diff(a, b):
        return a - b

UP = const(0)
DOWN = const(1)
OK = const(2)
BACK = const(3)

PRESS = const(0)
REPEAT = const(1)
LONG = const(2)

NAMES = ("UP", "DOWN", "OK", "BACK")


def event(kind, button):
    return (kind << 2) | button


class Debounced:
    """One button: the level flips only after the raw level held DEBOUNCE_MS."""

    def __init__(self, read, now):
        self.read = read
        self.state = False
        self._raw = False
        self._since = now
        self.changed_at = now

    def update(self, now):
        """Returns True when the debounced level changed at this poll."""
        raw = bool(self.read())
        if raw != self._raw:
            self._raw = raw
            self._since = now
        if raw != self.state and ticks_diff(now, self._since) >= DEBOUNCE_MS:
            self.state = raw
            self.changed_at = now
            return True
        return False


class Inputs:
    """Polls four buttons and queues events in a fixed ring buffer."""

    QUEUE = const(16)

    def __init__(self, buttons, clock):
        self.clock = clock
        now = clock()
        self.keys = [Debounced(b, now) for b in buttons]
        self._repeats = [0, 0, 0, 0]
        self._next = [0, 0, 0, 0]
        self._long = [False, False, False, False]
        self._q = bytearray(self.QUEUE)
        self._head = 0
        self._len = 0
        self.last_activity = now

    def _push(self, ev):
        if self._len < self.QUEUE:
            self._q[(self._head + self._len) % self.QUEUE] = ev
            self._len += 1

    def pop(self):
        """Next event, or -1 when none."""
        if not self._len:
            return -1
        ev = self._q[self._head]
        self._head = (self._head + 1) % self.QUEUE
        self._len -= 1
        return ev

    def any_down(self):
        for k in self.keys:
            if k.state:
                return True
        return False

    def poll(self):
        now = self.clock()
        for i in range(4):
            k = self.keys[i]
            if k.update(now):
                self.last_activity = now
                if k.state:  # pressed
                    self._repeats[i] = 0
                    self._long[i] = False
                    self._next[i] = REPEAT_FIRST
                    if i < OK:
                        self._push(event(PRESS, i))
                else:  # released
                    if i >= OK and not self._long[i]:
                        self._push(event(PRESS, i))
            elif k.state:
                held = ticks_diff(now, k.changed_at)
                if i < OK:
                    if held >= self._next[i]:
                        self._repeats[i] += 1
                        self._next[i] += repeat_gap(self._repeats[i])
                        self._push(event(REPEAT, i))
                        self.last_activity = now
                elif not self._long[i] and held >= LONG_MS:
                    self._long[i] = True
                    self._push(event(LONG, i))
                    self.last_activity = now
