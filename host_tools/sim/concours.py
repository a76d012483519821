"""`--concours ROUND,TABLE,NS_TEAM,EW_TEAM`: the simulated device put in a concours round
the way a player does it, by pressing through Menu > Concours (the firmware's own
menu rows and first values tell how many presses each step takes)."""
from screens.concours import FIELDS, HIGHEST, next_round
from screens.menu import Menu


class ConcoursError(ValueError):
    """A --concours value the device cannot take; the message says which."""


def parse_concours(text):
    """(round, table, ns_team, ew_team) from 'R,T,A,B', each in the range the device's
    pickers offer, or ConcoursError."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 4:
        raise ConcoursError("--concours takes ROUND,TABLE,NS_TEAM,EW_TEAM, got %r" % text)
    numbers = []
    for field, part in zip(FIELDS, parts):
        if not part.isdigit() or not 1 <= int(part) <= HIGHEST[field]:
            raise ConcoursError("--concours: %s must be a whole number from 1 to %d, got %r"
                                % (field[2:].replace("ns", "NS team").replace("ew", "EW team"), HIGHEST[field], part))
        numbers.append(int(part))
    if numbers[2] == numbers[3]:
        raise ConcoursError("--concours: a team cannot play itself (NS and EW are both %d)" % numbers[2])
    return tuple(numbers)


class _Settings:
    """The part of a GameTable next_round() reads: the settings."""

    def __init__(self, settings):
        self.settings = settings


def open_presses(screen):
    """The buttons that open Menu > Concours from `screen` (home, game over or a round's end)."""
    presses = []
    if screen == "gameover":
        presses.append("OK")  # a new game: home
        screen = "home"
    if screen == "home":
        presses.append("OK")
        down = Menu.ITEMS.index("m_concours")
        up = len(Menu.ITEMS) - down  # the menu wraps: up from its first row
        presses += ["UP"] * up if up < down else ["DOWN"] * down
    elif screen != "roundover":
        raise ConcoursError("--concours: the device shows %r, not home or the end of a game" % screen)
    presses.append("OK")  # the Concours screen, on its start row
    return presses


def field_presses(offered, wanted):
    """The buttons that turn what the open Concours screen offers ({"round", "table",
    "teams"}) into `wanted` (round, table, ns, ew), then start the round. The screen
    opens on its start row, the round it proposes filled in; a number that differs is
    changed on its row; the start asks once."""
    first = (offered["round"], offered["table"], offered["teams"]["NS"], offered["teams"]["EW"])
    presses = []
    row = len(FIELDS)  # the start's row
    for index in range(len(FIELDS)):
        step = wanted[index] - first[index]
        if step:
            presses += ["UP" if index < row else "DOWN"] * abs(row - index)
            row = index
            presses.append("OK")
            presses += ["UP" if step > 0 else "DOWN"] * abs(step)
            presses.append("OK")
    presses += ["DOWN"] * (len(FIELDS) - row)
    presses += ["OK", "OK"]  # the start, then its question: what it starts
    return presses


def round_presses(screen, settings, wanted, state=None):
    """The buttons that start round `wanted` (round, table, ns, ew) from `screen` (home,
    game over or a round's end), the device's settings being `settings`; state: the
    device's state, whose club link may hold the organiser's draw (offered first).
    Exact only when no draw arrives while they are pressed: start_round() reads what
    the open screen offers instead."""
    link = state.get("link") if state else None
    offered = next_round(_Settings(settings), link.get("draw") if link else None)
    return open_presses(screen) + field_presses(offered, wanted)


def start_round(sim, wanted):
    """Press the simulated device into round `wanted` as a player does: open Menu >
    Concours, read what it offers (the organiser's draw, when the link brought it
    before the screen opened; whatever arrives first), then set each number from
    there. Its state's "concours" then holds the round (ConcoursError when it does
    not: the device refused, a message says why)."""
    state = sim.state()
    for button in open_presses(state["screen"]):
        sim.press(button)
    sim.sync()
    shown = sim.state()
    offered = shown.get("offered")
    if offered is None:  # a device without the field: what it would offer
        link = shown.get("link")
        offered = next_round(_Settings(shown["settings"]), link.get("draw") if link else None)
    for button in field_presses(offered, wanted):
        sim.press(button)
    sim.sync()
    held = sim.state().get("concours")
    if not held or (held["round"], held["table"], held["teams"]["NS"], held["teams"]["EW"]) != tuple(wanted):
        raise ConcoursError("--concours: the device did not start round %d at table %d (it holds %r)"
                            % (wanted[0], wanted[1], held))
