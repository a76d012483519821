"""classic2000 (seed 000, German "Coinche: die Regeln"): one test per scoring line.

Every expected number is worked out from RULES.md / seed 000 in the comment
next to it. NS takes unless said otherwise; trump is hearts.
"""
from vectors import deal, result


def r(**kw):
    return result("classic2000", deal(**kw))


# --- seed example -------------------------------------------------------------

def test_seed_000_coinched_100_with_belote_failed_is_20_to_360():
    # "Wir sagen 100 an, die Gegner coinchen, wir melden eine Belote und der
    # Vertrag scheitert - wir schreiben 20, die Gegner 160 + (100 x 2) = 360."
    # 70 + 20 belote = 90 < 100: failed.
    assert r(bid=100, coinche=1, points=70, belote={"NS": 1}) == (False, 20, 360)


# --- made, numeric bid ----------------------------------------------------------

def test_made_scores_rounded_points_plus_bid_and_defence_rounded_rest():
    # 112 >= 100: NS round10(112) = 110 + 100 = 210; EW round10(162 - 112 = 50) = 50
    assert r(bid=100, points=112) == (True, 210, 50)


def test_rounding_85_goes_up_and_the_deal_sums_to_170():
    # 85 >= 82: NS round10(85) = 90 + 80 = 170; EW round10(77) = 80.
    # Card parts 90 + 80 = 170: each side rounded on its own.
    assert r(bid=80, points=85) == (True, 170, 80)


def test_rounding_84_goes_down():
    # 84 >= 82: NS round10(84) = 80 + 80 = 160; EW round10(78) = 80
    assert r(bid=80, points=84) == (True, 160, 80)


def test_defence_45_rounds_up_to_50():
    # 117 >= 110: NS round10(117) = 120 + 110 = 230; EW round10(45) = 50 (sum of card parts 170)
    assert r(bid=110, points=117) == (True, 230, 50)


def test_bid_80_needs_82_card_points():
    # "mindestens 82, wenn es 80 gesagt hat": 81 fails -> EW 160 + 80 = 240
    assert r(bid=80, points=81) == (False, 0, 240)
    # 82 makes: NS round10(82) = 80 + 80 = 160; EW round10(80) = 80
    assert r(bid=80, points=82) == (True, 160, 80)


def test_rounding_never_decides_the_contract():
    # 86 would round to 90, but 86 < 90: failed, EW 160 + 90 = 250
    assert r(bid=90, points=86) == (False, 0, 250)


def test_belote_counts_toward_the_contract():
    # 80 + 20 = 100 >= 100: NS round10(80) = 80 + 20 + 100 = 200; EW round10(82) = 80
    assert r(bid=100, points=80, belote={"NS": 1}) == (True, 200, 80)


def test_belote_reaches_82_on_a_bid_of_80():
    # 62 + 20 = 82 >= max(80, 82): NS round10(62) = 60 + 20 + 80 = 160; EW round10(100) = 100
    assert r(bid=80, points=62, belote={"NS": 1}) == (True, 160, 100)


def test_coinche_doubles_only_the_bid_part_when_made():
    # 120 >= 100: NS round10(120) = 120 + 100*2 = 320; EW round10(42) = 40
    assert r(bid=100, coinche=1, points=120) == (True, 320, 40)


def test_surcoinche_quadruples_only_the_bid_part_when_made():
    # NS 120 + 100*4 = 520; EW 40
    assert r(bid=100, coinche=2, points=120) == (True, 520, 40)


# --- failed, numeric bid --------------------------------------------------------

def test_failed_scores_160_plus_bid_to_the_defence():
    # 100 < 110: NS 0; EW 160 + 110 = 270
    assert r(bid=110, points=100) == (False, 0, 270)


def test_failed_surcoinche_multiplies_the_bid_by_four():
    # 100 < 120: EW 160 + 120*4 = 640
    assert r(bid=120, coinche=2, points=100) == (False, 0, 640)


def test_belote_is_kept_by_the_takers_on_a_failure():
    # 60 + 20 = 80 < 90: NS keep 20; EW 160 + 90 = 250
    assert r(bid=90, points=60, belote={"NS": 1}) == (False, 20, 250)


def test_defence_winning_all_tricks_still_scores_160_plus_bid():
    # no 250 base in this seed: EW 160 + 90 = 250
    assert r(bid=90, points=0, tricks=0) == (False, 0, 250)


def test_ew_taking_mirrors_ns():
    # EW 112 >= 100: EW 110 + 100 = 210; NS round10(50) = 50
    assert r(taker="EW", bid=100, points=112) == (True, 50, 210)


# --- all eight tricks -------------------------------------------------------------

def test_unannounced_capot_scores_250_plus_bid():
    # "Wenn alle Tricks gewonnen werden (kapot), erhaelt das Bietende team 250 Punkte plus den Bietwert."
    # NS 250 + 110 = 360; EW 0
    assert r(bid=110, points=162, tricks=8) == (True, 360, 0)


def test_unannounced_capot_coinched_with_belote():
    # NS 250 + 110*2 + 20 = 490; EW 0
    assert r(bid=110, coinche=1, points=162, tricks=8, belote={"NS": 1}) == (True, 490, 0)


def test_162_points_without_tricks_is_not_assumed_a_capot():
    # "If tricks is omitted it is not assumed from points": NS round10(162) = 160 + 110 = 270; EW 0
    assert r(bid=110, points=162) == (True, 270, 0)


def test_capot_bid_made_scores_500():
    # NS 500; EW 0
    assert r(bid="capot", points=162, tricks=8) == (True, 500, 0)


def test_capot_bid_made_with_belote_scores_520():
    # "500 Punkte, plus 20 fuer einen Belote": NS 500 + 20 = 520
    assert r(bid="capot", points=162, tricks=8, belote={"NS": 1}) == (True, 520, 0)


def test_capot_bid_failed_gives_500_to_the_defence():
    # "Wenn ein angesagter Kapot verloren geht, erhaelt das andere Team 500 Punkte": EW 500
    assert r(bid="capot", points=150, tricks=7) == (False, 0, 500)


def test_capot_bid_failed_takers_keep_belote():
    # NS 20 (belote); EW 500
    assert r(bid="capot", points=140, tricks=7, belote={"NS": 1}) == (False, 20, 500)


def test_capot_bid_without_tricks_is_failed():
    # tricks omitted: not assumed from 162 points, so the capot is not proved: EW 500
    assert r(bid="capot", points=162) == (False, 0, 500)


def test_winner_of_the_deal_is_the_takers_when_made_else_the_defence():
    from coinche.record import validate
    from coinche.rules import Rules
    from coinche.scoring import score
    rules = Rules("classic2000")
    assert score(rules, validate(rules, deal(bid=100, points=112))).winner == "NS"
    assert score(rules, validate(rules, deal(bid=100, points=90))).winner == "EW"
    assert score(rules, validate(rules, {"bid": "pass"})).winner is None
