"""A stand-in app for the simulator tests (the real one is app).

It exercises what the simulator has to carry: frames that change on a
press, long presses, screen names, display power, storage that must
survive a restart, state_json(), and a crash on demand (hold UP 3 s).
"""
import json
import os
import time

from micropython import const

_LONG_MS = const(500)
_IDLE_OFF_MS = const(10000)
_CRASH_MS = const(3000)
_NAMES = ("UP", "DOWN", "OK", "BACK")


class App:
    def __init__(self, board, defaults):
        self.board = board
        self.defaults = defaults
        self.screen = "home"
        self.count = 0
        self.sel = 0
        self.down_at = [None] * 4
        self.last_input = board.ticks_ms()
        self.dirty = True
        self.lit = True
        self.events = []  # "UP+" (down) / "UP-" (up) in the order this app saw them
        self.path = board.STORAGE + "/count.json"
        try:
            os.mkdir(board.STORAGE)
        except OSError:
            pass
        try:
            with open(self.path) as f:
                self.count = json.load(f)["count"]
        except (OSError, ValueError):
            pass
        if hasattr(board, "app"):
            board.app = self

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps({"count": self.count}))
        os.rename(tmp, self.path)

    def poll(self):
        b = self.board
        now = b.ticks_ms()
        for i in range(4):
            pressed = b.buttons[i]()
            t0 = self.down_at[i]
            if pressed and t0 is None:
                self.log_event(_NAMES[i] + "+")
                self.down_at[i] = now
                self.last_input = now
                self.dirty = True
            elif not pressed and t0 is not None:
                self.log_event(_NAMES[i] + "-")
                self.down_at[i] = None
                self.release(i, time.ticks_diff(now, t0))
                self.last_input = now
                self.dirty = True
            elif pressed and i == 0 and time.ticks_diff(now, t0) >= _CRASH_MS:
                raise RuntimeError("demo crash: UP held %d ms" % time.ticks_diff(now, t0))
        idle = time.ticks_diff(now, self.last_input)
        if idle >= _IDLE_OFF_MS and self.lit:
            self.lit = False
            b.display.poweroff()
        elif idle < _IDLE_OFF_MS and not self.lit:
            self.lit = True
            b.display.poweron()
        if self.dirty:
            self.draw()

    def log_event(self, name):
        if len(self.events) >= 64:  # the latest ones only: the heap is small
            self.events.pop(0)
        self.events.append(name)

    def release(self, i, held):
        if i == 2:
            if held >= _LONG_MS:
                self.screen = "long"
            else:
                self.count += 1
                self.save()
        elif i == 3:
            self.screen = "menu" if self.screen == "home" else "home"
        elif i == 0:
            self.sel += 1
        else:
            self.sel -= 1

    def draw(self):
        self.dirty = False
        d = self.board.display
        d.fill(0)
        d.text(self.screen, 0, 0, 1)
        d.text("count %d" % self.count, 0, 16, 1)
        d.text("sel %d" % self.sel, 0, 28, 1)
        for i in range(4):
            x = 8 + i * 30
            if self.down_at[i] is not None:
                d.fill_rect(x, 44, 20, 16, 1)
            else:
                d.rect(x, 44, 20, 16, 1)
        d.show()

    def state_json(self):
        return json.dumps({"screen": self.screen, "count": self.count, "sel": self.sel,
                           "defaults": self.defaults, "events": self.events, "ticks": self.board.ticks_ms(),
                           "held": [_NAMES[i] for i in range(4) if self.down_at[i] is not None]})


def run(board, defaults=None):
    app = App(board, defaults)
    while True:
        app.poll()
        board.sleep_ms(10)
