"""The pictures the device draws, as the simulator and the emulated Pico both receive them.

A frame is the display's own bytes: MONO_VLSB pages for the OLED, big-endian RGB565 rows
for the Display Pack. Decoding lives here so the terminal, the screenshots and the
emulator read those bytes the same way."""
from typing import NamedTuple

SHOT_SCALE = 4  # screen pixels per panel pixel in a screenshot


class Frame(NamedTuple):
    screen: str
    fmt: str  # "mono" (MONO_VLSB bytes) or "rgb565" (row-major, big-endian)
    w: int
    h: int
    data: bytes


def mono_pixels(frame):
    """MONO_VLSB -> one byte per pixel (0/1), row-major."""
    w, h, data = frame.w, frame.h, frame.data
    out = bytearray(w * h)
    for page in range(h // 8):
        row = data[page * w:(page + 1) * w]
        for bit in range(8):
            y = page * 8 + bit
            if y >= h:
                break
            base = y * w
            mask = 1 << bit
            for x, b in enumerate(row):
                if b & mask:
                    out[base + x] = 1
    return out


def mono_bit(data, w, x, y):
    """The pixel at (x, y) of MONO_VLSB bytes `data`, w pixels wide: 0 or 1."""
    return (data[(y >> 3) * w + x] >> (y & 7)) & 1


def rgb565(hi, lo):
    """(red, green, blue) 0..255 of one RGB565 pixel given as its two bytes."""
    v = (hi << 8) | lo
    return ((v >> 11) & 31) * 255 // 31, ((v >> 5) & 63) * 255 // 63, (v & 31) * 255 // 31


def brightness(level, on):
    """Lit-pixel brightness 0..255: an OLED at contrast 0 is dim, not dark."""
    return 0 if not on else 64 + 191 * level // 255


def frame_image(frame, scale=SHOT_SCALE, level=255, on=True):
    """A PIL image of a frame as the panel would show it (dimmed, or dark when off)."""
    from PIL import Image

    bright = brightness(level, on)
    if frame.fmt == "mono":
        px = mono_pixels(frame)
        lut = bytes((0, bright)) + bytes(254)
        img = Image.frombytes("L", (frame.w, frame.h), bytes(px.translate(lut)))
    elif frame.fmt == "rgb565":
        d = frame.data
        rgb = bytearray()
        for i in range(0, frame.w * frame.h * 2, 2):
            rgb += bytes(c * bright // 255 for c in rgb565(d[i], d[i + 1]))
        img = Image.frombytes("RGB", (frame.w, frame.h), bytes(rgb))
    else:
        raise ValueError("unknown frame format %r" % frame.fmt)
    if scale != 1:
        img = img.resize((frame.w * scale, frame.h * scale), Image.NEAREST)
    return img
