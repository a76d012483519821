"""The boards the host tools know (one file per board in boards/), and the one message an
unknown --board name gets, the same in the simulator, the emulator, deploy and the UF2
build: the list of boards, with a "did you mean" when a name is close."""
import os

from coinche.record import suggest

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
