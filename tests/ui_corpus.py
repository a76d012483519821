"""Varied, realistic deal records for the UI tests, per preset.

What a table actually writes down, roughly: mostly numeric bids 80..120,
some coinches (rarely a surcoinche), a belote in about a quarter of the deals,
melds where the preset has them (tierces mostly, sometimes both sides, now and
then equal best melds settled by the table with `melds_to`), a few capots (bid
or not), failed contracts, all-pass deals and, where the preset has it, the
odd generale. Records use real suits (H, S...) and sometimes a trick count,
as a calculator user would type them; the device stores "suit" and drops
trick counts other than 0 and 8, which never change a score.

    games(seed, min_deals)  -> [(label, preset, options, [records])]

Every game is played to its end with coinche.game.Game, so the last record is
the one that ends it (Game refuses deals after the end).
"""
import random

from coinche.game import Game
from coinche.melds import winner as meld_winner
from coinche.record import validate
from coinche.rules import Rules

# (label, preset, option overrides): what the UI game tests cover
CONFIGS = (
    ("classic2000", "classic2000", {}),
    ("federation", "federation", {}),
    ("coinche1000", "coinche1000", {}),
    ("coinche1001", "coinche1001", {}),
    ("federation700", "federation", {"target": 700}),
)

SEED_TUNING = 2024   # the corpus the tests were written against
SEED_HELD_OUT = 9371  # a held-out corpus, never looked at while tuning

_BIDS = ((80, 22), (90, 22), (100, 18), (110, 13), (120, 10), (130, 6), (140, 4), (150, 3), (160, 2))
_SUITS = ("S", "H", "D", "C")
_CARRES = ("carre_J", "carre_9", "carre_A", "carre_10", "carre_K", "carre_Q")


def _weighted(rnd, pairs):
    total = sum(w for _, w in pairs)
    x = rnd.random() * total
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


def _clamp(v, lo, hi):
    return lo if v < lo else hi if v > hi else v


def _melds(rnd, used):
    """One side's melds: usually a single sequence, sometimes two, rarely a carre."""
    out = []
    for _ in range(1 if rnd.random() < 0.8 else 2):
        r = rnd.random()
        if r < 0.60:
            out.append("tierce")
        elif r < 0.85:
            out.append("quarte")
        elif r < 0.93:
            out.append("quinte")
        else:
            free = [c for c in _CARRES if c not in used]
            if free:
                c = rnd.choice(free)
                used.add(c)
                out.append(c)
    return out


