"""The real App with a measurement report, for `make bench` (simulator --app).

    python3 -m host_tools.sim --app host_tools/bench/device_side/bench_app.py --script game.keys ...

app.App runs unchanged; BenchApp only counts. When the host asks for
`state`, it first prints one log line on the protocol (the host keeps it in
Sim.log):

    L bench {"events": ..., "renders": ..., "gc_alloc": ..., "gc_free": ...,
             "mem_total": ..., "mem_current": ..., "mem_peak": ...,
             "live_max": ..., "bus": ..., "driver": ..., "render_bus_max": ...}

gc_alloc/gc_free: gc.mem_alloc()/mem_free() after a collection. mem_*: the
allocator statistics that micropython.mem_info() prints ("mem: total=...,
current=..., peak=..."). bus: payload bytes written on the fake I2C/SPI
buses so far (boards with real drivers; None on the sim board); driver:
the display driver's own bytes_sent. With BENCH_TRACK=1 in the
environment, every render is followed by a collection and live_max is the
largest gc.mem_alloc() seen then (this changes when the GC runs, so the
heap-size bisection runs without it), and render_bus_max is the most bus
bytes one render sent.
"""
import gc
import json
import os
import sys

import micropython
import app as _app

TRACK = os.getenv("BENCH_TRACK") == "1"


def bus_bytes():
    """Payload bytes on every fake bus (None when the board has no fake machine)."""
    m = sys.modules.get("machine")
    if m is None or not hasattr(m, "_i2c_buses"):
        return None
    n = 0
    for b in m._i2c_buses.values():
        n += b.bytes_written
    for b in m._spi_buses.values():
        n += b.bytes_written
    return n


class BenchApp(_app.App):
    def __init__(self, board, defaults=None):
        self.events = 0
        self.renders = 0
        self.live_max = 0
        self.render_bus_max = 0
        _app.App.__init__(self, board, defaults)

    def handle(self, ev):
        self.events += 1
        _app.App.handle(self, ev)

    def render(self):
        self.renders += 1
        if not TRACK:
            _app.App.render(self)
            return
        b0 = bus_bytes()
        _app.App.render(self)
        if b0 is not None:
            d = bus_bytes() - b0
            if d > self.render_bus_max:
                self.render_bus_max = d
        gc.collect()
        n = gc.mem_alloc()
        if n > self.live_max:
            self.live_max = n

    def report(self):
        gc.collect()
        doc = {
            "events": self.events,
            "renders": self.renders,
            "gc_alloc": gc.mem_alloc(),
            "gc_free": gc.mem_free(),
            "mem_total": micropython.mem_total(),
            "mem_current": micropython.mem_current(),
            "mem_peak": micropython.mem_peak(),
            "live_max": self.live_max,
            "bus": bus_bytes(),
            "driver": getattr(self.fb, "bytes_sent", None),
            "render_bus_max": self.render_bus_max,
            "deals": len(self.game.deals),
        }
        sys.stdout.write("L bench " + json.dumps(doc) + "\n")

    def state_json(self):
        self.report()
        return _app.App.state_json(self)

    # the launcher then asks state_json(), so the report line comes before the "J" line
    write_state = None


def run(board, defaults=None):
    app = BenchApp(board, defaults)
    while True:
        app.poll()
        board.sleep_ms(_app.POLL_MS)
