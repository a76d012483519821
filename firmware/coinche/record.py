"""Validation of a deal record (RULES.md, "Deal record") against the rules in force.

Every error names the offending field, because the same message reaches a
player on a 128x64 screen, a calculator user on a terminal and a test.
The canonical record returned keeps only what matters, so two records that
score the same way compare equal after validation.

On the device this module is loaded for each check and released afterwards (the
screens and the App: firmware/on_demand.py); its errors are coinche/fields.py's, so
that they stay the same class whichever copy of it raised them.
"""

from coinche.fields import RecordError, other
from coinche.melds import CODES, SEQUENCES

TEAMS = ("NS", "EW")
KEYS = ("taker", "bid", "trump", "coinche", "points", "tricks", "solo", "belote", "melds", "melds_to")
TRUMPS = ("S", "H", "D", "C", "NT", "AT", "suit")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def suggest(word, choices):
    """The choice `word` was probably meant to be ("did you mean"), or None: its code is in
    coinche/suggestion.py, imported only when a bad key or value is met."""
    from coinche.suggestion import closest

    return closest(word, choices)


def _first(keys):
    """The smallest of some dict keys: errors must not depend on dict order,
    which differs between CPython and MicroPython."""
    best = None
    for k in keys:
        if best is None or repr(k) < repr(best):
            best = k
    return best


def _check_teams(by_team, field):
    bad = _first([k for k in by_team if k not in TEAMS])
    if bad is not None:
        raise RecordError(field, "unknown team %r (teams: NS, EW)" % (bad,))


def _team_counts(rec, field):
    """`belote`: {team: count} with teams NS/EW only; missing teams are 0."""
    v = rec[field]
    if not isinstance(v, dict):
        raise RecordError(field, "must be an object like {\"NS\": 1, \"EW\": 0}")
    _check_teams(v, field)
    out = {"NS": 0, "EW": 0}
    for k in TEAMS:
        if k not in v:
            continue
        n = v[k]
        if not _is_int(n) or n < 0:
            raise RecordError(field, "%s: must be a whole number >= 0, got %r" % (k, n))
        out[k] = n
    return out


def _melds(rec):
    v = rec["melds"]
    if not isinstance(v, dict):
        raise RecordError("melds", "must be an object like {\"NS\": [\"tierce\"], \"EW\": []}")
    _check_teams(v, "melds")
    out = {"NS": [], "EW": []}
    carres = {}
    for k in TEAMS:
        if k not in v:
            continue
        lst = v[k]
        if not isinstance(lst, list):
            raise RecordError("melds", "%s: must be a list of meld codes" % k)
        seqs = 0
        for code in lst:
            if code not in CODES:
                hint = suggest(code, CODES) if isinstance(code, str) else None
                raise RecordError("melds", "%s: unknown meld %r%s (melds: %s)" % (
                    k, code, " - did you mean %r?" % hint if hint else "", ", ".join(CODES)))
            if code in SEQUENCES:
                seqs += 1
            else:
                if code in carres:
                    raise RecordError("melds", "%s appears twice: there is only one set of four" % code)
                carres[code] = k
        # Two hands of eight cards hold at most four sequences and four carrés.
        if seqs > 4:
            raise RecordError("melds", "%s: %d sequences, two hands hold at most 4" % (k, seqs))
        out[k] = list(lst)
    return out


def _check_pass(rec):
    """All four passed: the other fields are not read, but one that is given
    (not null) must still be a value a deal can hold, so junk is refused."""
    taker = rec.get("taker")
    if taker is not None and taker not in TEAMS:
        raise RecordError("taker", "must be \"NS\" or \"EW\", got %r" % (taker,))
    trump = rec.get("trump")
    if trump is not None and trump not in TRUMPS:
        raise RecordError("trump", "must be one of S, H, D, C, NT, AT or suit, got %r" % (trump,))
    coinche = rec.get("coinche")
    if coinche is not None and (not _is_int(coinche) or coinche not in (0, 1, 2)):
        raise RecordError("coinche", "must be 0 (none), 1 (coinche) or 2 (surcoinche), got %r" % (coinche,))
    points = rec.get("points")
    if points is not None and (not _is_int(points) or not 0 <= points <= 162):
        raise RecordError("points", "the takers' card points must be a whole number 0..162, got %r" % (points,))
    tricks = rec.get("tricks")
    if tricks is not None and (not _is_int(tricks) or not 0 <= tricks <= 8):
        raise RecordError("tricks", "must be 0..8, got %r" % (tricks,))
    solo = rec.get("solo")
    if solo is not None and solo is not True and solo is not False:
        raise RecordError("solo", "must be true or false, got %r" % (solo,))
    if rec.get("belote") is not None:
        _team_counts(rec, "belote")
    if rec.get("melds") is not None:
        _melds(rec)
    melds_to = rec.get("melds_to")
    if melds_to is not None and melds_to not in TEAMS:
        raise RecordError("melds_to", "must be \"NS\", \"EW\" or null, got %r" % (melds_to,))


