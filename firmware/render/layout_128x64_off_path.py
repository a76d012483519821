"""The drawings of the screens off the deal-entry path on the 128x64 monochrome layout
(render/layout_128x64.py): the deals lists (history, past games), the end of a
game and the end of a concours round, the team-name picker.

Loaded on demand (on_demand.py) by the screen that draws one, through the
layout's OFF_PATH, and released at the next change of screen: with `make
deploy`'s .mpy files their code would otherwise stay on the heap through every
deal. Each function takes the layout as its first argument and draws with its
methods, so the text-fit probe sees every label as it does on the layout.
"""
from render.layout_128x64 import DEAL_ROW, HALF, LIST_TOP, W
from render.text import first_that_fits, ndigits


def records(layout, left, right, rows, sel, top):
    """History and past games: a title bar naming the team columns, then rows of two
    lines: (number, texts, made, (left a, left b), (right a, right b), side).

    Line 1: the number, a tick or a cross when made is not None, then the first of
    texts (alternatives, longest first) that fits. Line 2, in fixed columns under each
    team: a (a deal score; True: a tick, the winner) and b (a running total), in
    narrow digits; the side team's (0 left, 1 right) score is underlined."""
    fb = layout.fb
    layout.team_title(left, right)
    n = len(rows)
    for i in range(layout.RECORD_ROWS):
        k = top + i
        if k >= n:
            break
        y = LIST_TOP + DEAL_ROW * i
        number, texts, made, cells_left, cells_right, side = rows[k]
        c = 1
        if k == sel:
            fb.fill_rect(0, y - 1, W - 2, DEAL_ROW, 1)
            c = 0
        x = 0
        if number is not None:
            layout.label(number, 0, y, 13, 2, c, False, None, True)
            x = 17
        if made is not None:
            layout.made_mark(made, x, y, c)
            x += 10
        layout.label(first_that_fits(texts, W - 3 - x), x, y, W - 3 - x, 0, c)
        for half in (0, 1):  # a constant tuple: nothing built per row
            cells = cells_right if half else cells_left
            x0 = (HALF + 1) * half
            a, b = cells
            if a is True:
                layout.made_mark(True, x0 + 21, y + 8, c)
            elif a is not None:
                layout.label(a, x0, y + 8, 29, 2, c, False, None, True)
                if side == half:
                    fb.hline(x0 + 29 - 7 * ndigits(a), y + 16, 7 * ndigits(a), c)
            if b is not None:
                layout.label(b, x0 + 33, y + 8, 29 - 2 * half, 2, c, False, None, True)
            if a is not None and b is not None:
                for dy in range(0, 8, 2):
                    fb.pixel(x0 + 31, y + 8 + dy, c)
        fb.vline(HALF, y + 8, 8, c)
    if n > layout.RECORD_ROWS:  # scroll bar
        h = max(4, 54 * layout.RECORD_ROWS // n)
        y = LIST_TOP + (54 - h) * top // max(1, n - layout.RECORD_ROWS)
        fb.fill_rect(W - 2, y, 2, h, 1)


def team_totals(layout, ns_label, ns, ew_label, ew, rule_height, digits):
    """Each team's name, its total big under it, a rule between the two columns
    (rule_height px; digits: y, height, width and stroke of the figures), as the end of
    a game and the end of a round show them."""
    y, height, width, stroke = digits
    layout.label(ns_label, 0, 11, HALF - 1)
    layout.label(ew_label, HALF + 1, 11, HALF - 1, 2)
    layout.fb.vline(HALF, 11, rule_height, 1)
    layout.figures(ns, 2, y, HALF - 4, height, width, stroke, 2, 1)
    layout.figures(ew, HALF + 2, y, HALF - 4, height, width, stroke, 2, 1)


def game_over(layout, title, winner_line, ns_label, ns, ew_label, ew, hint_lines):
    """The final totals big (as on home), each under its team, the winner's line on
    top; hint_lines: what each key does, two lines."""
    fb = layout.fb
    layout.label(winner_line, 0, 0, W, 1, 1)
    fb.hline(0, 9, W, 1)
    team_totals(layout, ns_label, ns, ew_label, ew, 34, (21, 24, 12, 3))
    fb.hline(0, 46, W, 1)
    layout.label(hint_lines[0], 0, 48, W)
    layout.label(hint_lines[1], 0, 56, W)


def round_over(layout, title, ns_label, ns, ew_label, ew, code, hint, note=None):
    """A concours round's end: the round, table and result on top, the totals under
    each team, the result code in two lines of two groups (it is wider than the
    screen on one), what the keys do. note: two lines in the code's place while the
    other team has not confirmed the result (the code is not shown then)."""
    fb = layout.fb
    layout.label(title, 0, 0, W, 1, 1)
    fb.hline(0, 9, W, 1)
    team_totals(layout, ns_label, ns, ew_label, ew, 27, (20, 17, 10, 2))
    fb.hline(0, 38, W, 1)
    if note is None:
        layout.label(code[:9], 0, 40, W, 1)
        layout.label(code[10:], 0, 48, W, 1)
    else:
        layout.label(note[0], 0, 40, W, 1)
        layout.label(note[1], 0, 48, W, 1)
    layout.label(hint, 0, 56, W)


def name_picker(layout, title, name, cursor, hint):
    """A team's name picked letter by letter: the name big (double size while it fits),
    the letter under the cursor underlined, UP/DOWN arrows at the left."""
    layout.title(title)
    layout.arrow_up(2, 20)
    layout.arrow_down(2, 32)
    n = len(name)
    pitch = 16 if 16 * n <= W - 16 else 8
    x0 = 12 + (W - 12 - pitch * n) // 2
    layout.label(name, x0, 22, pitch * n, 0, 1, pitch == 16)
    layout.fb.fill_rect(x0 + pitch * cursor, 40, pitch - 2, 2, 1)
    layout.hint(hint)
