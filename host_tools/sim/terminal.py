"""A frame as terminal text: the picture in a box, in half blocks, quadrants or braille,
whichever is the biggest that fits (pure: no I/O)."""
from host_tools.common.frames import brightness, mono_bit, mono_pixels, rgb565

_HALF = (" ", "\u2580", "\u2584", "\u2588")  # (top, bottom) bits: none, top, bottom, both
# 2x2 pixels per cell, index = tl | tr << 1 | bl << 2 | br << 3
_QUAD = " \u2598\u259d\u2580\u2596\u258c\u259e\u259b\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588"
# 2x4 pixels per cell: Unicode braille, dot bit of the pixel at (column, row) in the cell
_BRAILLE_BASE = 0x2800
_BRAILLE_BIT = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][column]

# Renderings, least dense first: (name, pixels per cell across, down). The
# terminal shows the first that fits; all three show every pixel (in colour a
# braille cell has one colour for its lit dots). When even braille does not fit,
# each braille dot stands for a step x step block of pixels (lit if any is).
HALF_BLOCKS = ("half blocks", 1, 2)
QUADRANTS = ("quadrants", 2, 2)
BRAILLE = ("braille", 2, 4)
STATUS_LINES = 2  # under the picture: the status line and the key legend


def box_size(w, h, mode, step=1):
    """Terminal columns and rows a w x h frame needs in `mode`, box and status lines included."""
    _, across, down = mode
    return -(-w // (across * step)) + 2, -(-h // (down * step)) + 2 + STATUS_LINES


def choose_rendering(w, h, fmt, cols=None, rows=None):
    """(mode, step) for a frame in a cols x rows terminal: the biggest picture that fits.

    Mono frames try half blocks, quadrants, then braille; colour frames half
    blocks (two colours per cell), then braille (every pixel's place, one
    colour per cell). step > 1 only when even that does not fit."""
    modes = (HALF_BLOCKS, QUADRANTS, BRAILLE) if fmt == "mono" else (HALF_BLOCKS, BRAILLE)
    if cols is None or rows is None:
        return modes[0], 1
    for mode in modes:
        need_cols, need_rows = box_size(w, h, mode)
        if need_cols <= cols and need_rows <= rows:
            return mode, 1
    step = 2
    while True:
        need_cols, need_rows = box_size(w, h, BRAILLE, step)
        if (need_cols <= cols and need_rows <= rows) or step >= max(w, h):
            return BRAILLE, step
        step += 1


def full_size(w, h):
    """The smallest terminal (columns, rows) that shows every pixel in half blocks."""
    return box_size(w, h, HALF_BLOCKS)


def _mono_grid(frame, step):
    """Rows of 0/1 pixels; with step > 1 one per step x step block, lit if any pixel is."""
    w, h, data = frame.w, frame.h, frame.data
    if step == 1:
        px = mono_pixels(frame)
        return [px[y * w:(y + 1) * w] for y in range(h)], w, h
    gw, gh = -(-w // step), -(-h // step)
    grid = [bytearray(gw) for _ in range(gh)]
    for y in range(h):
        row = grid[y // step]
        for x in range(w):
            if mono_bit(data, w, x, y):
                row[x // step] = 1
    return grid, gw, gh


def _cell_bits(grid, gw, gh, x0, y0, across, down):
    """The lit pixels of one cell as a list of (column, row) inside the cell."""
    out = []
    for dy in range(down):
        y = y0 + dy
        if y >= gh:
            break
        row = grid[y]
        for dx in range(across):
            x = x0 + dx
            if x < gw and row[x]:
                out.append((dx, dy))
    return out


def _mono_lines(grid, gw, gh, mode):
    name, across, down = mode
    lines = []
    for y0 in range(0, gh, down):
        cells = []
        for x0 in range(0, gw, across):
            lit = _cell_bits(grid, gw, gh, x0, y0, across, down)
            if name == "braille":
                code = 0
                for dx, dy in lit:
                    code |= _BRAILLE_BIT[dy][dx]
                cells.append(chr(_BRAILLE_BASE + code) if code else " ")
            elif name == "quadrants":
                i = 0
                for dx, dy in lit:
                    i |= 1 << (dx + 2 * dy)
                cells.append(_QUAD[i])
            else:
                i = 0
                for _, dy in lit:
                    i |= 1 << dy
                cells.append(_HALF[i])
        lines.append("".join(cells))
    return lines


def render_frame(frame, cols=None, rows=None, level=255, on=True, colour=True):
    """The frame inside a box, as terminal lines (pure: no I/O).

    cols x rows is the whole terminal (the box plus STATUS_LINES lines under
    it); choose_rendering() picks how many pixels share a character cell."""
    w, h, data = frame.w, frame.h, frame.data
    mode, step = choose_rendering(w, h, frame.fmt, cols, rows)
    dim = colour and on and level < 255
    if frame.fmt == "mono":
        if not on:
            need_cols, need_rows = box_size(w, h, mode, step)
            body = [" " * (need_cols - 2)] * (need_rows - 2 - STATUS_LINES)
        else:
            body = _mono_lines(*_mono_grid(frame, step), mode)
        if dim:
            g = brightness(level, on)
            body = ["\x1b[38;2;%d;%d;%dm%s\x1b[39m" % (g, g, g, line) for line in body]
    elif frame.fmt == "rgb565":
        bright = brightness(level, on)
        if mode is HALF_BLOCKS:
            body = _rgb_half_lines(data, w, h, bright)
        else:
            body = _rgb_braille_lines(data, w, h, step, bright)
    else:
        raise ValueError("unknown frame format %r" % frame.fmt)
    inner = box_size(w, h, mode, step)[0] - 2
    top = "\u250c" + "\u2500" * inner + "\u2510"
    bottom = "\u2514" + "\u2500" * inner + "\u2518"
    return [top] + ["\u2502" + line + "\u2502" for line in body] + [bottom]


def _scaled(c, bright):
    r, g, b = c
    if bright != 255:
        r, g, b = r * bright // 255, g * bright // 255, b * bright // 255
    return r, g, b


def _rgb_half_lines(data, w, h, bright):
    body = []
    for y in range(0, h, 2):
        out = []
        prev = None
        for x in range(w):
            i = (y * w + x) * 2
            top = _scaled(rgb565(data[i], data[i + 1]), bright)
            if y + 1 < h:
                i += w * 2
                bot = _scaled(rgb565(data[i], data[i + 1]), bright)
            else:
                bot = (0, 0, 0)
            if (top, bot) != prev:
                out.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % (top + bot))
                prev = (top, bot)
            out.append("\u2580")
        out.append("\x1b[0m")
        body.append("".join(out))
    return body


def _rgb_braille_lines(data, w, h, step, bright):
    """Braille cells in colour: a cell's background is the frame's background
    colour if the cell shows any of it (else the cell's most common colour); its
    dots are the other pixels, drawn in their most common colour. With step > 1
    a dot stands for a step x step block, taking the block's first pixel that
    is not the frame's background (so thin lines and text survive)."""
    values = [(data[i] << 8) | data[i + 1] for i in range(0, w * h * 2, 2)]
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    background = max(counts, key=counts.get)
    gw, gh = -(-w // step), -(-h // step)
    if step == 1:
        grid = [values[y * w:(y + 1) * w] for y in range(h)]
    else:
        grid = []
        for gy in range(gh):
            row = []
            for gx in range(gw):
                v = background
                for y in range(gy * step, min(h, (gy + 1) * step)):
                    for x in range(gx * step, min(w, (gx + 1) * step)):
                        if values[y * w + x] != background:
                            v = values[y * w + x]
                            break
                    if v != background:
                        break
                row.append(v)
            grid.append(row)
    body = []
    for y0 in range(0, gh, 4):
        out = []
        prev = None
        for x0 in range(0, gw, 2):
            cell = {}
            for dy in range(4):
                if y0 + dy < gh:
                    row = grid[y0 + dy]
                    for dx in range(2):
                        if x0 + dx < gw:
                            cell[(dx, dy)] = row[x0 + dx]
            tally = {}
            for v in cell.values():
                tally[v] = tally.get(v, 0) + 1
            back = background if background in tally else max(tally, key=tally.get)
            others = {v: n for v, n in tally.items() if v != back}
            fore = max(others, key=others.get) if others else back
            code = 0
            for (dx, dy), v in cell.items():
                if v != back:
                    code |= _BRAILLE_BIT[dy][dx]
            colours = _scaled(rgb565(fore >> 8, fore & 255), bright) + _scaled(rgb565(back >> 8, back & 255), bright)
            if colours != prev:
                out.append("\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm" % colours)
                prev = colours
            out.append(chr(_BRAILLE_BASE + code) if code else " ")
        out.append("\x1b[0m")
        body.append("".join(out))
    return body


def size_note(frame, cols, rows):
    """What the status line says about the rendering in a cols x rows terminal."""
    (name, across, down), step = choose_rendering(frame.w, frame.h, frame.fmt, cols, rows)
    full_cols, full_rows = full_size(frame.w, frame.h)
    if step == 1 and across == 1:
        return ""
    if step == 1:
        shown = "%s %dx%d px/char" % (name, across, down)
    else:
        shown = "%s, %dx%d px merged per dot" % (name, step, step)
    return "  [%s; %dx%d or more: every pixel]" % (shown, full_cols, full_rows)
