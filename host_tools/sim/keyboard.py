"""Terminal keystrokes as button presses and releases, for the interactive simulator
(pure: time is passed in)."""
from host_tools.common.script import GAP_MS, PRESS_MS

_KEYS_CSI = {ord("A"): "UP", ord("B"): "DOWN", ord("C"): "OK", ord("D"): "BACK"}


def parse_keys(data):
    """Raw terminal bytes -> button names, "QUIT" for q. Lone Esc is BACK."""
    out = []
    i = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x1B:
            if i + 1 < n and data[i + 1] in (ord("["), ord("O")):
                j = i + 2
                while j < n and not 0x40 <= data[j] <= 0x7E:  # parameters of the sequence
                    j += 1
                if j < n and data[j] in _KEYS_CSI:
                    out.append(_KEYS_CSI[data[j]])
                i = j + 1
                continue
            out.append("BACK")
        elif c in (0x0D, 0x0A):
            out.append("OK")
        elif c in (0x7F, 0x08):
            out.append("BACK")
        elif c in (ord("q"), ord("Q")):
            out.append("QUIT")
        i += 1
    return out


class KeyTracker:
    """Terminal keystrokes -> button down/up commands (pure; time is passed in).

    A terminal reports no key release, only the keystroke and, while a key
    is held, auto-repeats after an initial delay (250-700 ms, terminal
    dependent) at 20-40 per second. A lone keystroke has to wait out that
    delay before we know it was not a hold, so while it is undecided
    (`frozen`) the caller stops granting virtual time: the app sees an
    exact short press (PRESS_MS) whatever the wait, and a hold that starts
    at the first keystroke. Repeats arriving within confirm_ms of each
    other mean auto-repeat; the button is released release_ms after the
    last one. first_ms is learnt from the first hold (its repeat delay).

    Order: every keystroke's commands are emitted when it arrives, after
    those of the keystrokes before it (another key settles a pending tap at
    once), and every release is followed by GAP_MS, so the device sees the
    keys in typing order however fast they come."""

    IDLE, TAPPED, PROBE, HELD = range(4)

    def __init__(self, first_ms=700, confirm_ms=80, release_ms=150):
        self.first_ms = first_ms
        self.confirm_ms = confirm_ms
        self.release_ms = release_ms
        self.state = self.IDLE
        self.btn = None
        self.t0 = 0  # first keystroke
        self.t1 = 0  # latest keystroke

    @property
    def frozen(self):
        return self.state in (self.TAPPED, self.PROBE)

    @property
    def held(self):
        return self.btn if self.state != self.IDLE else None

    def key(self, btn, now):
        if self.state != self.IDLE and btn == self.btn:
            if self.state == self.TAPPED:
                self.state = self.PROBE
            elif self.state == self.PROBE:
                if now - self.t1 <= self.confirm_ms:
                    self.first_ms = min(1000, max(250, self.t1 - self.t0 + 150))
                    self.state = self.HELD
                else:
                    out = self._finish()
                    return out + self.key(btn, now)
            self.t1 = now
            return []
        out = self._finish()
        self.state = self.TAPPED
        self.btn = btn
        self.t0 = self.t1 = now
        return out + ["d " + btn, "t %d" % PRESS_MS]

    def tick(self, now):
        s = self.state
        if (s == self.TAPPED and now - self.t0 >= self.first_ms
                or s == self.PROBE and now - self.t1 > self.confirm_ms
                or s == self.HELD and now - self.t1 > self.release_ms):
            return self._finish()
        return []

    def finish(self):
        """Commands that end whatever is pending (a tap, a probe, a hold), as at quit."""
        return self._finish()

    def _finish(self):
        """Release whatever is down; a probe that was not confirmed was two taps."""
        s, b = self.state, self.btn
        self.state = self.IDLE
        self.btn = None
        if s == self.IDLE:
            return []
        # GAP_MS after every release: a release and the next key's press at
        # the same instant would reach the app in button order, not typing
        # order (the firmware polls UP, DOWN, OK, BACK in turn, and UP/DOWN
        # act on the press, OK/BACK on the release)
        if s == self.PROBE:
            return ["u " + b, "t %d" % GAP_MS, "d " + b, "t %d" % PRESS_MS, "u " + b, "t %d" % GAP_MS]
        return ["u " + b, "t %d" % GAP_MS]
