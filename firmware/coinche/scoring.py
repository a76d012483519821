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
from coinche.record import other

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
    """Score a canonical record (record.validate) under `rules`."""
    if rec["bid"] == "pass":
        return DealResult(None, {"NS": 0, "EW": 0}, None, NO_BONUS)
    taker = rec["taker"]
    defence = other(taker)
    bid = rec["bid"]
    m = (1, 2, 4)[rec.get("coinche", 0)]
    p = rec["points"]
    tricks = rec.get("tricks")
    solo = rec.get("solo", False)
    all_t = tricks == 8
    all_d = tricks == 0

    bel = rec.get("belote")
    b_t = 20 * bel[taker] if bel else 0
    b_d = 20 * bel[defence] if bel else 0

    mteam, mpts = _melds.credited(rules, rec)
    m_t = mpts if mteam == taker else 0
    m_d = mpts if mteam == defence else 0

    numeric = not isinstance(bid, str)
    if bid == "capot":
        e = CAPOT
    elif bid == "generale":
        e = GENERALE
    else:
        e = bid

    why = failure(rules, rec, m_t, m_d)
    made = why is None
    rnd = round10 if rules["rounding"] else _same

    # Card counts; a side that won all eight tricks counts the capot forfait.
    c_t = p
    c_d = 162 - p
    if all_t:
        c_t = GENERALE if (bid == "generale" and solo) else CAPOT
    if all_d and rules["fail_capot"]:
        # Only reachable when melds count toward the contract; coinche1001
        # ("defence D + M_D + b_D") has no defence capot forfait.
        c_d = CAPOT
    # The takers' card count + engagement when the contract is made. An
    # unannounced generale with solo = "500" is 500 flat, bid included.
    flat = made and all_t and solo and numeric and rules["solo"] == "500"
    e_made = 0 if flat else e
    c_made = GENERALE if flat else c_t

    # Failure base F (also the card base of a coinched deal with coinche = winner).
    f = rules["fail_base"]
    if (all_d and rules["fail_capot"]) or (bid == "capot" and rules["capot_bid_base"]):
        f = CAPOT

    scope = rules["coinche"]
    if made:
        if scope == "winner" and m > 1:
            # (F + E + M)*m to the winner. F after the takers' capot on a numeric
            # bid: 250 only where fail_capot says a capot of either side moves F
            # (coinche1000); coinche1001 keeps 162 ("tutti i punti delle prese").
            # A made capot/generale bid keeps its forfait (250/500): resolution,
            # so a coinche always multiplies what the deal was worth.
            if not numeric:
                base = c_t
            elif all_t and rules["fail_capot"]:
                base = CAPOT
            else:
                base = f
            st = (base + e + mpts) * m + b_t
            sd = b_d
            bonus_t, bonus_d = mpts * m + b_t, b_d
        elif scope == "all":
            st = (e_made + rnd(c_made) + m_t) * m + b_t
            sd = (rnd(c_d) + m_d) * m + b_d
            bonus_t, bonus_d = m_t * m + b_t, m_d * m + b_d
        else:  # "bid", and "winner" without coinche
            st = rnd(c_made) + e_made * m + m_t + b_t
            sd = rnd(c_d) + m_d + b_d
            bonus_t, bonus_d = m_t + b_t, m_d + b_d
        winner = taker
    else:
        st = b_t
        if scope == "bid":
            sd = f + e * m + mpts + b_d
            bonus_d = mpts + b_d
        else:
            sd = (f + e + mpts) * m + b_d
            bonus_d = mpts * m + b_d
        bonus_t = b_t
        winner = defence
    sc = {taker: st, defence: sd}
    return DealResult(made, sc, winner, {taker: bonus_t, defence: bonus_d}, why)


def _same(x):
    return x
