"""Dirty tracking shared by the display drivers.

A display is slow to feed (I2C at 400 kHz: ~25 ms for a full OLED frame), so
show() sends only what changed.  The drivers keep a shadow copy of what the
panel holds, allocated once, and compare it here.  Viper keeps the compare at
native speed and allocation-free on every show().
"""
import micropython
from micropython import const

# sync_span() answers first << SPAN_SHIFT | last in one small int: a tuple of
# two would be allocated on every page of every show().
SPAN_SHIFT = const(16)
SPAN_LAST = const(0xFFFF)


@micropython.viper
def sync(buf: ptr8, shadow: ptr8, start: int, count: int) -> int:
    """Copy buf[start:start+count] into shadow; return 1 if any byte differed."""
    i = start
    end = start + count
    changed = 0
    while i < end:
        b = buf[i]
        if shadow[i] != b:
            shadow[i] = b
            changed = 1
        i += 1
    return changed


@micropython.viper
def sync_span(buf: ptr8, shadow: ptr8, start: int, count: int) -> int:
    """Copy buf[start:start+count] into shadow; return -1 if nothing differed, else
    first << SPAN_SHIFT | last, the offsets (from start) of the first and last byte
    that differed, so a driver can send that stretch and not the whole row."""
    i = 0
    first = -1
    last = -1
    while i < count:
        b = buf[start + i]
        if shadow[start + i] != b:
            shadow[start + i] = b
            if first < 0:
                first = i
            last = i
        i += 1
    if first < 0:
        return -1
    return (first << SPAN_SHIFT) | last


@micropython.viper
def copy(source: ptr8, source_start: int, target: ptr8, target_start: int, count: int):
    """target[target_start:target_start+count] = source[source_start:...], without the
    memoryview that a slice of the source would allocate."""
    i = 0
    while i < count:
        target[target_start + i] = source[source_start + i]
        i += 1
