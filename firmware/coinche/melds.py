"""Meld (annonce) values and which side's melds score.

A deal record names melds by code only (no cards), so two sequences of the same
length cannot be told apart: the engine then credits nobody, as RULES.md says,
unless the table settles it with `melds_to`.
"""

CODES = ("tierce", "quarte", "quinte", "carre_J", "carre_9", "carre_A", "carre_10", "carre_K", "carre_Q")
SEQUENCES = {"tierce": 3, "quarte": 4, "quinte": 5}
SEQ_VALUE = {"tierce": 20, "quarte": 50, "quinte": 100}
# Carrés at a trump suit or AT (and everywhere with carre_nt = "same").
CARRE_VALUE = {"carre_J": 200, "carre_9": 150, "carre_A": 100, "carre_10": 100, "carre_K": 100, "carre_Q": 100}
# Carrés at NT with carre_nt = "nt" (coinche1000): aces lead, nines are no meld.
CARRE_VALUE_NT = {"carre_A": 200, "carre_10": 150, "carre_K": 100, "carre_Q": 100, "carre_J": 100, "carre_9": 0}
# Resolution: carrés of equal value compare by the sequence order 7 8 9 10 J Q K A.
CARD_RANK = {"carre_9": 2, "carre_10": 3, "carre_J": 4, "carre_Q": 5, "carre_K": 6, "carre_A": 7}


def value(code, trump, carre_nt):
    if code in SEQ_VALUE:
        return SEQ_VALUE[code]
    if trump == "NT" and carre_nt == "nt":
        return CARRE_VALUE_NT[code]
    return CARRE_VALUE[code]


def _key(code, trump, carre_nt):
    """Sort key of one meld: points, then carré over sequence, then length/rank.

    Sequences of equal length get the same key: their top cards are not recorded."""
    v = value(code, trump, carre_nt)
    if v == 0:
        return None  # not a meld in this contract (carré of nines at NT)
    if code in SEQUENCES:
        return (v, 0, SEQUENCES[code])
    return (v, 1, CARD_RANK[code])


def best(codes, trump, carre_nt):
    k = None
    for c in codes:
        ck = _key(c, trump, carre_nt)
        if ck is not None and (k is None or ck > k):
            k = ck
    return k


def total(codes, trump, carre_nt):
    s = 0
    for c in codes:
        s += value(c, trump, carre_nt)
    return s


def winner(melds, trump, carre_nt):
    """The team whose best single meld beats the other's: 'NS', 'EW' or None."""
    a = best(melds.get("NS", ()), trump, carre_nt)
    b = best(melds.get("EW", ()), trump, carre_nt)
    if a is None and b is None:
        return None
    if b is None or (a is not None and a > b):
        return "NS"
    if a is None or b > a:
        return "EW"
    return None  # equal best melds: nobody scores


def credited(rules, rec):
    """(team, points) of the melds that score in this deal, or (None, 0).

    With melds = 'all' the winning side scores both sides' melds; with 'own',
    only its own."""
    melds = rec.get("melds")
    model = rules["melds"]
    if model == "none" or not melds:
        return None, 0
    trump = rec["trump"]
    cnt = rules["carre_nt"]
    if "melds_to" in rec:
        team = rec["melds_to"]
    else:
        team = winner(melds, trump, cnt)
    if team is None:
        return None, 0
    if model == "all":
        pts = total(melds.get("NS", ()), trump, cnt) + total(melds.get("EW", ()), trump, cnt)
    else:
        pts = total(melds.get(team, ()), trump, cnt)
    return team, pts
