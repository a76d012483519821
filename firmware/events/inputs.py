"""Buttons to events: debouncing, short press, long press, accelerating repeat.

Two ways in, one logic.  With the board's button pins (machine.Pin objects,
board.button_pins), every edge raises a hard interrupt that only writes
(time, button, level) into a preallocated ring: no press is lost however long
the app is busy (a render, a flash write, a garbage collection), and poll()
works through the edges in the order they came, with their own times.  With
no pins, or pins without interrupts (the terminal simulator, unit tests),
poll() samples the levels itself, as often as the app polls.

Debouncing (DEBOUNCE_MS, the time contacts take to settle) follows what is
known of the edges.  Polled, a level counts once it held DEBOUNCE_MS (the
idea of Adafruit's Debouncer and of Peter Hinch's Pushbutton): a glitch
between two polls is no press.  With interrupts an edge counts at its own
time, and for DEBOUNCE_MS after a flip the contacts are settling: edges then
change nothing until that time is over, when the level counts if it still
differs.  The held-level rule cannot work with interrupts: a flash erase
keeps them off for about 45 ms on the RP2040, so an edge can be stamped that
much late; a press stamped late and released at once looked like a bounce
and was lost, and a release stamped late merged two presses of one button
into one (seen on the emulated RP2040, modelled in tests/test_inputs.py).
Edges stamped together (latched while interrupts were off) are taken in a
finger's order: a release before a press of another button.  Latched edges
come out in GPIO order, one handler after the other (rp2's gpio_irq), each
about 0.1 ms of Python on the RP2040: the millisecond can tick between two of
them, and a release stamped 1 ms after the press of a lower-numbered pin came
out after it (OK's release after UP's press: the UP went to the screen before
OK's action, lost there; seen on the emulated RP2040 in about 1 window in 10).
So the edge of another pin whose handler starts within TOGETHER_MS of the
first edge of its burst takes that edge's stamp.

Any zero-argument callable works as a button (True while pressed), and the
clock is passed in, so tests drive both.  All time arithmetic is wrap-safe
ticks_diff.

UP/DOWN act on the press (then repeat while held); OK/BACK act on release so a
hold can mean something else (LONG fires once at LONG_MS and eats the release).
Events are small ints (kind << 2 | button): no allocation per event.
"""
from array import array

from coinche.compat import const, ticks_add, ticks_diff
from events.timing import DEBOUNCE_MS, LONG_MS, POLL_MS, REPEAT_FIRST, repeat_gap

UP = const(0)
DOWN = const(1)
OK = const(2)
BACK = const(3)

PRESS = const(0)
REPEAT = const(1)
LONG = const(2)

NAMES = ("UP", "DOWN", "OK", "BACK")

EDGE_SLOTS = const(64)  # edges the ring holds between two polls (a power of two)
EDGE_COUNT_MASK = const(0xFFFF)  # edge counters wrap here (a multiple of EDGE_SLOTS): small ints only
TOGETHER_MS = const(1)  # edges stamped this close after a burst's first were latched with it


def event(kind, button):
    return (kind << 2) | button


def is_key(ev, button, kind=PRESS):
    """Is event ev this button's press (or its kind: REPEAT, LONG)?"""
    return ev == ((kind << 2) | button)


def up_down(ev):
    """+1 for UP, -1 for DOWN (press or repeat), 0 for any other event."""
    kind = ev >> 2
    if kind == PRESS or kind == REPEAT:
        button = ev & 3
        if button == UP:
            return 1
        if button == DOWN:
            return -1
    return 0


class Debounced:
    """One button: the raw level and when it last changed; the debounced level."""

    def __init__(self, read, now):
        self.read = read
        self.state = False  # debounced: pressed or not
        self.raw = False  # the last level seen on the wire
        self.raw_since = now
        self.changed_at = now  # when the debounced level last flipped

    def feed(self, raw, at):
        """The wire showed `raw` at time `at`."""
        if raw != self.raw:
            self.raw = raw
            self.raw_since = at


try:
    from time import sleep_ms as _REAL_SLEEP_MS
except ImportError:  # CPython: no board sleeps in real time there
    _REAL_SLEEP_MS = None


def _edge_waiter(inputs):
    """A select.poll whose one stream is readable while the edge ring holds an edge not
    read yet (what asyncio's ThreadSafeFlag does with a flag); None where there is none."""
    try:
        import io
        import select

        class Edges(io.IOBase):
            def ioctl(self, request, flags):
                if request == 3:  # MP_STREAM_POLL
                    return flags if inputs._edges_written != inputs._edges_read else 0
                return -1

        waiter = select.poll()
        waiter.register(Edges(), select.POLLIN)
        return waiter
    except (ImportError, AttributeError, TypeError, ValueError, OSError):
        return None


