"""The result code of a concours round: 16 digits a table's device shows at the end
of a round and the organiser types in without the device.

It holds the round, the table, both totals and, when they fit, both team numbers;
its last digit is a Damm check digit, which catches every single wrong digit and
every swap of two neighbouring digits (a Luhn digit misses 09 <-> 90). docs/club.md
gives the layout:

    teams layout  R TT AA BB XXXX YYYY C   table field 01..49, totals up to 9999
    wide layout   R TT XXXXXX YYYYYY C     table field 51..99 (table + 50), totals
                                           up to 999999, no team numbers

R round 1..9, TT table, AA/BB the NS/EW team numbers 01..99, XXXX/YYYY the NS/EW
totals, C the check digit. The encoder picks the teams layout whenever it fits, so
only rounds of extreme totals lose their team numbers. Plain digit arithmetic on
small ints: it runs the same on CPython and on the Pico.
"""

from coinche.compat import const

CODE_DIGITS = const(16)
GROUP = const(4)  # digits per group when the code is shown or printed
MAX_ROUND = const(9)
MAX_TABLE = const(49)
WIDE = const(50)  # added to the table number in the wide layout
MAX_TEAM = const(99)
MAX_TEAMS_LAYOUT_TOTAL = const(9999)
MAX_TOTAL = const(999999)
_ZERO = const(48)  # ord("0")

# The quasigroup of order 10 that Damm's algorithm uses (H. Michael Damm, "Total
# anti-symmetrische Quasigruppen", 2004): row = the interim digit, column = the next
# digit of the code. Its diagonal is 0 and it is weakly totally anti-symmetric
# (tests/test_result_code.py checks both), which is what catches every single error
# and every neighbour swap.
QUASIGROUP = (b"0317598642"
          b"7092154863"
          b"4206871359"
          b"1750983426"
          b"6123045978"
          b"3674209581"
          b"5869720134"
          b"8945362017"
          b"9438617205"
          b"2581436790")


class CodeError(ValueError):
    """A result code that cannot be read, or values a code cannot hold."""


def damm(digits):
    """The Damm interim digit of a str of ASCII digits: 0 when its check digit holds;
    appended to the digits, it is their check digit."""
    interim = 0
    for index in range(len(digits)):
        interim = QUASIGROUP[interim * 10 + ord(digits[index]) - _ZERO] - _ZERO
    return interim


def _whole(value, low, high, what):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CodeError("%s must be a whole number from %d to %d, got %r" % (what, low, high, value))


def encode(round_number, table, ns_total, ew_total, ns_team=None, ew_team=None):
    """The 16 digits (a str, no spaces) of a round's result. The team numbers go in
    when both are given and the totals fit the teams layout."""
    _whole(round_number, 1, MAX_ROUND, "round")
    _whole(table, 1, MAX_TABLE, "table")
    _whole(ns_total, 0, MAX_TOTAL, "NS total")
    _whole(ew_total, 0, MAX_TOTAL, "EW total")
    teams = ns_team is not None and ew_team is not None
    if teams:
        _whole(ns_team, 1, MAX_TEAM, "NS team")
        _whole(ew_team, 1, MAX_TEAM, "EW team")
    if teams and ns_total <= MAX_TEAMS_LAYOUT_TOTAL and ew_total <= MAX_TEAMS_LAYOUT_TOTAL:
        body = "%d%02d%02d%02d%04d%04d" % (round_number, table, ns_team, ew_team, ns_total, ew_total)
    else:
        body = "%d%02d%06d%06d" % (round_number, table + WIDE, ns_total, ew_total)
    return body + "%d" % damm(body)


def grouped(code):
    """The code in groups of four digits, as the device shows it and a sheet prints it."""
    return " ".join(code[start:start + GROUP] for start in range(0, len(code), GROUP))


def digits_of(text):
    """The digits of a code as typed: spaces, dots and dashes between groups dropped;
    CodeError for anything else or a wrong number of digits."""
    if not isinstance(text, str):
        raise CodeError("a result code is text, got %r" % (text,))
    out = text.replace(" ", "").replace("-", "").replace(".", "").replace("\t", "")
    for index in range(len(out)):
        if not "0" <= out[index] <= "9":
            raise CodeError("a result code has digits only, got %r" % (out[index],))
    if len(out) != CODE_DIGITS:
        raise CodeError("a result code has %d digits, got %d" % (CODE_DIGITS, len(out)))
    return out


def decode(text):
    """(round, table, ns_team, ew_team, ns_total, ew_total) of a typed code; the team
    numbers are None in the wide layout. CodeError when the check digit does not hold
    (a digit mistyped, two neighbours swapped) or a field is out of its range."""
    code = digits_of(text)
    if damm(code):
        raise CodeError("the check digit does not match: a digit is wrong or two are swapped")
    round_number = int(code[0])
    field = int(code[1:3])
    if round_number < 1:
        raise CodeError("round 0 does not exist")
    if 1 <= field <= MAX_TABLE:
        ns_team, ew_team = int(code[3:5]), int(code[5:7])
        if not ns_team or not ew_team:
            raise CodeError("team 0 does not exist")
        return round_number, field, ns_team, ew_team, int(code[7:11]), int(code[11:15])
    if WIDE + 1 <= field <= WIDE + MAX_TABLE:
        return round_number, field - WIDE, None, None, int(code[3:9]), int(code[9:15])
    raise CodeError("table field %02d is no table (01-%02d, or %02d-%02d)" % (field, MAX_TABLE, WIDE + 1, WIDE + MAX_TABLE))


def round_result(info, totals, deals):
    """The concours object of a round game, as the device's state and the export give
    it (the organiser's app imports it): info is the round's {"round", "table",
    "teams": {"NS", "EW"}} kept with the game, totals the game's {"NS", "EW"}, deals the
    round's length. The code is None while it cannot be made (totals too high)."""
    teams = info["teams"]
    try:
        code = encode(info["round"], info["table"], totals["NS"], totals["EW"], teams["NS"], teams["EW"])
    except CodeError:
        code = None
    return {"round": info["round"], "table": info["table"], "teams": {"NS": teams["NS"], "EW": teams["EW"]},
            "totals": {"NS": totals["NS"], "EW": totals["EW"]}, "deals": deals, "code": code}
