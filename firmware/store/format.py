"""The journal's format (version 1, docs/storage.md): the file names, the format
version every header carries, and the game actions with what each changes in a
deal list. Shared by the writing side (store/journal.py) and the recovery
(store/recovery.py), which import it and not each other.
"""
from coinche.compat import const

FORMAT_VERSION = const(1)
LEGACY_SETTINGS_FILE = "settings.log"  # format 1 before numbered settings files


def settings_name(number):
    """The file name of settings file `number` (each change writes the next one)."""
    return "s%d.log" % number


def settings_file(number):
    """The file name of settings file `number`; 0 is the legacy settings.log."""
    return settings_name(number) if number else LEGACY_SETTINGS_FILE


def segment_name(game, segment):
    """The file name of segment `segment` of game `game`."""
    return "g%d.%d.log" % (game, segment)


def archive_name(game):
    """The file name of the archive of game `game`."""
    return "a%d.log" % game


class Unreadable(ValueError):
    """A file stopped being readable: no args when damaged, (1,) for a newer format.

    A ValueError, so record() raises it as is for an action that does not fit."""


def check_version(header):
    """Unreadable unless the header's format version is this one ((1,): a newer one)."""
    version = header.get("v")
    if type(version) is not int or version < FORMAT_VERSION:
        raise Unreadable
    if version > FORMAT_VERSION:
        raise Unreadable(1)


def _deal_of(action):
    deal = action.get("deal")
    if not isinstance(deal, dict):
        raise Unreadable
    return deal


def _index_of(action, deals):
    index = action.get("i")
    if type(index) is not int or not 0 <= index < len(deals):
        raise Unreadable
    return index


def _apply_add(deals, action):
    deals.append(_deal_of(action))


def _apply_edit(deals, action):
    deals[_index_of(action, deals)] = _deal_of(action)


def _apply_delete(deals, action):
    deals.pop(_index_of(action, deals))


def _check_dealer(deals, action):
    """A dealer correction: "fix", the game's corrections [[deal index, seat], ...].
    It leaves the deals alone: the game's rules carry it (see rules_after)."""
    fix = action.get("fix")
    if not isinstance(fix, list):
        raise Unreadable
    for item in fix:
        if (not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int or item[0] < 0
                or item[1] not in ("N", "W", "S", "E")):
            raise Unreadable


def _check_names(deals, action):
    """The game's team names from this deal on: "names", {"NS": text, "EW": text} or
    null (NS/EW). It leaves the deals alone: the game's rules carry it (see rules_after)."""
    names = action.get("names")
    if names is None:
        return
    if not isinstance(names, dict):
        raise Unreadable
    for team in names:
        if team not in ("NS", "EW") or not isinstance(names[team], str):
            raise Unreadable


def _check_mark(deals, action):
    """A mark on the round's result that leaves the deals alone (the game's rules carry
    it: see rules_after): "confirm", the other team's confirmation of the "n" deals the
    game holds (all of them), or "end", exactly "end": "time" (the round ended on time
    after the deals played, the shape the organiser's app takes)."""
    if action["op"] == "end":
        if action.get("end") != "time":
            raise Unreadable
    elif action.get("n") != len(deals) or type(action.get("n")) is not int:
        raise Unreadable


# op -> (apply(deals, action): raises Unreadable before changing anything when the
# action does not fit; the fields of the action that are stored with its "op")
GAME_ACTIONS = {
    "add": (_apply_add, ("deal",)),
    "edit": (_apply_edit, ("i", "deal")),
    "del": (_apply_delete, ("i",)),
    "dealer": (_check_dealer, ("fix",)),
    "names": (_check_names, ("names",)),
    "confirm": (_check_mark, ("n",)),
    "end": (_check_mark, ("end",)),
}


def rules_after(rules, action):
    """The game's rules spec after a game action: a dealer correction, the team names,
    the end on time and the other team's confirmation are kept in it (so a base written
    later, and the archive, carry them too); a deal added, edited or removed drops the
    confirmation (the changed result is confirmed again)."""
    op = action.get("op")
    if op == "add" or op == "edit" or op == "del":
        if "confirmed" in rules:
            rules = dict(rules)
            rules.pop("confirmed")
    elif op == "confirm" or op == "end":
        rules = dict(rules)
        rules["confirmed" if op == "confirm" else op] = action["n" if op == "confirm" else op]
    elif op == "dealer":
        rules = dict(rules)
        rules["fix"] = action["fix"]
    elif op == "names":
        rules = dict(rules)
        if action["names"]:
            rules["names"] = action["names"]
        else:
            rules.pop("names", None)
    return rules


def apply_action(deals, action):
    """One game action on the deal list; Unreadable when it cannot apply (never half)."""
    op = action.get("op")
    entry = GAME_ACTIONS.get(op) if isinstance(op, str) else None
    if entry is None:
        raise Unreadable(1) if isinstance(op, str) else Unreadable
    entry[0](deals, action)


def ignore_line(obj, index):
    """A visit of JournalCopy.read_lines that only lets the lines be checked."""