def validate(rules, rec):
    """Check `rec` (a dict decoded from JSON) and return its canonical form.

    Raises RecordError naming the field. The fields are checked in the order a player
    states them (the keys and the bid, the contract and the card points, then tricks,
    belote and melds), so the first error named is the first thing to fix."""
    if not isinstance(rec, dict):
        raise RecordError("record", "must be a JSON object")
    k = _first([k for k in rec if k not in KEYS])
    if k is not None:
        hint = suggest(k, KEYS) if isinstance(k, str) else None
        raise RecordError(k, "unknown key%s (keys: %s)" % (
            " - did you mean %r?" % hint if hint else "", ", ".join(KEYS)))
    if "bid" not in rec:
        raise RecordError("bid", "missing")
    bid = rec["bid"]
    if bid == "pass":
        _check_pass(rec)
        return {"bid": rec["bid"]}  # "pass": all four passed, nothing else is read
    ladder = rules.bids()
    if _is_int(bid):
        if bid not in ladder:
            raise RecordError("bid", "must be 80..160 in steps of 10, got %d" % bid)
    elif not isinstance(bid, str) or bid not in ladder:  # 100.0 == 100: no floats
        if bid == "generale":
            raise RecordError("bid", "this rule set (%s) has no generale" % rules.preset)
        raise RecordError("bid", "must be 80..160 in steps of 10, %s or \"pass\", got %r" % (
            ", ".join('"%s"' % b for b in ladder if not _is_int(b)), bid))
    for k in ("taker", "trump", "points"):
        if k not in rec:
            raise RecordError(k, "missing")
    taker = rec["taker"]
    if taker not in TEAMS:
        raise RecordError("taker", "must be \"NS\" or \"EW\", got %r" % (taker,))
    trump = rec["trump"]
    if trump not in TRUMPS:
        raise RecordError("trump", "must be one of S, H, D, C, NT, AT or suit, got %r" % (trump,))
    if trump in ("NT", "AT") and rules["contracts"] == "suits":
        raise RecordError("trump", "%s is not a contract in %s (trump suits only)" % (trump, rules.preset))

    coinche = rec.get("coinche", 0)
    if not _is_int(coinche) or coinche not in (0, 1, 2):
        raise RecordError("coinche", "must be 0 (none), 1 (coinche) or 2 (surcoinche), got %r" % (coinche,))
    if coinche and not _is_int(bid) and not rules["capot_coinche"]:
        raise RecordError("coinche", "a %s bid cannot be coinched in %s" % (bid, rules.preset))

    points = rec["points"]
    if not _is_int(points) or not 0 <= points <= 162:
        raise RecordError("points", "the takers' card points must be a whole number 0..162, got %r" % (points,))
    out = {"taker": rec["taker"], "bid": bid, "trump": rec["trump"], "coinche": rec.get("coinche", 0),
           "points": rec["points"]}
    _add_tricks(rules, rec, out)
    _add_belote(rules, rec, out)
    _add_melds(rules, rec, out)
    return out


def _add_tricks(rules, rec, out):
    """The takers' tricks, when given (0..8, agreeing with the card points), and solo: the
    bidder alone won all eight (a generale), where the rule set has one."""
    tricks = rec.get("tricks")
    points = out["points"]
    if tricks is not None:
        if not _is_int(tricks) or not 0 <= tricks <= 8:
            raise RecordError("tricks", "must be 0..8, got %r" % (tricks,))
        if tricks == 8 and points != 162:
            raise RecordError("tricks", "8 tricks means all 162 points, but points is %d" % points)
        if tricks == 0 and points != 0:
            raise RecordError("tricks", "0 tricks means no card points, but points is %d" % points)
        out["tricks"] = tricks
    solo = rec.get("solo")
    if solo is None:  # null = omitted, as for the other optional keys
        solo = False
    if solo is not True and solo is not False:
        raise RecordError("solo", "must be true or false, got %r" % (solo,))
    if solo:
        if not rules["generale"]:
            raise RecordError("solo", "this rule set (%s) has no generale" % rules.preset)
        if tricks is not None and tricks != 8:
            raise RecordError("solo", "the bidder alone won all tricks, but tricks is %d" % tricks)
        if points != 162:
            raise RecordError("solo", "the bidder alone won all tricks, but points is %d" % points)
        out["tricks"] = 8
        out["solo"] = True


def _add_belote(rules, rec, out):
    """The belotes per team: at a trump suit, as many as the rule set allows there."""
    if rec.get("belote") is None:
        return
    bel = _team_counts(rec, "belote")
    n = bel["NS"] + bel["EW"]
    if not n:
        return
    trump = out["trump"]
    most = rules.max_belote(trump)
    if trump == "NT":
        raise RecordError("belote", "there is no belote at NT")
    if most == 0:
        raise RecordError("belote", "there is no belote at %s in %s" % (trump, rules.preset))
    if n > most:
        if most == 1:
            raise RecordError("belote", "only one belote per deal at a trump suit (got %d)" % n)
        raise RecordError("belote", "at most %d belotes at %s (got %d)" % (most, trump, n))
    if rules["belote"] == "taker" and bel[other(out["taker"])]:
        raise RecordError("belote", "only the taking team scores a belote in %s" % rules.preset)
    out["belote"] = bel


def _add_melds(rules, rec, out):
    """The melds per team and the team they went to, where the rule set has melds.

    An empty melds object (or melds_to null) says "no melds" and is accepted
    everywhere; a meld or a melds_to team in a preset without melds is not."""
    if rec.get("melds") is not None:
        m = _melds(rec)
        if m["NS"] or m["EW"]:
            if not rules.has_melds():
                raise RecordError("melds", "this rule set (%s) has no melds" % rules.preset)
            out["melds"] = m
    if "melds_to" in rec:
        mt = rec["melds_to"]
        if mt is not None and mt not in TEAMS:
            raise RecordError("melds_to", "must be \"NS\", \"EW\" or null, got %r" % (mt,))
        if mt is not None and not rules.has_melds():
            raise RecordError("melds_to", "this rule set (%s) has no melds" % rules.preset)
        if rules.has_melds():
            out["melds_to"] = mt
