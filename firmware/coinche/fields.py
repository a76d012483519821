"""What the scoring core's errors are, and the two teams: the small part of a deal
record's definition that a game keeps loaded.

The checking of a record (coinche/record.py) and the rule options and presets
(coinche/rule_options.py) are imported when a record is checked or a Rules built:
on the device they are loaded for the call and released (firmware/on_demand.py),
so their code is not on the heap of a game between two deals. Their errors are
defined here, so that an `except RecordError` anywhere catches the error of a
record module loaded again since.
"""


class FieldError(ValueError):
    """What the scoring core refuses: `field` names what is at fault, `message` says why
    (str(): "field: message"). RecordError, GameError and RulesError are its kinds."""

    def __init__(self, field, message):
        super().__init__("%s: %s" % (field, message))
        self.field = field
        self.message = message


class RecordError(FieldError):
    """An invalid deal record; `field` names the key at fault."""


class RulesError(FieldError):
    """A preset or option that does not exist, or a value it cannot take."""


def other(team):
    """The other team: "EW" for "NS", "NS" for "EW"."""
    return "EW" if team == "NS" else "NS"
