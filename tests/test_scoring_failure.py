"""coinche.scoring.failure: why a contract failed, as the check-and-save step says it.

The reason comes from the same test that scores the deal, so it can never
disagree with the score: failure() is None exactly when the contract is made."""
from hypothesis import given, settings
from hypothesis import strategies as st

from coinche import melds
from coinche.record import RecordError, validate
from coinche.rule_options import PRESET_NAMES
from coinche.rules import Rules
from coinche.scoring import failure, score

RULES = {p: Rules(p) for p in PRESET_NAMES}


def why(preset, **rec):
    r = RULES[preset]
    rec = validate(r, dict({"taker": "NS", "trump": "H"}, **rec))
    team, pts = melds.credited(r, rec)
    mt = pts if team == rec["taker"] else 0
    md = pts if team not in (None, rec["taker"]) else 0
    return failure(r, rec, mt, md)


def test_the_82_rule_and_the_bid():
    # classic2000: an 80 needs 82 card points (belote included); a 90 needs 90
    assert why("classic2000", bid=80, points=81) == ("82", 81, 82)
    assert why("classic2000", bid=80, points=62, belote={"NS": 1}) is None  # 62 + 20
    assert why("classic2000", bid=80, points=61, belote={"NS": 1}) == ("82", 81, 82)
    assert why("classic2000", bid=90, points=85) == ("bid", 85, 90)
    # coinche1000: 82 card points without belote or melds, then the bid with them
    assert why("coinche1000", bid=100, points=81, belote={"NS": 1}) == ("82", 81, 82)
    assert why("coinche1000", bid=100, points=85, melds={"NS": ["tierce"]}) is None
    assert why("coinche1000", bid=110, points=85, melds={"NS": ["tierce"]}) == ("bid", 105, 110)


def test_not_more_than_the_defence():
    # federation: 81 against 81 fails (not more), belote counts on both sides
    assert why("federation", bid=80, points=81) == ("beat", 81, 81)
    assert why("federation", bid=80, points=82) is None
    assert why("federation", bid=80, points=72, belote={"NS": 1}) is None  # 92 against 90
    assert why("federation", bid=80, points=70, belote={"NS": 1}) == ("beat", 90, 92)
    assert why("federation", bid=100, points=95) == ("bid", 95, 100)
    # coinche1001: melds count on both sides
    assert why("coinche1001", bid=80, points=85, melds={"NS": [], "EW": ["quarte"]}) == ("beat", 85, 127)


def test_special_bids():
    assert why("classic2000", bid="capot", points=150) == ("tricks", 0, 0)
    assert why("federation", bid="generale", points=162, tricks=8) == ("solo", 0, 0)
    assert why("federation", bid="generale", points=162, tricks=8, solo=True) is None


RECORDS = st.fixed_dictionaries({
    "taker": st.sampled_from(["NS", "EW"]), "bid": st.sampled_from([80, 90, 100, 120, 160, "capot", "generale"]),
    "trump": st.sampled_from(["H", "NT", "AT"]), "coinche": st.integers(0, 2), "points": st.integers(0, 162),
    "belote": st.fixed_dictionaries({"NS": st.integers(0, 1), "EW": st.integers(0, 1)}),
    "melds": st.fixed_dictionaries({"NS": st.lists(st.sampled_from(melds.CODES[:3]), max_size=2),
                                    "EW": st.lists(st.sampled_from(melds.CODES[:3]), max_size=2)}),
})


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(PRESET_NAMES), RECORDS)
def test_a_reason_exactly_when_the_deal_failed(preset, rec):
    r = RULES[preset]
    rec = dict(rec)
    if not r.has_melds():
        del rec["melds"]
    try:
        rec = validate(r, rec)
    except RecordError:
        return
    res = score(r, rec)
    assert (res.failure is None) == bool(res.made)
    if res.failure is not None:
        reason, have, need = res.failure
        assert reason in ("82", "bid", "beat", "tricks", "solo")
        if reason in ("82", "bid"):
            assert have < need
        elif reason == "beat":
            assert have <= need
