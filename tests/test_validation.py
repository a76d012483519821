"""Record validation (RULES.md, "Deal record"): each error names its field."""
import pytest

from coinche.record import RecordError, validate
from coinche.rules import Rules
from vectors import deal

C2 = Rules("classic2000")
FED = Rules("federation")
C1000 = Rules("coinche1000")
C1001 = Rules("coinche1001")


def err(rules, rec):
    with pytest.raises(RecordError) as e:
        validate(rules, rec)
    return e.value


def field(rules, rec):
    return err(rules, rec).field


@pytest.mark.parametrize("points", [-1, 163, 500])
def test_points_outside_0_162(points):
    assert field(FED, deal(points=points)) == "points"


@pytest.mark.parametrize("points", ["90", 90.0, None, True])
def test_points_bad_type(points):
    assert field(FED, deal(points=points)) == "points"


def test_points_missing():
    rec = deal()
    del rec["points"]
    assert field(FED, rec) == "points"


@pytest.mark.parametrize("bid", [70, 85, 165, 170, 0, "cap", "100", 100.0, None, True])
def test_bid_not_on_the_ladder(bid):
    assert field(FED, deal(bid=bid)) == "bid"


def test_bid_missing():
    assert field(FED, {"taker": "NS", "points": 90, "trump": "H"}) == "bid"


def test_generale_in_a_preset_without_it():
    e = err(C2, deal(bid="generale"))
    assert e.field == "bid" and "generale" in str(e)
    assert field(C1000, deal(bid="generale")) == "bid"


def test_generale_accepted_where_the_preset_has_it():
    assert validate(FED, deal(bid="generale", points=120))["bid"] == "generale"
    assert validate(C1001, deal(bid="generale", points=120))["bid"] == "generale"


def test_tricks_8_with_points_below_162():
    assert field(FED, deal(points=161, tricks=8)) == "tricks"


def test_tricks_0_with_points():
    assert field(FED, deal(points=10, tricks=0)) == "tricks"


@pytest.mark.parametrize("tricks", [9, -1, "8", 2.5, True])
def test_tricks_bad(tricks):
    assert field(FED, deal(points=100, tricks=tricks)) == "tricks"


def test_tricks_7_with_162_points_is_possible():
    # the defence can win one trick worth 0 that is not the last
    assert validate(FED, deal(points=162, tricks=7))["tricks"] == 7


def test_belote_at_nt():
    e = err(FED, deal(trump="NT", belote={"NS": 1}))
    assert e.field == "belote" and "NT" in str(e)


def test_belote_at_all_trump_where_the_preset_has_none():
    # coinche1001: "solo se si sceglie uno dei semi come atout"
    assert field(C1001, deal(trump="AT", belote={"NS": 1})) == "belote"


def test_more_than_one_belote_at_a_suit():
    assert field(FED, deal(belote={"NS": 1, "EW": 1})) == "belote"


def test_more_than_four_belotes_at_all_trump():
    assert field(FED, deal(trump="AT", belote={"NS": 3, "EW": 2})) == "belote"


def test_defence_belote_in_classic2000():
    # seed 000: only a player of the taking team may declare it
    assert field(C2, deal(belote={"EW": 1})) == "belote"


@pytest.mark.parametrize("bel", [{"NS": -1}, {"N": 1}, [1], {"NS": "1"}, {"NS": 1.0}, 1])
def test_belote_bad_shape(bel):
    assert field(FED, deal(belote=bel)) == "belote"


def test_capot_bid_coinched_in_classic2000():
    # "Eine Kapot-Ansage ... kann nicht gecoincht werden"
    e = err(C2, deal(bid="capot", coinche=1))
    assert e.field == "coinche"


def test_capot_bid_coinched_allowed_in_federation():
    assert validate(FED, deal(bid="capot", coinche=2))["coinche"] == 2


@pytest.mark.parametrize("c", [3, -1, True, "1", 1.0])
def test_coinche_bad(c):
    assert field(FED, deal(coinche=c)) == "coinche"


def test_melds_in_a_preset_without_melds():
    e = err(C2, deal(melds={"NS": ["tierce"]}))
    assert e.field == "melds" and "no melds" in str(e)


def test_melds_to_a_team_in_a_preset_without_melds():
    assert field(C2, deal(melds_to="NS")) == "melds_to"


def test_empty_melds_accepted_in_a_preset_without_melds():
    # an empty melds object says "no melds"; it is not a meld
    out = validate(C2, deal(melds={"NS": [], "EW": []}, melds_to=None))
    assert "melds" not in out and "melds_to" not in out


