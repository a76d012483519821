"""What one round of an event can give: the most a team can score in one deal, found
by going through the records the validator accepts, and whether every score is a
multiple of ten. The organiser's app refuses totals outside these (a typing error),
and docs/club.md sizes the result code from them.

The search goes through what changes a score: every bid, coinche level, contract
type (the trump colour never changes a score), every card count 0..162 with the
trick counts that matter (none, the defence's capot at 0, the takers' capot and the
bidder alone at 162), and for the bonuses the most either side can hold: all the
belotes on one side, the most melds the validator lets a side declare (every carré
on one side, four quintes on each), credited to either side or to nobody. A side's
score never falls when its own belote or credited melds grow or the other side's
shrink, so the largest of those is the largest of all (belote and melds are
multiples of ten, so they never decide the multiple-of-ten question either);
tests/test_club_limits.py checks random valid records against it.
"""

from coinche.record import RecordError, validate
from coinche.scoring import score

QUINTES = ["quinte"] * 4
CARRES = ["carre_J", "carre_9", "carre_A", "carre_10", "carre_K", "carre_Q"]
# what a round's length, the target and the end rules change: nothing in a deal's score
NOT_SCORING = ("target", "tie", "bonus_rule", "deals", "pass_counts")

_cache = {}


def _scoring_key(rules):
    return tuple(sorted((k, repr(v)) for k, v in rules.opt.items() if k not in NOT_SCORING))


def _structures(rules):
    """Every record but its card count: (record with points 100 and no tricks, kind)."""
    kinds = [k for k in ("H", "NT", "AT") if k in rules.trumps()]
    meld_sets = [None]
    if rules.has_melds():
        meld_sets = [{"NS": CARRES + QUINTES, "EW": QUINTES}, {"NS": QUINTES, "EW": CARRES + QUINTES}]
    for bid in rules.bids():
        for coinche in (0, 1, 2):
            for kind in kinds:
                most = rules.max_belote(kind)
                belotes = [{"NS": most, "EW": 0}, {"NS": 0, "EW": most}] if most else [None]
                for belote in belotes:
                    for melds in meld_sets:
                        for melds_to in (("NS", "EW", None) if melds else ("auto",)):
                            rec = {"taker": "NS", "bid": bid, "trump": kind, "coinche": coinche, "points": 100}
                            if belote:
                                rec["belote"] = belote
                            if melds:
                                rec["melds"] = melds
                            if melds_to != "auto":
                                rec["melds_to"] = melds_to
                            yield rec


def _scan(rules):
    best = 0
    tens = True
    for rec in _structures(rules):
        try:
            base = validate(rules, rec)
        except RecordError:
            base = None
        cards = []
        if base is not None:
            for points in range(163):
                one = dict(base)
                one["points"] = points
                cards.append(one)
        for points, tricks, solo in ((0, 0, False), (162, 8, False), (162, 8, True)):
            one = dict(rec, points=points, tricks=tricks)
            if solo:
                one["solo"] = True
            try:
                cards.append(validate(rules, one))
            except RecordError:
                continue
        for one in cards:
            result = score(rules, one)
            for team in ("NS", "EW"):
                value = result.score[team]
                if value > best:
                    best = value
                if value % 10:
                    tens = False
    return best, tens


def deal_limits(rules):
    """(the most one team can score in one deal, every score a multiple of ten)."""
    key = _scoring_key(rules)
    if key not in _cache:
        _cache[key] = _scan(rules)
    return _cache[key]


def max_deal_score(rules):
    return deal_limits(rules)[0]
