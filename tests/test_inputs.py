"""events/inputs.py: debounced buttons to events, with fake pins and a fake clock.

The same harness (HARNESS, plain code both interpreters run) drives the
module on CPython (ticks_diff is plain subtraction there) and on the
MicroPython unix port, where time.ticks_diff / ticks_add are the real ones
and the fake clock starts a few ms before the ticks counter wraps.

A run is described by press intervals per button, [down, up) in ms from the
start; the rig polls every `step` ms (POLL_MS like the app, or 1 ms to see
every bounce) and logs (t, kind, button) for each event it pops.
"""
import ast

import pytest

from conftest import run_mp
from events.inputs import BACK, DOWN, LONG, OK, PRESS, REPEAT, UP
from events.timing import DEBOUNCE_MS, LONG_MS, POLL_MS, REPEAT_FIRST, repeat_at

HARNESS = r'''
from events import inputs
try:
    from time import ticks_add
except ImportError:
    def ticks_add(a, b):
        return a + b


def simulate(base, presses, until, step=10, pops=None):
    """presses: {button: [(down, up), ...]}; pops: None (drain at every poll)
    or {t: n} (pop n events at time t; everything left is popped at the end).
    Returns [(t, kind, button)], with t = -1 for events popped at the end,
    and the rig's Inputs (for last_activity / any_down)."""
    t = [0]

    def pin(b):
        ivs = presses.get(b, ())

        def read():
            for a, z in ivs:
                if a <= t[0] < z:
                    return True
            return False
        return read

    def clock():
        return ticks_add(base, t[0])

    inp = inputs.Inputs([pin(b) for b in range(4)], clock)
    log = []
    while t[0] < until:
        t[0] += step
        inp.poll()
        n = -1 if pops is None else pops.get(t[0], 0)
        while n:
            ev = inp.pop()
            if ev < 0:
                break
            log.append((t[0], ev >> 2, ev & 3))
            n -= 1
    ev = inp.pop()
    while ev >= 0:
        log.append((-1, ev >> 2, ev & 3))
        ev = inp.pop()
    return log, inp


SCENARIOS = {
    # name: (presses, until, step, pops)
    "bounce_only": ({0: [(100, 105), (112, 118), (125, 129)], 2: [(300, 310), (315, 330)]}, 600, 1, None),
    "bounce_then_hold": ({0: [(100, 104), (107, 110), (113, 400), (405, 409)]}, 900, 1, None),
    "release_bounce": ({2: [(100, 300), (305, 312), (318, 322)]}, 700, 1, None),
    "up_tap": ({0: [(100, 200)]}, 500, 10, None),
    "down_tap": ({1: [(100, 200)]}, 500, 10, None),
    "ok_tap": ({2: [(100, 200)]}, 500, 10, None),
    "back_tap": ({3: [(100, 200)]}, 500, 10, None),
    "ok_long": ({2: [(100, 100 + inputs.LONG_MS + 10)]}, 1500, 10, None),
    "ok_just_short": ({2: [(100, 100 + inputs.LONG_MS - 10)]}, 1500, 10, None),
    "ok_very_long": ({2: [(100, 4000)]}, 4500, 10, None),
    "back_long": ({3: [(100, 100 + inputs.LONG_MS + 10)]}, 1500, 10, None),
    "up_hold": ({0: [(100, 5100)]}, 5500, 10, None),
    "down_hold_1ms": ({1: [(100, 3100)]}, 3300, 1, None),
    "up_hold_7ms": ({0: [(100, 3100)]}, 3300, 7, None),
    "two_at_once": ({0: [(100, 1300)], 1: [(350, 1000)], 3: [(500, 700)]}, 1600, 10, None),
    "ring": ({0: [(100, 2500)], 1: [(2600, 2700)], 2: [(2800, 2900)]}, 3000, 10, {2550: 5}),
}


RISING = 8  # rp2's Pin.IRQ_RISING / IRQ_FALLING: the edge flags of IO_BANK0's INTR
FALLING = 4


def irq_rig(pins, clock):
    """Inputs as _attach leaves them on rp2, the handler driven by the caller."""
    inp = inputs.Inputs(pins, clock)
    inp.interrupts = True
    inp._both = RISING | FALLING
    return inp


def poll_into(inp, log):
    """The app's poll: every event it pops goes to log as (kind, button)."""
    inp.poll()
    ev = inp.pop()
    while ev >= 0:
        log.append((ev >> 2, ev & 3))
        ev = inp.pop()


def simulate_irq(base, presses, windows, until, handler_us=0, phase_us=0, read_after_ms=0):
    """The rp2 path: presses {button: [(down, up), ...]}, interrupts off during
    each (start, end) of windows (a flash erase, ~45 ms).  Like the chip, each
    pin latches its edge flags; once interrupts are on, the handler runs for
    every flagged pin in GPIO order (rp2's gpio_irq) and reads the level then.
    Each handler takes handler_us (about 100 on the RP2040), the first starting
    phase_us into its millisecond: the clock can tick between two of them.
    A handler reads the pin read_after_ms after its flags were taken (an edge can
    come in between: it raises the next interrupt).
    The app polls every 10 ms when it is not blind.  Returns [(kind, button)]."""
    t = [0]
    late = [0]  # ms the clock has ticked since the burst of handlers began

    def down(b, at):
        for a, z in presses.get(b, ()):
            if a <= at < z:
                return True
        return False

    reading = [0]  # ms after the flags that the running handler reads its pin

    def pin(b):
        return lambda: down(b, t[0] + reading[0])

    def clock():
        return ticks_add(base, t[0] + late[0])

    inp = irq_rig([pin(b) for b in range(4)], clock)
    flags = [0, 0, 0, 0]
    log = []
    while t[0] < until:
        now = t[0]
        blind = False
        for a, z in windows:
            if a <= now < z:
                blind = True
        for b in range(4):
            was = down(b, now - 1)
            if down(b, now) != was:
                flags[b] |= RISING if was else FALLING
        if not blind:
            spent = phase_us
            for b in range(4):
                if flags[b]:
                    edges = flags[b]
                    flags[b] = 0
                    late[0] = spent // 1000
                    reading[0] = read_after_ms
                    inp._latch(b, edges)
                    reading[0] = 0
                    spent += handler_us
            late[0] = 0
            if now % 10 == 0:
                poll_into(inp, log)
        t[0] += 1
    return log


def handler_calls(base, calls, until):
    """The rp2 handler called at given times, as gpio_irq calls it: calls is
    [(t, button, edge flags, what the pin reads when the handler reads it)]; the
    app polls every 10 ms.  Returns [(kind, button)]."""
    t = [0]
    reads = [False, False, False, False]

    def pin(b):
        return lambda: reads[b]

    inp = irq_rig([pin(b) for b in range(4)], lambda: ticks_add(base, t[0]))
    log = []
    pending = list(calls)
    while t[0] < until:
        while pending and pending[0][0] == t[0]:
            _, b, edges, pressed = pending.pop(0)
            reads[b] = pressed
            inp._latch(b, edges)
        if t[0] % 10 == 0:
            poll_into(inp, log)
        t[0] += 1
    return log


def typed(buttons, start=100, press=30, gap=30):
    """Presses of one button after the other, press ms down, gap ms up."""
    out = {}
    at = start
    for b in buttons:
        out.setdefault(b, []).append((at, at + press))
        at += press + gap
    return out, at


def blind_windows(base, buttons, length, step=1, handler_us=0, phase_us=0, read_after_ms=0):
    """For every window start over the typing (step ms apart): the events with
    interrupts off for `length` ms from there, and the events with none."""
    presses, end = typed(buttons)
    want = simulate_irq(base, presses, (), end + 300)
    out = []
    start = 100 - length
    while start < end:
        out.append((start, simulate_irq(base, presses, ((start, start + length),), end + 300, handler_us, phase_us,
                                        read_after_ms)))
        start += step
    return want, out


def run_all(base):
    out = {}
    for name in SCENARIOS:
        presses, until, step, pops = SCENARIOS[name]
        log, inp = simulate(base, presses, until, step, pops)
        out[name] = log
    return out
'''