def test_unknown_meld_with_did_you_mean():
    e = err(FED, deal(melds={"NS": ["tierse"]}))
    assert e.field == "melds" and "'tierce'" in str(e)


def test_same_carre_twice():
    assert field(FED, deal(melds={"NS": ["carre_J"], "EW": ["carre_J"]})) == "melds"


def test_too_many_sequences_for_two_hands():
    assert field(FED, deal(melds={"NS": ["tierce"] * 5})) == "melds"


@pytest.mark.parametrize("m", [["tierce"], {"NS": "tierce"}, {"XX": []}])
def test_melds_bad_shape(m):
    assert field(FED, deal(melds=m)) == "melds"


def test_melds_to_bad():
    assert field(FED, deal(melds_to="N")) == "melds_to"


@pytest.mark.parametrize("t", ["NT", "AT"])
def test_nt_and_at_not_in_classic2000(t):
    e = err(C2, deal(trump=t))
    assert e.field == "trump" and t in str(e)


@pytest.mark.parametrize("t", ["X", "sa", None, 3])
def test_trump_unknown(t):
    assert field(FED, deal(trump=t)) == "trump"


def test_trump_suit_without_colour_accepted():
    assert validate(C2, deal(trump="suit"))["trump"] == "suit"


@pytest.mark.parametrize("t", ["N", "ns", None, 1])
def test_taker_bad(t):
    assert field(FED, deal(taker=t)) == "taker"


def test_unknown_key_with_did_you_mean():
    e = err(FED, deal(point=3))
    assert e.field == "point" and "did you mean 'points'" in str(e)


def test_unknown_key_without_a_close_match():
    e = err(FED, deal(zzzzzz=1))
    assert e.field == "zzzzzz" and "did you mean" not in str(e)


def test_two_unknown_keys_report_the_same_one_whatever_the_order():
    a = {"bid": 80, "zeta": 1, "alpha": 2}
    b = {"alpha": 2, "bid": 80, "zeta": 1}
    assert field(FED, a) == field(FED, b) == "alpha"


def test_solo_in_a_preset_without_generale():
    # an unannounced generale is only a thing where generale exists
    assert field(C2, deal(points=162, tricks=8, solo=True)) == "solo"
    assert field(C1000, deal(points=162, tricks=8, solo=True)) == "solo"


def test_solo_needs_all_tricks_and_162():
    assert field(FED, deal(points=150, solo=True)) == "solo"
    assert field(FED, deal(points=162, tricks=7, solo=True)) == "solo"


@pytest.mark.parametrize("s", [1, "yes", 0])
def test_solo_bad_type(s):
    assert field(FED, deal(solo=s)) == "solo"


def test_solo_implies_eight_tricks():
    out = validate(FED, deal(points=162, solo=True))
    assert out["tricks"] == 8 and out["solo"] is True


def test_null_optional_keys_mean_omitted():
    out = validate(FED, deal(tricks=None, solo=None, belote=None, melds=None))
    assert out == {"taker": "NS", "bid": 100, "trump": "H", "coinche": 0, "points": 100}


def test_record_not_an_object():
    assert field(FED, ["NS", 100]) == "record"


def test_pass_reads_nothing_else():
    rec = {"bid": "pass", "taker": "EW", "trump": "H", "coinche": 0, "points": 0, "tricks": 0,
           "solo": False, "belote": {"NS": 0}, "melds": {"NS": []}, "melds_to": None}
    assert validate(C2, rec) == {"bid": "pass"}
    assert validate(C2, {"bid": "pass", "taker": None, "points": None}) == {"bid": "pass"}


def test_pass_refuses_junk_values():
    for key, junk in (("taker", "XX"), ("points", 999), ("points", "junk"), ("trump", 3), ("coinche", 7),
                      ("tricks", 9), ("solo", "yes"), ("belote", {"XX": 1}), ("belote", [1]),
                      ("melds", {"NS": ["nonsense"]}), ("melds_to", "N")):
        assert field(C2, {"bid": "pass", key: junk}) == key, (key, junk)


def test_pass_still_refuses_unknown_keys():
    assert field(C2, {"bid": "pass", "taket": "NS"}) == "taket"


def test_canonical_form_drops_defaults():
    # coinche defaults to 0, belote 0/0 and empty melds are dropped
    out = validate(FED, {"taker": "EW", "bid": 90, "trump": "S", "points": 90,
                         "belote": {"NS": 0, "EW": 0}, "melds": {"NS": [], "EW": []}})
    assert out == {"taker": "EW", "bid": 90, "trump": "S", "coinche": 0, "points": 90}


def test_error_message_starts_with_the_field():
    e = err(FED, deal(points=200))
    assert str(e).startswith("points: ")
