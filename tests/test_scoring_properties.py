"""Property tests over generated valid deals, per preset (hypothesis).

Each property draws new examples every run; the quick run draws fewer of them
(SWEEP=full the whole count, tests/sweep.py), and runs one after the other add up."""
import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinche.game import Game
from coinche.record import validate
from coinche.rules import Rules
from coinche.scoring import score
import sweep
from vectors import PRESETS, HypothesisSource, gen_valid

SETTINGS = settings(max_examples=sweep.count(150, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def draw_deal(data, rules):
    return gen_valid(rules, HypothesisSource(data))


def sc(rules, rec):
    return score(rules, validate(rules, rec))


def swap_teams(rec):
    """The same deal with NS and EW exchanged."""
    sw = {"NS": "EW", "EW": "NS"}
    out = copy.deepcopy(rec)
    if "taker" in out:
        out["taker"] = sw[out["taker"]]
    for k in ("belote", "melds"):
        if k in out and isinstance(out[k], dict):
            out[k] = {sw[t]: v for t, v in out[k].items()}
    if out.get("melds_to") is not None:
        out["melds_to"] = sw[out["melds_to"]]
    return out


def belote_of(rec, team):
    return 20 * (rec.get("belote") or {}).get(team, 0)


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_scores_are_non_negative_whole_numbers(preset, data):
    rules = Rules(preset)
    r = sc(rules, draw_deal(data, rules))
    for t in ("NS", "EW"):
        assert isinstance(r.score[t], int) and r.score[t] >= 0


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_swapping_the_teams_swaps_the_scores(preset, data):
    rules = Rules(preset)
    rec = draw_deal(data, rules)
    a = sc(rules, rec)
    b = sc(rules, swap_teams(rec))
    assert a.made == b.made
    assert (a.score["NS"], a.score["EW"]) == (b.score["EW"], b.score["NS"])


@pytest.mark.parametrize("preset", ["classic2000", "coinche1000"])
@SETTINGS
@given(data=st.data())
def test_rounded_presets_score_multiples_of_ten(preset, data):
    rules = Rules(preset)
    r = sc(rules, draw_deal(data, rules))
    assert r.score["NS"] % 10 == 0 and r.score["EW"] % 10 == 0


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_failed_takers_score_exactly_their_belote(preset, data):
    rules = Rules(preset)
    rec = draw_deal(data, rules)
    r = sc(rules, rec)
    if r.made is False:
        assert r.score[rec["taker"]] == belote_of(rec, rec["taker"])
        assert r.winner != rec["taker"]


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_winner_of_the_deal(preset, data):
    rules = Rules(preset)
    rec = draw_deal(data, rules)
    r = sc(rules, rec)
    if rec["bid"] == "pass":
        assert r.made is None and r.winner is None and r.score == {"NS": 0, "EW": 0}
    else:
        t = rec["taker"]
        assert r.winner == (t if r.made else ("EW" if t == "NS" else "NS"))


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_more_card_points_never_score_less_on_a_made_contract(preset, data):
    rules = Rules(preset)
    rec = draw_deal(data, rules)
    if rec["bid"] == "pass" or rec.get("tricks") in (0, 8) or rec.get("solo") or rec["points"] >= 162:
        return
    rec.pop("tricks", None)
    more = dict(rec, points=rec["points"] + data.draw(st.integers(1, 162 - rec["points"])))
    a, b = sc(rules, rec), sc(rules, more)
    if a.made:
        assert b.made
        assert b.score[rec["taker"]] >= a.score[rec["taker"]]


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_belote_is_never_multiplied_and_always_kept(preset, data):
    rules = Rules(preset)
    rec = draw_deal(data, rules)
    r = sc(rules, rec)
    for t in ("NS", "EW"):
        assert r.score[t] >= belote_of(rec, t)
        assert r.bonus[t] >= belote_of(rec, t)


@pytest.mark.parametrize("preset", PRESETS)
@SETTINGS
@given(data=st.data())
def test_validation_is_idempotent(preset, data):
    rules = Rules(preset)
    v = validate(rules, draw_deal(data, rules))
    assert validate(rules, v) == v


@pytest.mark.parametrize("preset", ["federation", "coinche1000", "coinche1001"])
@SETTINGS
@given(data=st.data())
def test_a_failed_contract_coinched_doubles_the_defence_belote_excepted(preset, data):
    # federation multiplies every mark, coinche1000/1001 the winner's (F + E + M):
    # on a failure both are (F + E + M)*m + b_D.
    rules = Rules(preset)
    rec = draw_deal(data, rules)
    if rec["bid"] == "pass" or rec.get("coinche", 0) != 0:
        return
    r1 = sc(rules, rec)
    if r1.made:
        return
    r2 = sc(rules, dict(rec, coinche=1))
    r4 = sc(rules, dict(rec, coinche=2))
    d = "EW" if rec["taker"] == "NS" else "NS"
    bd = belote_of(rec, d)
    assert r2.made is False and r4.made is False
    assert r2.score[d] - bd == 2 * (r1.score[d] - bd)
    assert r4.score[d] - bd == 4 * (r1.score[d] - bd)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=sweep.count(40, 12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_game_totals_are_the_sum_of_the_deal_scores(preset, data):
    rules = Rules(preset)
    g = Game(rules)
    ns = ew = 0
    for _ in range(data.draw(st.integers(1, 12))):
        if g.over:
            break
        rec = draw_deal(data, rules)
        r = sc(rules, rec)
        g.add(rec)
        ns += r.score["NS"]
        ew += r.score["EW"]
        assert g.total == {"NS": ns, "EW": ew}
        assert g.totals_after(len(g.deals) - 1) == g.total
    if g.over:
        assert max(g.total.values()) >= rules.target
        assert g.total[g.winner] >= rules.target
