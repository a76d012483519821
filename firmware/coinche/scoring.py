"""Deal scoring: one validated deal record in, who made it and both deal scores out.

The four presets are one formula with options (see docs/rules.md):
  E  engagement: the bid, capot 250, generale 500
  C  card count: the card points, or 250 for a side that won all tricks
     (500 for a made generale bid), rounded when `rounding` is on
  F  failure base: `fail_base` (160/162), or 250 after a capot against the
     takers (`fail_capot`) or a failed capot bid (`capot_bid_base`)
  M  the credited melds (melds.credited), b the belotes (never multiplied)
"""

from coinche import melds as _melds
from coinche.fields import other

CAPOT = 250
GENERALE = 500


def round10(x):
    """Nearest multiple of 10, a 5 rounds up (85 -> 90, 84 -> 80)."""
    return (x + 5) // 10 * 10


# The bonus of a deal without melds or belote, shared by every such result (the
# game keeps one result per deal); nothing ever changes a result's dicts.
NO_BONUS = {"NS": 0, "EW": 0}


class DealResult:
    """What one deal did: `made` (None for all-pass), `score` per team, the
    deal `winner`, and `bonus`: the part of each score that came from melds
    and belote (federation does not let a side win the game on those).

    The game keeps one per deal, so an instance stores only what differs from
    the class: `failure` None and `bonus` NO_BONUS are not stored (on the Pico
    a made deal without melds or belote takes 48 bytes instead of 96)."""

    failure = None  # why the contract failed: scoring.failure(), None if made
    bonus = NO_BONUS

    def __init__(self, made, score, winner, bonus, failure=None):
        self.made = made
        self.score = score
        self.winner = winner
        if bonus["NS"] or bonus["EW"]:
            self.bonus = bonus
        if failure is not None:
            self.failure = failure


def is_made(rules, rec, mt=0, md=0):
    """Contract test. Rounding never decides it; melds only where the preset says."""
    return failure(rules, rec, mt, md) is None


def failure(rules, rec, mt=0, md=0):
    """Why the contract failed, None when it was made; else (reason, have, need):
    "tricks" (a capot bid without all eight tricks), "solo" (a generale bid the
    bidder did not win alone), "82" (under the 82 card points the preset asks
    for), "bid" (under the bid), "beat" (not more than the defence: need is the
    defence's figure). have is the takers' figure the test compared (card points,
    with belote and melds where the preset counts them). The screens explain a
    failure with it, so the reason always agrees with the score."""
    bid = rec["bid"]
    if bid == "capot":
        return None if rec.get("tricks") == 8 else ("tricks", 0, 0)
    if bid == "generale":
        return None if rec.get("solo", False) else ("solo", 0, 0)
    # A numeric bid is judged by its formula even with all eight tricks: every
    # test but beat+melds passes at P = 162 anyway, and coinche1001 reads
    # "T > Dt" literally (credited defence melds can outweigh a capot).
    p = rec["points"]
    d = 162 - p
    bel = rec.get("belote")
    bt = bd = 0
    if bel and rules["belote_counts"]:
        bt = 20 * bel[rec["taker"]]
        bd = 20 * bel[other(rec["taker"])]
    test = rules["contract_test"]
    if test == "82":
        if p + bt >= (bid if bid > 82 else 82):
            return None
        return ("bid", p + bt, bid) if bid > 82 else ("82", p + bt, 82)
    if test == "82+melds":
        if p < 82:
            return ("82", p, 82)
        return None if p + mt + bt >= bid else ("bid", p + mt + bt, bid)
    if test == "beat":
        t, dt = p + bt, d + bd
    else:  # beat+melds
        t, dt = p + mt + bt, d + md + bd
    if t < bid:
        return ("bid", t, bid)
    return None if t > dt else ("beat", t, dt)


