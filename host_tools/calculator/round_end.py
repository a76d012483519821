"""The end of a round on time: `{"end": "time"}` as the last record of a game tells
the calculator and the key planner that the round ended after the deals played
(the organiser's round clock, or the table's "end the round now"). The higher
total wins, equal totals are a draw. Shared by both tools so they accept exactly
the same records; plain code, it runs on MicroPython too."""

END_KEY = "end"
ON_TIME = "time"


class EndError(ValueError):
    """An end record that is not exactly {"end": "time"}, or a record after it."""


def is_end(rec):
    """True for the end record; EndError for a record with "end" that is not it;
    False for a deal record."""
    if END_KEY not in rec:
        return False
    if rec[END_KEY] != ON_TIME or len(rec) != 1:
        raise EndError('the end of a round is exactly {"end": "time"} (the round ended on time after the deals played)')
    return True


def winner_on_time(total):
    """"NS", "EW", or "draw": who wins a round ended on time with these totals."""
    if total["NS"] == total["EW"]:
        return "draw"
    return "NS" if total["NS"] > total["EW"] else "EW"


def after_end_error(line):
    return EndError("the round ended on time at line %d: no deal comes after its end" % line)
