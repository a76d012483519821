"""What one deal can give (host_tools.club.limits): the search's maximum is never
beaten by random valid records, and the result code holds a round of the most deals
the option allows at that maximum."""
import random

import pytest

from coinche import result_code
from coinche.record import validate
from coinche.rule_options import MAX_ROUND_DEALS, PRESET_NAMES
from coinche.rules import Rules
from coinche.scoring import score
from host_tools.club.limits import deal_limits
from vectors import gen_valid

# docs/club.md's table, from the search
DOCUMENTED = {"classic2000": 910, "federation": 10280, "coinche1000": 6680, "coinche1001": 8620}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_no_random_record_scores_more_than_the_search_found(preset):
    rules = Rules(preset)
    most, tens = deal_limits(rules)
    assert most == DOCUMENTED[preset]
    rnd = random.Random(preset)
    for _ in range(1500):
        result = score(rules, validate(rules, gen_valid(rules, rnd)))
        assert max(result.score.values()) <= most
        if tens:
            assert result.score["NS"] % 10 == 0 == result.score["EW"] % 10


def test_rounding_with_a_162_base_is_not_all_tens():
    assert deal_limits(Rules("classic2000"))[1] is True
    assert deal_limits(Rules("classic2000", {"fail_base": 162}))[1] is False
    assert deal_limits(Rules("federation"))[1] is False


def test_round_length_does_not_change_a_deals_limit():
    assert deal_limits(Rules("classic2000", {"deals": 12})) == deal_limits(Rules("classic2000"))


def test_the_code_holds_the_longest_round_of_the_highest_scoring_preset():
    most = max(deal_limits(Rules(p))[0] for p in PRESET_NAMES)
    assert MAX_ROUND_DEALS * most <= result_code.MAX_TOTAL
    assert 15 * most > result_code.MAX_TEAMS_LAYOUT_TOTAL  # why there is a wide layout
