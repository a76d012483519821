"""Options, presets and overrides (coinche.rules)."""
import pytest

from coinche.rule_options import OPTIONS, ORDER, PRESET_NAMES, PRESETS, check_option
from coinche.rules import Rules, RulesError
from host_tools.common.rules_help import parse_value
from vectors import deal, result


def test_every_preset_sets_every_option_to_an_allowed_value():
    assert sorted(ORDER) == sorted(OPTIONS)
    for p in PRESET_NAMES:
        assert sorted(PRESETS[p]) == sorted(ORDER)
        for k in ORDER:
            check_option(k, PRESETS[p][k])


def test_targets_of_the_presets():
    # RULES.md: 2000, 3000 (or 700), 1000, 1001
    assert [Rules(p).target for p in PRESET_NAMES] == [2000, 3000, 1000, 1001]


def test_ladders():
    base = [80, 90, 100, 110, 120, 130, 140, 150, 160, "capot"]
    assert Rules("classic2000").bids() == base
    assert Rules("coinche1000").bids() == base
    assert Rules("federation").bids() == base + ["generale"]
    assert Rules("coinche1001").bids() == base + ["generale"]


def test_contract_types():
    assert Rules("classic2000").trumps() == ("S", "H", "D", "C")
    for p in ("federation", "coinche1000", "coinche1001"):
        assert Rules(p).trumps() == ("S", "H", "D", "C", "NT", "AT")


def test_melds_per_preset():
    assert [Rules(p).has_melds() for p in PRESET_NAMES] == [False, True, True, True]


def test_belotes_per_contract():
    # a suit: 1 everywhere; NT: 0 everywhere; AT: federation and coinche1000 up to 4, coinche1001 none
    assert [Rules(p).max_belote("H") for p in PRESET_NAMES] == [1, 1, 1, 1]
    assert [Rules(p).max_belote("NT") for p in PRESET_NAMES] == [0, 0, 0, 0]
    assert [Rules(p).max_belote("AT") for p in ("federation", "coinche1000", "coinche1001")] == [4, 4, 0]


def test_federation_quick_game_target_700():
    r = Rules("federation", {"target": 700})
    assert r.target == 700 and r.spec() == {"preset": "federation", "options": {"target": 700}}


def test_spec_keeps_only_real_overrides():
    assert Rules("federation", {"target": 3000}).spec() == {"preset": "federation", "options": {}}


def test_spec_round_trip():
    r = Rules("coinche1000", {"rounding": False, "target": 1500})
    assert Rules.from_spec(r.spec()) == r
    assert Rules.from_spec({"preset": "coinche1000"}) == Rules("coinche1000")


def test_classic2000_without_rounding():
    # 85 >= 82: NS 85 + 80 = 165; EW 77
    assert result("classic2000", deal(bid=80, points=85), rounding=False) == (True, 165, 77)


def test_classic2000_with_capot_coinche_allowed():
    # coinche doubles the bid part: NS 250 + 250*2 = 750
    assert result("classic2000", deal(bid="capot", coinche=1, points=162, tricks=8),
                  capot_coinche=True) == (True, 750, 0)


def test_classic2000_with_nt_allowed():
    # NT at 100, P 112: NS round10(112) = 110 + 100 = 210; EW 50
    assert result("classic2000", deal(bid=100, trump="NT", points=112), contracts="all") == (True, 210, 50)


def test_coinche1000_with_same_carre_values_at_nt():
    # carre of aces at NT worth 100 instead of 200: NS 100 + 100 + 100 = 300; EW 60
    assert result("coinche1000", deal(bid=100, trump="NT", points=100, melds={"NS": ["carre_A"]}),
                  carre_nt="same") == (True, 300, 60)


def test_coinche1001_with_failure_base_160():
    # EW 160 + 100 = 260 instead of 262
    assert result("coinche1001", deal(bid=100, points=60), fail_base=160) == (False, 0, 260)


def test_federation_coinche_on_the_bid_only():
    # made 110 on 100, coinched: NS 110 + 100*2 = 310; EW 52 (not doubled)
    assert result("federation", deal(bid=100, coinche=1, points=110), coinche="bid") == (True, 310, 52)


def test_unknown_preset():
    with pytest.raises(RulesError) as e:
        Rules("belote")
    assert e.value.field == "preset"


def test_unknown_option_with_did_you_mean():
    with pytest.raises(RulesError) as e:
        Rules("federation", {"traget": 700})
    assert e.value.field == "traget" and "did you mean 'target'" in str(e.value)


@pytest.mark.parametrize("name,value", [
    ("target", "700"), ("target", True), ("target", 50), ("target", 100000), ("target", 700.0),
    ("rounding", 1), ("rounding", "yes"), ("belote_at", 3), ("belote_at", True),
    ("fail_base", "160"), ("contracts", "nt"), ("coinche", "double"), ("tie", None),
])
def test_bad_option_values_name_the_option(name, value):
    with pytest.raises(RulesError) as e:
        Rules("classic2000", {name: value})
    assert e.value.field == name


def test_options_must_be_an_object():
    with pytest.raises(RulesError) as e:
        Rules.from_spec({"preset": "federation", "options": ["target"]})
    assert e.value.field == "options"


def test_spec_must_be_an_object():
    with pytest.raises(RulesError):
        Rules.from_spec("federation")


@pytest.mark.parametrize("name,text,value", [
    ("target", "700", 700), ("rounding", "false", False), ("rounding", "true", True),
    ("belote_at", "4", 4), ("fail_base", "162", 162), ("coinche", "bid", "bid"), ("tie", "extra", "extra"),
])
def test_parse_value(name, text, value):
    v = parse_value(name, text)
    assert v == value and type(v) is type(value)


@pytest.mark.parametrize("name,text", [("target", "x"), ("rounding", "maybe"), ("rounding", "off"), ("rounding", "1"), ("nope", "1")])
def test_parse_value_errors(name, text):
    with pytest.raises(RulesError) as e:
        parse_value(name, text)
    assert e.value.field == name