def cpython_run(base=0):
    ns = {}
    exec(HARNESS, ns)
    return ns


@pytest.fixture(scope="module")
def cpy():
    ns = cpython_run()
    return ns["run_all"](0)


def mp_run(base_expr, patch_plain=False):
    code = HARNESS
    if patch_plain:
        code += "\ninputs.ticks_diff = lambda a, b: a - b\n"
    code += "\nimport time\nprint(repr(run_all(%s)))\n" % base_expr
    return ast.literal_eval(run_mp(code=code).stdout.strip())


# ------------------------------------------------------------------ expectations

def repeats_after(t_press, t_release_flip, step):
    """Times the REPEAT events must have: the first poll at or after
    t_press + repeat_at(k), while the key is still (debounced) down."""
    out = []
    k = 1
    while True:
        due = t_press + repeat_at(k)
        t = -(-due // step) * step  # first poll at or after `due`
        if t >= t_release_flip:
            return out
        out.append(t)
        k += 1


def check_all(res):
    """Every scenario's log against the timing rules (same for every interpreter and clock)."""
    # bounces shorter than DEBOUNCE_MS never make an event
    assert res["bounce_only"] == []
    # the last bounce starts at 113 and holds: PRESS exactly DEBOUNCE_MS later, once
    assert res["bounce_then_hold"] == [(113 + DEBOUNCE_MS, PRESS, UP)]
    # a bouncing release of OK: one PRESS, DEBOUNCE_MS after the contacts settle (322)
    assert res["release_bounce"] == [(322 + DEBOUNCE_MS, PRESS, OK)]
    # UP/DOWN act on the press, OK/BACK on the release
    assert res["up_tap"] == [(100 + DEBOUNCE_MS, PRESS, UP)]
    assert res["down_tap"] == [(100 + DEBOUNCE_MS, PRESS, DOWN)]
    assert res["ok_tap"] == [(200 + DEBOUNCE_MS, PRESS, OK)]
    assert res["back_tap"] == [(200 + DEBOUNCE_MS, PRESS, BACK)]
    # LONG once at LONG_MS after the press registered, and no PRESS on release
    assert res["ok_long"] == [(100 + DEBOUNCE_MS + LONG_MS, LONG, OK)]
    assert res["back_long"] == [(100 + DEBOUNCE_MS + LONG_MS, LONG, BACK)]
    assert res["ok_very_long"] == [(100 + DEBOUNCE_MS + LONG_MS, LONG, OK)]  # no repeat, no second LONG
    assert res["ok_just_short"] == [(100 + LONG_MS - 10 + DEBOUNCE_MS, PRESS, OK)]
    # accelerating repeats on the timing.repeat_at schedule, no drift at any poll step
    for name, b, down, up, step in (("up_hold", UP, 100, 5100, 10), ("down_hold_1ms", DOWN, 100, 3100, 1),
                                    ("up_hold_7ms", UP, 100, 3100, 7)):
        log = res[name]
        t_press = _first_debounced(down, step)
        assert log[0] == (t_press, PRESS, b), name
        flip = _release_flip(up, step)
        want = repeats_after(t_press, flip, step)
        assert [e for e in log[1:]] == [(t, REPEAT, b) for t in want], name
        assert len(want) > 10  # the fast end of the schedule is reached
    gaps = [repeat_at(k + 1) - repeat_at(k) for k in range(1, 20)]
    assert gaps == sorted(gaps, reverse=True) and gaps[0] > gaps[-1]  # it speeds up
    # buttons are independent: UP repeats on while DOWN and BACK come and go
    log = res["two_at_once"]
    ups = [e for e in log if e[2] == UP]
    assert ups[0] == (120, PRESS, UP)
    assert [e[0] for e in ups[1:]] == repeats_after(120, 1320, 10)
    downs = [e for e in log if e[2] == DOWN]
    assert downs[0] == (370, PRESS, DOWN)
    assert [e[0] for e in downs[1:]] == repeats_after(370, 1020, 10)
    assert [e for e in log if e[2] == BACK] == [(720, PRESS, BACK)]
    assert [e for e in log if e[2] == OK] == []
    # the ring buffer keeps the first 16 events, drops the newest, stays FIFO across its end
    log = res["ring"]
    first = [e for e in log if e[0] == 2550]
    assert [e[1:] for e in first] == [(PRESS, UP)] + [(REPEAT, UP)] * 4
    rest = [e[1:] for e in log if e[0] == -1]
    assert rest == [(REPEAT, UP)] * 11 + [(PRESS, DOWN), (PRESS, OK)]


def _first_debounced(down, step):
    """Poll time at which a press at `down` is debounced with polls every `step` ms."""
    seen = -(-down // step) * step  # first poll that sees the level
    return -(-(seen + DEBOUNCE_MS) // step) * step


def _release_flip(up, step):
    seen = -(-up // step) * step
    return -(-(seen + DEBOUNCE_MS) // step) * step


# ------------------------------------------------------------------ CPython

def test_timing_constants_are_consistent():
    assert POLL_MS <= DEBOUNCE_MS < REPEAT_FIRST < LONG_MS + DEBOUNCE_MS
    assert repeat_at(1) == REPEAT_FIRST
    assert all(repeat_at(k + 1) > repeat_at(k) for k in range(1, 40))


def test_events_on_cpython(cpy):
    check_all(cpy)


def test_bounces_at_poll_rate_are_ignored():
    """At the app's 10 ms poll: an 18 ms contact glitch is not a press, 30 ms of contact is."""
    ns = cpython_run()
    log, _ = ns["simulate"](0, {0: [(95, 113)]}, 400, 10)
    assert log == []
    log, _ = ns["simulate"](0, {0: [(95, 125)]}, 400, 10)
    assert log == [(120, PRESS, UP)]


def test_queue_is_16_and_pop_is_minus_one_when_empty():
    ns = cpython_run()
    log, inp = ns["simulate"](0, {0: [(100, 4000)]}, 4000, 10, {})
    assert inp.QUEUE == 16
    assert len(log) == 16 and all(t == -1 for t, _, _ in log)
    assert inp.pop() == -1


def test_last_activity_and_any_down():
    ns = cpython_run()
    log, inp = ns["simulate"](0, {2: [(100, 300)]}, 1000, 10)
    assert inp.last_activity == 320  # the release (OK acts on release)
    assert not inp.any_down()
    log, inp = ns["simulate"](0, {0: [(100, 2000)]}, 1000, 10)
    assert inp.any_down()
    assert inp.last_activity == log[-1][0]  # a repeat is activity: a held key keeps the screen awake


def test_event_encoding():
    from events.inputs import NAMES, event
    assert NAMES[UP] == "UP" and NAMES[BACK] == "BACK"
    seen = {event(k, b) for k in (PRESS, REPEAT, LONG) for b in (UP, DOWN, OK, BACK)}
    assert len(seen) == 12 and max(seen) < 256  # one byte in the ring buffer


# ------------------------------------------------------------------ edge interrupts (the rp2 path)

# typed one after the other at 30 ms presses / 30 ms gaps: one button again and
# again (a late release must not merge two presses), a release then a press of
# another button (latched together, they must keep their order), a mix
SEQUENCES = ((DOWN, DOWN, DOWN, DOWN), (OK, DOWN, OK, DOWN), (UP, OK, BACK, DOWN, OK, UP), (BACK, BACK, OK, OK))


@pytest.mark.parametrize("length", (45, 2))
def test_no_press_lost_or_swapped_while_interrupts_are_off(length):
    """A sector erase keeps interrupts off ~45 ms (a page program ~2 ms) and edges are
    stamped when it ends: wherever that falls in 30/30 typing, every press lands, in order."""
    ns = cpython_run()
    for buttons in SEQUENCES:
        want, runs = ns["blind_windows"](0, buttons, length)
        assert want == [(PRESS, b) for b in buttons]
        for start, got in runs:
            assert got == want, (buttons, "interrupts off from %d ms for %d ms" % (start, length))


@pytest.mark.parametrize("phase_us", (0, 850, 950))
def test_edges_latched_together_keep_their_order_when_the_clock_ticks_between_handlers(phase_us):
    """After an erase, rp2 runs the handler of each flagged pin in GPIO order, each
    about 0.1 ms of Python: the millisecond can tick between two of them (at 950 us
    it does, at 850 us for the 4th handler only).  OK released and UP pressed in one
    erase: UP (GP10) is stamped first, OK (GP12) 1 ms later, and UP went to the
    screen before OK's action, lost there (the emulated RP2040, 4 windows in 40).
    Handlers of one burst share its stamp: the finger's order holds."""
    ns = cpython_run()
    got = ns["simulate_irq"](0, {OK: [(40, 72)], UP: [(102, 132)]}, ((68, 113),), 400, 100, phase_us)
    assert got == [(PRESS, OK), (PRESS, UP)]
    for buttons in SEQUENCES:
        want, runs = ns["blind_windows"](0, buttons, 45, 1, 100, phase_us)
        for start, got in runs:
            assert got == want, (buttons, "interrupts off from %d ms for 45 ms" % start)


def test_a_press_released_before_its_handler_reads_the_pin_counts():
    """Interrupts off across UP's press (a save's erase); they come back, and UP is
    released after its flags were taken but before the handler read the pin: the pin
    reads released.  The falling flag alone says the level flipped, so the press is
    recorded; the release comes with its own interrupt (the emulated RP2040 lost that
    UP after a saved deal).  Everywhere in 30/30 typing, every press still lands."""
    ns = cpython_run()
    got = ns["simulate_irq"](0, {UP: [(100, 146)]}, ((90, 145),), 400, read_after_ms=1)
    assert got == [(PRESS, UP)]
    for buttons in SEQUENCES:
        want, runs = ns["blind_windows"](0, buttons, 45, 1, read_after_ms=1)
        for start, got in runs:
            assert got == want, (buttons, "interrupts off from %d ms for 45 ms, the pin read 1 ms late" % start)


@pytest.mark.parametrize("button", (UP, OK))
def test_a_press_whose_release_follows_its_handler_in_the_same_millisecond_counts(button):
    """As the emulated RP2040 showed it: the erase ends, rp2 takes UP's falling flag,
    UP is released 0.05 ms later, the handler reads the pin: released.  Then the
    release's own interrupt, in the same millisecond.  One press, as typed."""
    ns = cpython_run()
    rising, falling = ns["RISING"], ns["FALLING"]
    calls = [(145, button, falling, False), (145, button, rising, False)]
    assert ns["handler_calls"](0, calls, 400) == [(PRESS, button)]


def test_a_bounce_faster_than_the_handler_is_one_press():
    """Contacts bouncing while interrupts are on: the falling flag's handler finds the
    pin up again, the next one finds both flags and the pin down: one press."""
    ns = cpython_run()
    rising, falling = ns["RISING"], ns["FALLING"]
    calls = [(100, UP, falling, False), (100, UP, rising | falling, True), (130, UP, rising, False)]
    assert ns["handler_calls"](0, calls, 400) == [(PRESS, UP)]


def test_a_press_stamped_late_then_released_counts():
    """The case the emulated RP2040 showed: interrupts off across OK's release and UP's
    press; both are stamped when the erase ends, 19 ms before UP's release.  Held-level
    debouncing took UP for a bounce (lost) and put it before OK (GPIO order)."""
    ns = cpython_run()
    got = ns["simulate_irq"](0, {OK: [(40, 72)], UP: [(102, 132)]}, ((68, 113),), 400)
    assert got == [(PRESS, OK), (PRESS, UP)]


def test_bounces_and_holds_with_interrupts():
    ns = cpython_run()
    sim = ns["simulate_irq"]
    assert sim(0, {UP: [(100, 101), (102, 103), (104, 200)]}, (), 500) == [(PRESS, UP)]  # chatter on the press
    assert sim(0, {OK: [(100, 300), (301, 302), (303, 304)]}, (), 700) == [(PRESS, OK)]  # and on the release
    assert sim(0, {OK: [(100, 100 + LONG_MS + 10)]}, (), 1500) == [(LONG, OK)]
    assert sim(0, {UP: [(100, 100 + REPEAT_FIRST + 200)]}, (), 1500) == [(PRESS, UP), (REPEAT, UP), (REPEAT, UP)]


@pytest.mark.parametrize("wrap_in", (100, 160))
@pytest.mark.parametrize("phase_us", (0, 950))
def test_interrupts_off_on_micropython_across_the_wrap(wrap_in, phase_us):
    """The same on MicroPython's ticks (wrap-safe arithmetic), the wrap falling inside,
    with the ms ticking between two handlers of a burst (phase 950 us) or not."""
    code = HARNESS + "\nimport time\nprint(repr(blind_windows(time.ticks_add(0, -%d), %r, 45, 3, 100, %d)))\n" % (
        wrap_in, (OK, DOWN, OK, DOWN), phase_us)
    got = ast.literal_eval(run_mp(code=code).stdout.strip())
    want, runs = cpython_run()["blind_windows"](0, (OK, DOWN, OK, DOWN), 45, 3, 100, phase_us)
    assert all(events == want for _, events in runs)
    assert _tuples(got) == _tuples((want, runs))


def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, (list, tuple)) else x


# ------------------------------------------------------------------ MicroPython, across the ticks wrap

# the wrap falls: before the first press, during a press's debounce (polls 110/120),
# during a tap, during a release's debounce, while waiting for LONG, among repeats
WRAPS = (50, 115, 150, 210, 700, 2000)


@pytest.mark.parametrize("wrap_in", WRAPS)
def test_events_on_micropython_across_the_wrap(wrap_in, cpy):
    res = mp_run("time.ticks_add(0, -%d)" % wrap_in)
    check_all(res)
    assert res == cpy


def test_events_on_micropython_far_from_the_wrap(cpy):
    assert mp_run("12345") == cpy


@pytest.mark.parametrize("wrap_in", (115, 210, 700, 2000))
def test_wrap_check_has_teeth(wrap_in):
    """With plain subtraction instead of ticks_diff the same runs break when the wrap
    falls inside them: proof that the runs above really cross it."""
    res = mp_run("time.ticks_add(0, -%d)" % wrap_in, patch_plain=True)
    with pytest.raises(AssertionError):
        check_all(res)