def score(rules, rec):
    """Score a canonical record (record.validate) under `rules`: who made it, each side's
    deal score and the part of it that melds and belote gave (DealResult)."""
    if rec["bid"] == "pass":
        return DealResult(None, {"NS": 0, "EW": 0}, None, NO_BONUS)
    takers = rec["taker"]
    defence = other(takers)
    multiplier = (1, 2, 4)[rec.get("coinche", 0)]
    meld_team, meld_points = _melds.credited(rules, rec)
    takers_melds = meld_points if meld_team == takers else 0
    defence_melds = meld_points if meld_team == defence else 0
    why = failure(rules, rec, takers_melds, defence_melds)
    if why is None:
        takers_score, defence_score, takers_bonus, defence_bonus = _made_scores(
            rules, rec, multiplier, takers_melds, defence_melds, meld_points)
        winner = takers
    else:
        # F + E and every credited meld to the defence; the coinche multiplies E alone
        # where its scope is the bid, all three elsewhere
        takers_score = takers_bonus = 0
        bid = rec["bid"]
        engaged = CAPOT if bid == "capot" else GENERALE if bid == "generale" else bid  # E
        if rules["coinche"] == "bid":
            defence_score = failure_base(rules, rec) + engaged * multiplier + meld_points
            defence_bonus = meld_points
        else:
            defence_score = (failure_base(rules, rec) + engaged + meld_points) * multiplier
            defence_bonus = meld_points * multiplier
        winner = defence
    # Belote goes to the side that held it, whoever won, never multiplied.
    belote = rec.get("belote")
    takers_belote = 20 * belote[takers] if belote else 0
    defence_belote = 20 * belote[defence] if belote else 0
    scores = {takers: takers_score + takers_belote, defence: defence_score + defence_belote}
    bonus = {takers: takers_bonus + takers_belote, defence: defence_bonus + defence_belote}
    return DealResult(why is None, scores, winner, bonus, why)


def failure_base(rules, rec):
    """F, the failure base (also the card base of a coinched deal with coinche = winner):
    `fail_base`, or 250 after a capot against the takers (`fail_capot`) or on a capot bid
    (`capot_bid_base`)."""
    if (rec.get("tricks") == 0 and rules["fail_capot"]) or (rec["bid"] == "capot" and rules["capot_bid_base"]):
        return CAPOT
    return rules["fail_base"]


def _made_scores(rules, rec, multiplier, takers_melds, defence_melds, meld_points):
    """(takers' score, defence's score, takers' bonus, defence's bonus) of a made contract,
    belote left out: each rule set's `coinche` scope decides what the coinche multiplies."""
    bid = rec["bid"]
    numeric_bid = not isinstance(bid, str)
    tricks = rec.get("tricks")
    engaged = CAPOT if bid == "capot" else GENERALE if bid == "generale" else bid  # E
    # C: the card points; a side that won all eight tricks counts the capot forfait
    # (500 for a generale the bidder won alone)
    takers_cards = rec["points"]
    defence_cards = 162 - takers_cards
    if tricks == 8:
        takers_cards = GENERALE if (bid == "generale" and rec.get("solo", False)) else CAPOT
    if tricks == 0 and rules["fail_capot"]:
        # Only reachable when melds count toward the contract; coinche1001
        # ("defence D + M_D + b_D") has no defence capot forfait.
        defence_cards = CAPOT
    if rules["coinche"] == "winner" and multiplier > 1:
        # (F + E + M)*m to the winner. F after the takers' capot on a numeric
        # bid: 250 only where fail_capot says a capot of either side moves F
        # (coinche1000); coinche1001 keeps 162 ("tutti i punti delle prese").
        # A made capot/generale bid keeps its forfait (250/500): resolution,
        # so a coinche always multiplies what the deal was worth.
        if not numeric_bid:
            base = takers_cards
        elif tricks == 8 and rules["fail_capot"]:
            base = CAPOT
        else:
            base = failure_base(rules, rec)
        return (base + engaged + meld_points) * multiplier, 0, meld_points * multiplier, 0
    # An unannounced generale with solo = "500" is 500 flat, bid included.
    if tricks == 8 and rec.get("solo", False) and numeric_bid and rules["solo"] == "500":
        engaged, takers_cards = 0, GENERALE
    rounded = round10 if rules["rounding"] else _same
    if rules["coinche"] == "all":
        return ((engaged + rounded(takers_cards) + takers_melds) * multiplier,
                (rounded(defence_cards) + defence_melds) * multiplier,
                takers_melds * multiplier, defence_melds * multiplier)
    # "bid", and "winner" without coinche: the coinche multiplies the bid alone
    return (rounded(takers_cards) + engaged * multiplier + takers_melds, rounded(defence_cards) + defence_melds,
            takers_melds, defence_melds)


def _same(x):
    return x
