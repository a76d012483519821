"""Deal records for the tests: a hand-written helper and a generator.

`gen_valid(rules, src)` makes one valid deal record for `rules`; `src` is
anything with `randint(a, b)`, `choice(seq)` and `random()`: a `random.Random`
for the differential vectors, or `HypothesisSource(data)` for property tests,
so both draw from the same description of "a valid deal".
`gen_invalid(rules, src)` breaks a valid record in one known way and returns
(record, field the error must name).
"""
import copy

SEQ_CODES = ("tierce", "quarte", "quinte")
CARRE_CODES = ("carre_J", "carre_9", "carre_A", "carre_10", "carre_K", "carre_Q")
PRESETS = ("classic2000", "federation", "coinche1000", "coinche1001")


def deal(taker="NS", bid=100, trump="H", points=100, coinche=0, **kw):
    """A deal record with the usual keys; extra keys as given."""
    rec = {"taker": taker, "bid": bid, "trump": trump, "coinche": coinche, "points": points}
    rec.update(kw)
    return rec


class HypothesisSource:
    """The random.Random subset gen_valid uses, drawn from hypothesis `data`."""

    def __init__(self, data):
        from hypothesis import strategies as st
        self.data = data
        self.st = st

    def randint(self, a, b):
        return self.data.draw(self.st.integers(a, b))

    def choice(self, seq):
        return self.data.draw(self.st.sampled_from(list(seq)))

    def random(self):
        return self.data.draw(self.st.floats(0, 1, exclude_max=True))


def _other(team):
    return "EW" if team == "NS" else "NS"


def gen_melds(rules, src):
    melds = {"NS": [], "EW": []}
    carres = list(CARRE_CODES)
    for team in ("NS", "EW"):
        for _ in range(src.randint(0, 2)):
            if src.random() < 0.7:
                melds[team].append(src.choice(SEQ_CODES))
            elif carres:
                c = src.choice(carres)
                carres.remove(c)
                melds[team].append(c)
    return melds


def gen_valid(rules, src):
    if src.random() < 0.03:
        return {"bid": "pass"}
    taker = src.choice(("NS", "EW"))
    bid = src.choice(rules.bids())
    trump = src.choice(rules.trumps() + ("suit",))
    coinche = src.choice((0, 0, 1, 2))
    if not isinstance(bid, int) and not rules["capot_coinche"]:
        coinche = 0
    rec = {"taker": taker, "bid": bid, "trump": trump, "coinche": coinche}
    # card points and tricks: favour the edges (0, 162, the bid, 81/82, x5)
    r = src.random()
    if r < 0.15:
        points, tricks = 162, 8
    elif r < 0.22:
        points, tricks = 0, 0
    elif r < 0.4:
        points = src.choice((81, 82, 85, 84, 75, 76, 86, 87, 95, 155, 162, 0, 7, 10))
        tricks = None
    elif r < 0.55 and isinstance(bid, int):
        points = bid + src.randint(-12, 12)
        points = max(0, min(162, points))
        tricks = None
    else:
        points = src.randint(0, 162)
        tricks = None
    rec["points"] = points
    if tricks is None and src.random() < 0.3:
        lo, hi = (1 if points > 0 else 0), (7 if points < 162 else 8)
        tricks = src.randint(lo, hi)
    if tricks is not None and src.random() < 0.9:
        rec["tricks"] = tricks
    if tricks == 8 and rules["generale"] and src.random() < 0.4:
        rec["solo"] = True
        if src.random() < 0.5:
            rec.pop("tricks", None)
    most = rules.max_belote(trump)
    if most and src.random() < 0.4:
        if rules["belote"] == "taker":
            rec["belote"] = {taker: 1}
        else:
            n = src.randint(1, most)
            a = src.randint(0, n)
            rec["belote"] = {"NS": a, "EW": n - a}
    if rules.has_melds() and src.random() < 0.6:
        rec["melds"] = gen_melds(rules, src)
        if src.random() < 0.15:
            rec["melds_to"] = src.choice(("NS", "EW", None))
    return rec


def gen_invalid(rules, src):
    """(record, field) : a valid record broken in one way; the error must name field."""
    rec = gen_valid(rules, src)
    if rec["bid"] == "pass":
        rec = {"taker": "NS", "bid": 100, "trump": "S", "coinche": 0, "points": 90}
    cases = [
        ("points", lambda r: r.__setitem__("points", src.choice((-1, 163, 200, "90", 90.0, None, True)))),
        ("bid", lambda r: r.__setitem__("bid", src.choice((70, 85, 170, 0, "cap", 100.0, None, "100", False)))),
        ("taker", lambda r: r.__setitem__("taker", src.choice(("N", "ns", None, 1)))),
        ("trump", lambda r: r.__setitem__("trump", src.choice(("X", "sa", None, 3)))),
        ("coinche", lambda r: r.__setitem__("coinche", src.choice((3, -1, True, "1", 1.0)))),
        ("tricks", lambda r: r.update(tricks=src.choice((9, -1, "8", 2.0)))),
        ("tricks", lambda r: r.update(points=src.randint(0, 161), tricks=8, solo=False)),
        ("tricks", lambda r: r.update(points=src.randint(1, 162), tricks=0, solo=False)),
        ("solo", lambda r: r.update(solo=src.choice((1, "yes", 0)))),
        ("belote", lambda r: r.update(belote=src.choice(({"NS": -1}, {"XX": 1}, [1], {"EW": "1"}, {"NS": 5})))),
        ("melds", lambda r: r.update(melds=src.choice(({"NS": ["tierse"]}, {"NS": "tierce"}, ["tierce"],
                                                        {"NS": ["carre_J"], "EW": ["carre_J"]},
                                                        {"EW": ["tierce"] * 5})))),
        ("melds_to", lambda r: r.update(melds_to=src.choice(("N", 1, "both")))),
        (None, lambda r: r.__setitem__(src.choice(("point", "bids", "belotte", "x", "Taker")), 1)),
    ]
    if "NT" in rules.trumps():
        cases.append(("belote", lambda r: r.update(trump="NT", belote={"NS": 1})))
    else:
        cases.append(("trump", lambda r: r.update(trump=src.choice(("NT", "AT")))))
    if not rules.has_melds():
        cases.append(("melds", lambda r: r.update(melds={"NS": [src.choice(SEQ_CODES)]})))
    if not rules["generale"]:
        cases.append(("bid", lambda r: r.update(bid="generale", coinche=0)))
        cases.append(("solo", lambda r: r.update(points=162, tricks=8, solo=True)))
    if not rules["capot_coinche"]:
        cases.append(("coinche", lambda r: r.update(bid="capot", coinche=src.choice((1, 2)))))
    field, mutate = src.choice(cases)
    rec = copy.deepcopy(rec)
    mutate(rec)
    if field is None:  # unknown key: the field is the key itself
        field = [k for k in rec if k not in ("taker", "bid", "trump", "coinche", "points", "tricks", "solo",
                                             "belote", "melds", "melds_to")][0]
    return rec, field


def result(preset, rec, **options):
    """(made, NS score, EW score) of one record under a preset (+ overrides)."""
    from coinche.record import validate
    from coinche.rules import Rules
    from coinche.scoring import score
    rules = Rules(preset, options or None)
    r = score(rules, validate(rules, rec))
    return r.made, r.score["NS"], r.score["EW"]
