"""Dirty tracking shared by the display drivers.

A display is slow to feed (I2C at 400 kHz: ~25 ms for a full OLED frame), so
show() sends only what changed.  The drivers keep a shadow copy of what the
panel holds, allocated once, and compare it here.  Viper keeps the compare at
native speed and allocation-free on every show().
"""
import micropython


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
