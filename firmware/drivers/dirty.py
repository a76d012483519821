"""Dirty tracking shared by the display drivers.

A display is slow to feed (I2C at 400 kHz: ~25 ms for a full OLED frame), so
show() sends only what changed.  The drivers keep a shadow copy of what the
panel holds, allocated once, and compare it here.  Viper keeps the compare at
native speed and allocation-free on every show().
"""
import micropython
from coinche.compat import const

# sync_span() answers first << SPAN_SHIFT | last in one small int: a tuple of
# two would be allocated on every page of every show().  The drivers that read
# the span import these two.
SPAN_SHIFT = const(16)
SPAN_LAST = const(0xFFFF)


@micropython.viper
def sync_span(buf: ptr8, shadow: ptr8, start: int, count: int) -> int:
    """Copy buf[start:start+count] into shadow; return -1 if nothing differed, else
    first << SPAN_SHIFT | last, the offsets (from start) of the first and last byte
    that differed, so a driver can send that stretch and not the whole row."""
    i = start
    end = start + count
    first = -1
    last = 0
    while i < end:
        b = buf[i]
        if shadow[i] != b:
            shadow[i] = b
            if first < 0:
                first = i
            last = i
        i += 1
    if first < 0:
        return -1
    return ((first - start) << SPAN_SHIFT) | (last - start)

