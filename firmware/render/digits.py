"""Large seven-segment digits drawn with fill_rect: readable across a table,
no font data in RAM and no allocation per frame."""
from render.text import ndigits

# bit per segment: a top, b upper right, c lower right, d bottom, e lower left,
# f upper left, g middle
_SEGMENTS = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)


def digit(fb, value, x, y, width, height, thickness, colour=1):
    """Draw the digit value (0..9) in a width x height box at (x, y), bars thickness wide."""
    segments = _SEGMENTS[value]
    middle = (height - thickness) // 2  # top of the middle bar
    if segments & 0x01:
        fb.fill_rect(x, y, width, thickness, colour)
    if segments & 0x02:
        fb.fill_rect(x + width - thickness, y, thickness, middle + thickness, colour)
    if segments & 0x04:
        fb.fill_rect(x + width - thickness, y + middle, thickness, height - middle, colour)
    if segments & 0x08:
        fb.fill_rect(x, y + height - thickness, width, thickness, colour)
    if segments & 0x10:
        fb.fill_rect(x, y + middle, thickness, height - middle, colour)
    if segments & 0x20:
        fb.fill_rect(x, y, thickness, middle + thickness, colour)
    if segments & 0x40:
        fb.fill_rect(x, y + middle, width, thickness, colour)


def number(fb, value, x, y, digit_width, height, thickness, gap, colour=1, right=False):
    """Draw value >= 0 with its left edge at x (or right edge at x); returns the width."""
    if value < 0:
        value = -value
    total = width(value, digit_width, gap)
    if right:
        x -= total
    left = x + total - digit_width  # the units digit first, then leftwards
    while True:
        digit(fb, value % 10, left, y, digit_width, height, thickness, colour)
        value //= 10
        left -= digit_width + gap
        if not value:
            break
    return total


def width(value, digit_width, gap):
    """Width of value >= 0 drawn by number()."""
    count = ndigits(value)
    return count * digit_width + (count - 1) * gap
