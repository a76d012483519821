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


class DealResult:
    """What one deal did: `made` (None for all-pass), `score` per team, the
    deal `winner`, and `bonus`: the part of each score that came from melds
    and belote (federation does not let a side win the game on those)."""

    def __init__(self, made, score, winner, bonus):
        self.made = made
        self.score = score
        self.winner = winner
        self.bonus = bonus

    def __repr__(self):
        return "DealResult(made=%r, score=%r)" % (self.made, self.score)


def is_made(rules, rec, mt=0, md=0):
    """Contract test. Rounding never decides it; melds only where the preset says."""
    bid = rec["bid"]
    tricks = rec.get("tricks")
    if bid == "capot":
        return tricks == 8
    if bid == "generale":
        return rec.get("solo", False)
    if tricks == 8:
        return True
    p = rec["points"]
    d = 162 - p
    bel = rec.get("belote")
    bt = bd = 0
    if bel and rules["belote_counts"]:
        bt = 20 * bel[rec["taker"]]
        bd = 20 * bel[other(rec["taker"])]
    test = rules["contract_test"]
    if test == "82":
        return p + bt >= (bid if bid > 82 else 82)
    if test == "beat":
        return p + bt >= bid and p + bt > d + bd
    if test == "82+melds":
        return p >= 82 and p + mt + bt >= bid
    # beat+melds
    t = p + mt + bt
    return t >= bid and t > d + md + bd


def score(rules, rec):
    """Score a canonical record (record.validate) under `rules`."""
    if rec["bid"] == "pass":
        return DealResult(None, {"NS": 0, "EW": 0}, None, {"NS": 0, "EW": 0})
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

    if bid == "capot":
        e = CAPOT
    elif bid == "generale":
        e = GENERALE
    else:
        e = bid

    made = is_made(rules, rec, m_t, m_d)
    rnd = round10 if rules["rounding"] else _same

    # card counts
    c_t = p
    c_d = 162 - p
    if all_t:
        c_t = CAPOT
        if bid == "generale" and solo:
            c_t = GENERALE
        elif solo and bid != "capot" and rules["solo"] == "500":
            # unannounced generale scores 500 flat, bid included
            c_t, e = GENERALE, 0
    if all_d:
        c_d = CAPOT

    f = rules["fail_base"]
    if (all_d and rules["fail_capot"]) or (bid == "capot" and rules["capot_bid_base"]):
        f = CAPOT

    scope = rules["coinche"]
    if made:
        if scope == "winner" and m > 1:
            base = c_t if all_t else f
            st = (base + e + mpts) * m + b_t
            sd = b_d
            bonus_t, bonus_d = mpts * m + b_t, b_d
        elif scope == "all":
            st = (e + rnd(c_t) + m_t) * m + b_t
            sd = (rnd(c_d) + m_d) * m + b_d
            bonus_t, bonus_d = m_t * m + b_t, m_d * m + b_d
        else:  # "bid", and "winner" without coinche
            st = rnd(c_t) + e * m + m_t + b_t
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
    return DealResult(made, sc, winner, {taker: bonus_t, defence: bonus_d})


def _same(x):
    return x
