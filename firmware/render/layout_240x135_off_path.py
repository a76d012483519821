"""The drawings of the screens off the deal-entry path on the 240x135 colour layout
(render/layout_240x135.py): the deals lists (history, past games), the end of a
game and the end of a concours round, the team-name picker.

Loaded on demand (on_demand.py) by the screen that draws one, through the
layout's OFF_PATH, and released at the next change of screen: with `make
deploy`'s .mpy files their code would otherwise stay on the heap through every
deal. Each function takes the layout as its first argument and draws with its
methods, so the text-fit probe sees every label as it does on the layout.
"""
from render.layout_240x135 import (BACKGROUND, BAR, EW_LIGHT, FOREGROUND, FRAME, GREY, LIST_TOP, NS_COLOUR,
                                    NS_DARK, NS_LIGHT, RECORD_ROW, SELECTION, SIZE_DOUBLE, SIZE_SMALL,
                                    SIZE_TALL, SIZE_TRIPLE, TITLE, H, W, tall_text_width, text_width)
from render.text import first_that_fits


def records(layout, left, right, rows, index, start):
    """History and past games: a title bar naming the team columns, then rows of two
    lines: (number, texts, made, (left a, left b), (right a, right b), side); see
    layout_128x64.records. The text is drawn in the colour of the side team."""
    fill = layout.fill_rect
    layout.team_title(left, right)
    n = len(rows)
    for i in range(layout.RECORD_ROWS):
        k = start + i
        if k >= n:
            break
        y = LIST_TOP + RECORD_ROW * i
        number, texts, made, cells_left, cells_right, side = rows[k]
        selected = k == index
        colour = FOREGROUND
        if selected:
            fill(0, y, W - 5, RECORD_ROW, SELECTION)
            colour = BACKGROUND
        elif k & 1:
            fill(0, y, W - 5, RECORD_ROW, BAR)
        x = 2
        if number is not None:
            layout.label(number, 0, y, 28, 16, 2, GREY if not selected else BACKGROUND, SIZE_TALL, SIZE_TALL)
            x = 34
        if made is not None:
            layout.made_mark(made, x, y, BACKGROUND if selected else None)
            x += 20
        s = first_that_fits(texts, W - 6 - x, tall_text_width)
        text_colour = colour if side is None or selected else NS_LIGHT + 3 * side
        layout.label(s, x, y, W - 6 - x, 16, 0, text_colour, SIZE_TALL, SIZE_TALL)
        for half in (0, 1):  # a constant tuple: nothing built per row
            cells = cells_right if half else cells_left
            x0 = 121 * half
            tint = colour if selected else NS_LIGHT + 3 * half
            a, b = cells
            if a is True:
                layout.made_mark(True, x0 + 36, y + 16, BACKGROUND if selected else None)
            elif a is not None:
                layout.label(a, x0, y + 16, 52, 16, 2, tint, SIZE_TALL, SIZE_TALL, "+")
                if side == half:  # the takers' score, underlined
                    fill(x0 + 52 - text_width(a, SIZE_TALL) - 8, y + 30, text_width(a, SIZE_TALL) + 8, 1, tint)
            if b is not None:
                layout.label(b, x0 + 56, y + 16, 58, 16, 2, colour, SIZE_TALL, SIZE_TALL)
    if n > layout.RECORD_ROWS:  # scroll bar
        k = RECORD_ROW * layout.RECORD_ROWS
        fill(W - 3, 21, 3, k, FRAME)
        w = max(6, k * layout.RECORD_ROWS // n)
        fill(W - 3, 21 + (k - w) * start // max(1, n - layout.RECORD_ROWS), 3, w, GREY)


def team_totals(layout, ns_label, ns, ew_label, ew, panel_height, digits):
    """Each team's name on its colour, its total big under it on the darker panel
    (panel_height px; digits: y, height, width, stroke and gap of the figures), as the
    end of a game and the end of a round show them."""
    fill = layout.fill_rect
    y, height, width, stroke, gap = digits
    for i, label, n in ((0, ns_label, ns), (1, ew_label, ew)):
        x0 = 121 * i
        fill(x0, 25, 119, 18, NS_COLOUR + 3 * i)
        layout.label(label, x0 + 2, 26, 115, 16, 1)
        fill(x0, 43, 119, panel_height, NS_DARK + 3 * i)
        layout.figures(n, x0 + 4, y, 111, height, width, stroke, gap)


def game_over(layout, title, winner_line, ns_label, ns, ew_label, ew, hint_lines):
    """The final totals big (as on home) under each team, the winner's line on top, then
    what each key does (two lines)."""
    fill = layout.fill_rect
    colour = FOREGROUND
    if winner_line.startswith(ns_label):
        colour = NS_LIGHT
    elif winner_line.startswith(ew_label):
        colour = EW_LIGHT
    fill(0, 0, W, 24, TITLE)
    layout.label(winner_line, 2, 0, W - 4, 24, 1, colour, SIZE_TRIPLE)
    team_totals(layout, ns_label, ns, ew_label, ew, 54, (46, 48, 24, 6, 5))
    fill(0, 98, W, H - 98, BAR)
    layout.keys_line(hint_lines[0], 4, 99, W - 8)
    layout.keys_line(hint_lines[1], 4, 117, W - 8)


def round_over(layout, title, ns_label, ns, ew_label, ew, code, hint, note=None):
    """A concours round's end: the round, table and result on top, the totals under
    each team, the result code on one line, what the keys do. note: two lines in the
    code's place while the other team has not confirmed the result (no code then)."""
    fill = layout.fill_rect
    fill(0, 0, W, 24, TITLE)
    layout.label(title, 2, 0, W - 4, 24, 1, FOREGROUND, SIZE_TRIPLE)
    team_totals(layout, ns_label, ns, ew_label, ew, 40, (45, 36, 18, 5, 4))
    if note is None:
        layout.label(code, 0, 85, W, 28, 1, FOREGROUND, SIZE_DOUBLE, SIZE_SMALL)
    else:
        layout.label(note[0], 0, 85, W, 16, 1, FOREGROUND, SIZE_DOUBLE, SIZE_SMALL)
        layout.label(note[1], 0, 101, W, 16, 1, FOREGROUND, SIZE_DOUBLE, SIZE_SMALL)
    fill(0, 117, W, H - 117, BAR)
    layout.keys_line(hint, 4, 118, W - 8)


def name_picker(layout, title, name, cursor, hint):
    """A team's name picked letter by letter: the name at triple size, the letter under
    the cursor underlined, UP/DOWN arrows at the left."""
    layout.title(title)
    layout.arrow(6, 52)
    layout.arrow(6, 88, 1)
    n = len(name)
    x0 = 24 + (W - 24 - 24 * n) // 2
    layout.label(name, x0, 47, 24 * n, 52, 0, FOREGROUND, SIZE_TRIPLE, SIZE_TRIPLE)
    layout.fill_rect(x0 + 24 * cursor, 100, 20, 4, SELECTION)
    layout.hint(hint)