class Inputs:
    """Four buttons to a fixed ring of events, from pin interrupts or from polling."""

    QUEUE = const(16)
    _waiter = None  # select.poll on the edge ring (_edge_waiter): set with interrupts only

    def __init__(self, buttons, clock, pins=None):
        self.clock = clock
        now = clock()
        self.keys = [Debounced(b, now) for b in buttons]
        self._repeats = [0, 0, 0, 0]
        self._next = [0, 0, 0, 0]
        self._long = [False, False, False, False]
        self._queue = bytearray(self.QUEUE)
        self._head = 0
        self._length = 0
        self.last_activity = now
        # the edge ring, written by the interrupt handler only
        self._edge_times = array("i", [0] * EDGE_SLOTS)
        self._edge_levels = bytearray(EDGE_SLOTS)  # button << 1 | pressed
        self._edges_written = 0
        self._edges_read = 0
        self.edges_dropped = 0  # edges the ring had no room for (never, at human speed)
        self._latched = bytearray(4)  # the level each button's last recorded edge left
        self._irqs = None
        self._both = 0
        self._burst_at = ticks_add(now, -1000)  # the stamp of the latest burst of edges
        self._burst_pins = 0  # the buttons whose edges it holds (a bit each)
        self.interrupts = pins is not None and self._attach(pins)

    # -- interrupts -----------------------------------------------------------
    def _attach(self, pins):
        """Edge interrupts on every pin; False (polling then) where there are none."""
        try:
            from machine import Pin
            both = Pin.IRQ_FALLING | Pin.IRQ_RISING
            self._irqs = [None] * len(pins)
            for index in range(len(pins)):
                self._irqs[index] = pins[index].irq(handler=self._handler(index), trigger=both, hard=True)
        except (ImportError, AttributeError, TypeError, ValueError, OSError):
            return False
        self._both = both
        self._waiter = _edge_waiter(self)
        now = self.clock()
        for index in range(len(self.keys)):  # a button already held now is held
            key = self.keys[index]
            key.feed(bool(key.read()), now)
            self._latched[index] = 1 if key.raw else 0
        return True

    def _handler(self, index):
        def on_edge(pin):
            self._latch(index, self._irqs[index].flags())
        return on_edge

    def _latch(self, index, edges):
        """In the hard interrupt: note when and what, allocate nothing, return.

        Flash erases and programs run with interrupts off (tens of ms for an
        erase): a press made and released meanwhile shows only as both edge
        flags with the level unchanged.  It is recorded as a press that held just
        long enough for the debouncer, ending now.  Edges latched together are
        handled one pin after the other: within TOGETHER_MS of the burst's
        first edge, each pin's first edge takes its stamp, so that they come in
        a finger's order (a release first), not in the pins' order across a
        tick of the clock.

        One edge flag with the level unchanged is the same short press: a press
        latched during an erase and released just after interrupts came back, after
        rp2 took its flags but before the handler read the pin (the emulated RP2040,
        after a save's four erases, in about one 40-deal game in three at 30/30).  Read
        as "released", it was lost; the flip is recorded as that press, and the
        release, flagged again, is its next interrupt's.  A bounce faster than the
        handler comes out as the debouncer sees it anyway: the last level counts."""
        now = self.clock()
        pin = 1 << index
        since = ticks_diff(now, self._burst_at)
        if 0 <= since <= TOGETHER_MS and not self._burst_pins & pin:
            now = self._burst_at
            self._burst_pins |= pin
        else:  # a new burst (a pin's own next edge is a new one: its bounce, its release)
            self._burst_at = now
            self._burst_pins = pin
        level = 1 if self.keys[index].read() else 0
        if level == self._latched[index]:
            # both flags: a press and its release (or a release and the next press) came
            # while interrupts were off; one flag: the pin flipped back after rp2 took
            # the flags, and that edge comes with its own interrupt
            self._record(index, 1 - level, ticks_add(now, -DEBOUNCE_MS))
            if (edges & self._both) != self._both:
                return
        self._record(index, level, now)

    def _record(self, index, level, at):
        written = self._edges_written
        if ((written - self._edges_read) & EDGE_COUNT_MASK) >= EDGE_SLOTS:
            self.edges_dropped += 1
            return
        slot = written & (EDGE_SLOTS - 1)
        self._edge_times[slot] = at
        self._edge_levels[slot] = (index << 1) | level
        self._latched[index] = level
        self._edges_written = (written + 1) & EDGE_COUNT_MASK

    # -- waiting between polls ---------------------------------------------------
    def busy(self):
        """Must the app poll again within POLL_MS?  Yes while an edge waits in the ring,
        a level is not debounced yet, or a button is held (its repeats and LONG come from
        polls), and always when the buttons are sampled rather than interrupting."""
        if not self.interrupts or self._edges_written != self._edges_read:
            return True
        for k in self.keys:
            if k.state or k.raw != k.state:
                return True
        return False

    def wait(self, ms, sleep_ms):
        """Sleep up to ms with the board's sleep_ms, or until a button's edge: time.sleep_ms
        on the rp2 port goes back to sleep after an interrupt, so a press would wait for
        the end of the sleep; select.poll returns as soon as the edge's handler filled the
        ring.  Only where the board sleeps in real time (its sleep_ms is time.sleep_ms):
        the simulator's sleep_ms is its clock and its protocol, never to be skipped.  Where
        no edge can end the sleep, it is POLL_MS at most, as it always was: a press is
        seen at the next poll, never a long sleep later."""
        if self._waiter is not None and sleep_ms is _REAL_SLEEP_MS:
            self._waiter.poll(ms)
        else:
            sleep_ms(ms if ms < POLL_MS else POLL_MS)

    # -- the event queue --------------------------------------------------------
    def _push(self, ev):
        if self._length < self.QUEUE:
            self._queue[(self._head + self._length) % self.QUEUE] = ev
            self._length += 1

    def pop(self):
        """Next event, or -1 when none."""
        if not self._length:
            return -1
        ev = self._queue[self._head]
        self._head = (self._head + 1) % self.QUEUE
        self._length -= 1
        return ev

    def any_down(self):
        for k in self.keys:
            if k.state:
                return True
        return False

    # -- turning levels into events ---------------------------------------------
    def poll(self):
        now = self.clock()
        if self.interrupts:
            read = self._edges_read
            written = self._edges_written
            times = self._edge_times
            levels = self._edge_levels
            while read != written:
                slot = read & (EDGE_SLOTS - 1)
                at = times[slot]
                what = levels[slot]
                # what fell due before this edge comes first; what falls due at its
                # very time waits for the edges latched with it (a release first)
                self._advance(ticks_add(at, -1), True)
                self.keys[what >> 1].feed((what & 1) == 1, at)
                read = (read + 1) & EDGE_COUNT_MASK
            self._edges_read = read
            self._advance(now, True)
        else:
            for key in self.keys:
                key.feed(bool(key.read()), now)
            self._advance(now, False)

    def _advance(self, until, exact):
        """Every debounced flip due by `until`, in the order they fell due (at equal
        times a release first), with the repeats and LONGs of held buttons before
        each.  exact (edge times from interrupts): a flip is due at its edge, or
        when the contacts settled after the previous flip, whichever is later, and
        happens then.  Polled: due once the level held DEBOUNCE_MS; happens now."""
        keys = self.keys
        while True:
            best = -1
            best_due = 0
            for i in range(4):
                k = keys[i]
                if k.raw == k.state:
                    continue
                if exact:
                    due = k.raw_since
                    if ticks_diff(due, k.changed_at) < DEBOUNCE_MS:
                        due = ticks_add(k.changed_at, DEBOUNCE_MS)
                else:
                    due = ticks_add(k.raw_since, DEBOUNCE_MS)
                if ticks_diff(until, due) < 0:
                    continue
                if best >= 0:
                    later = ticks_diff(due, best_due)
                    if later > 0 or (later == 0 and (k.raw or not keys[best].raw)):
                        continue  # not earlier, nor a release tied with a press
                best = i
                best_due = due
            if best < 0:
                break
            at = best_due if exact else until
            self._holds(at)
            self._flip(best, at)
        self._holds(until)

    def _flip(self, i, at):
        k = self.keys[i]
        k.state = k.raw
        k.changed_at = at
        self.last_activity = at
        if k.state:  # pressed
            self._repeats[i] = 0
            self._long[i] = False
            self._next[i] = REPEAT_FIRST
            if i < OK:
                self._push(event(PRESS, i))
        elif i >= OK and not self._long[i]:  # released: OK/BACK act now
            self._push(event(PRESS, i))

    def _holds(self, until):
        """Repeats (UP/DOWN) and the LONG (OK/BACK) that held buttons owe by `until`."""
        for i in range(4):
            k = self.keys[i]
            if not k.state:
                continue
            held = ticks_diff(until, k.changed_at)
            if i < OK:
                while held >= self._next[i]:
                    self._repeats[i] += 1
                    self._next[i] += repeat_gap(self._repeats[i])
                    self._push(event(REPEAT, i))
                    self.last_activity = until
            elif not self._long[i] and held >= LONG_MS:
                self._long[i] = True
                self._push(event(LONG, i))
                self.last_activity = until
