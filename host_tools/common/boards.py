"""The boards the host tools know (one file per board in boards/), and the one message an
unknown --board name gets, the same in the simulator, the emulator, deploy and the UF2
build: the list of boards, with a "did you mean" when a name is close; and a board file's
constants, read without running it (it imports `machine`, which only the device has).

A board may build on another: a Pico W board is its Pico board plus what differs
(`from pico_oled import *`, then its own PORT_BOARD, NAME, WIFI). The board it builds on
goes onto the device beside it, under its own name (deploy, the UF2)."""
import ast
import os

from coinche.suggestion import closest as suggest

from host_tools.common.paths import BOARDS

SIM_BOARD = "sim"  # the terminal's own board: the simulator only, never a Pico


def board_names(boards=BOARDS):
    """Every board with a file in boards/, sorted."""
    return sorted(name[:-3] for name in os.listdir(boards) if name.endswith(".py") and not name.startswith("_"))


def pico_board_names(boards=BOARDS):
    """The boards a Pico runs (every board but the simulator's)."""
    return [name for name in board_names(boards) if name != SIM_BOARD]


def board_problem(name, known):
    """None when name is one of known, else the message that says so and lists them."""
    if name in known:
        return None
    if name == SIM_BOARD:
        return "board %r is the simulator's, not a Pico's (boards: %s)" % (name, ", ".join(known))
    hint = suggest(name, known) if name else None
    return "unknown board %r%s (boards: %s)" % (name, " - did you mean %r?" % hint if hint else "", ", ".join(known))


def board_path(board, boards=BOARDS):
    return os.path.join(boards, board + ".py")


def _board_tree(board, boards):
    path = board_path(board, boards)
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def board_base(board, boards=BOARDS):
    """The board `board` builds on (its `from <board> import *` of another board file), or None."""
    for node in _board_tree(board, boards).body:
        if (isinstance(node, ast.ImportFrom) and not node.level and [a.name for a in node.names] == ["*"]
                and node.module and os.path.exists(board_path(node.module, boards))):
            return node.module
    return None


def board_bases(board, boards=BOARDS):
    """The boards `board` builds on, nearest first (empty for a board of its own)."""
    bases = []
    base = board_base(board, boards)
    while base is not None and base not in bases and base != board:
        bases.append(base)
        base = board_base(base, boards)
    return bases


def board_constants(board, boards=BOARDS):
    """{name: value} of the literal constants a board file assigns at its top level, over
    those of the boards it builds on (the board's own win, as when it runs)."""
    found = {}
    for name in reversed([board] + board_bases(board, boards)):
        for node in _board_tree(name, boards).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                try:
                    found[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    pass
    return found