def gen_deal(rules, rnd):
    """One realistic, valid deal record for `rules`."""
    if rnd.random() < 0.07:
        return {"bid": "pass"}
    taker = rnd.choice(("NS", "EW"))
    defence = "EW" if taker == "NS" else "NS"
    kind = "suit"
    if rules["contracts"] == "all":
        r = rnd.random()
        kind = "NT" if r < 0.12 else ("AT" if r < 0.24 else "suit")
    trump = rnd.choice(_SUITS) if kind == "suit" else kind
    if rnd.random() < 0.1:
        trump = "suit" if kind == "suit" else trump  # a calculator user who skipped the colour

    r = rnd.random()
    if rules["generale"] and r < 0.025:
        bid = "generale"
    elif r < 0.05:
        bid = "capot"
    else:
        bid = _weighted(rnd, _BIDS)

    coinche = 0
    r = rnd.random()
    if isinstance(bid, int):
        coinche = 1 if r < 0.10 else (2 if r < 0.125 else 0)
    elif rules["capot_coinche"] and r < 0.1:
        coinche = 1

    rec = {"taker": taker, "bid": bid, "trump": trump, "coinche": coinche}
    r = rnd.random()
    if bid == "capot":
        if r < 0.8:
            rec.update(points=162, tricks=8)
        else:
            rec["points"] = rnd.randint(95, 152)
    elif bid == "generale":
        if r < 0.75:
            rec.update(points=162, tricks=8, solo=True)
        elif r < 0.9:
            rec.update(points=162, tricks=8)  # the partner took a trick: capot, not generale
        else:
            rec["points"] = rnd.randint(120, 152)
    else:
        if r < 0.035:
            rec.update(points=162, tricks=8)
            if rules["generale"] and rnd.random() < 0.25:
                rec["solo"] = True
        elif r < 0.045:
            rec.update(points=0, tricks=0)
        else:
            mean = bid + (-4 if coinche else 8)
            p = _clamp(int(round(rnd.gauss(mean, 19))), 10, 152)
            rec["points"] = p
            if rnd.random() < 0.1:
                rec["tricks"] = _clamp(int(round(p * 8 / 162)), 1, 7)

    # belote: about a quarter of the deals where there can be one
    most = rules.max_belote(trump)
    if most and rnd.random() < 0.3:
        n = 1 if most == 1 or rnd.random() < 0.85 else 2
        if rules["belote"] == "taker":
            bel = {taker: 1}
        elif n == 1:
            bel = {taker if rnd.random() < 0.65 else defence: 1}
        else:
            a = rnd.randint(0, 2)
            bel = {taker: a, defence: 2 - a}
        rec["belote"] = bel

    if rules.has_melds() and rnd.random() < 0.35:
        used = set()
        m = {"NS": [], "EW": []}
        first = taker if rnd.random() < 0.6 else defence
        m[first] = _melds(rnd, used)
        if rnd.random() < 0.3:
            m["EW" if first == "NS" else "NS"] = _melds(rnd, used)
        if m["NS"] or m["EW"]:
            rec["melds"] = m
            t = "NT" if trump == "NT" else ("AT" if trump == "AT" else "S")
            auto = meld_winner(m, t, rules["carre_nt"])
            if m["NS"] and m["EW"] and auto is None and rnd.random() < 0.6:
                rec["melds_to"] = rnd.choice(("NS", "EW"))  # the table compared top cards
            elif rnd.random() < 0.03:
                rec["melds_to"] = rnd.choice(("NS", "EW", None))  # the table overrode it
    validate(rules, rec)  # raises if the generator ever makes a bad record
    return rec


def gen_game(rules, rnd, max_deals=300):
    """Deals until the game is over (the last record ends it)."""
    g = Game(rules)
    out = []
    while not g.over:
        if len(out) >= max_deals:
            raise RuntimeError("game did not end within %d deals" % max_deals)
        rec = gen_deal(rules, rnd)
        g.add(rec)
        out.append(rec)
    return out


def games(seed, min_deals, configs=CONFIGS):
    """[(label, preset, options, records)]: per configuration, whole games until
    they hold at least min_deals deals (short games to 700 or 1000 get more games)."""
    out = []
    for label, preset, options in configs:
        rnd = random.Random("%s/%s" % (seed, label))
        rules = Rules(preset, options)
        n = 0
        while n < min_deals:
            recs = gen_game(rules, rnd)
            n += len(recs)
            out.append((label, preset, dict(options), recs))
    return out


def stats(recs, rules):
    """Counts of what a corpus contains (to check it is as varied as claimed)."""
    c = {"deals": 0, "pass": 0, "coinche": 0, "belote": 0, "melds": 0, "melds_to": 0, "capot_bid": 0,
         "generale_bid": 0, "all_tricks": 0, "failed": 0, "NT": 0, "AT": 0}
    g = Game(rules, recs)
    for rec, res in zip(recs, g.results):
        c["deals"] += 1
        if rec["bid"] == "pass":
            c["pass"] += 1
            continue
        c["coinche"] += rec.get("coinche", 0) > 0
        c["belote"] += bool(rec.get("belote"))
        c["melds"] += bool(rec.get("melds"))
        c["melds_to"] += "melds_to" in rec
        c["capot_bid"] += rec["bid"] == "capot"
        c["generale_bid"] += rec["bid"] == "generale"
        c["all_tricks"] += rec.get("tricks") == 8
        c["failed"] += res.made is False
        c["NT"] += rec["trump"] == "NT"
        c["AT"] += rec["trump"] == "AT"
    return c
