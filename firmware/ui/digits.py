"""Large seven-segment digits drawn with fill_rect: readable across a table,
no font data in RAM and no allocation per frame."""

# bit per segment: a top, b upper right, c lower right, d bottom, e lower left,
# f upper left, g middle
_SEG = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)


def digit(fb, d, x, y, w, h, t, c=1):
    s = _SEG[d]
    h2 = (h - t) // 2  # top of the middle bar
    if s & 0x01:
        fb.fill_rect(x, y, w, t, c)
    if s & 0x02:
        fb.fill_rect(x + w - t, y, t, h2 + t, c)
    if s & 0x04:
        fb.fill_rect(x + w - t, y + h2, t, h - h2, c)
    if s & 0x08:
        fb.fill_rect(x, y + h - t, w, t, c)
    if s & 0x10:
        fb.fill_rect(x, y + h2, t, h - h2, c)
    if s & 0x20:
        fb.fill_rect(x, y, t, h2 + t, c)
    if s & 0x40:
        fb.fill_rect(x, y + h2, w, t, c)


def number(fb, n, x, y, w, h, t, gap, c=1, right=False):
    """Draw n >= 0 with its left edge at x (or right edge at x); returns the width."""
    if n < 0:
        n = -n
    k = 1
    m = n
    while m >= 10:
        m //= 10
        k += 1
    total = k * w + (k - 1) * gap
    if right:
        x -= total
    cx = x + total - w
    while True:
        digit(fb, n % 10, cx, y, w, h, t, c)
        n //= 10
        cx -= w + gap
        if not n:
            break
    return total


def width(n, w, gap):
    k = 1
    while n >= 10:
        n //= 10
        k += 1
    return k * w + (k - 1) * gap
