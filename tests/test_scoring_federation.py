"""federation (seed 001, "La coinche classique"): one test per scoring line.

No rounding. NS takes unless said otherwise; trump is hearts.
E = bid, capot 250, generale 500. Made: P + b_T >= bid and P + b_T > D + b_D.
"""
from vectors import deal, result


def r(**kw):
    return result("federation", deal(**kw))


# --- seed example ---------------------------------------------------------------

def test_seed_001_failed_generale_is_660():
    # "soit 660 pour une generale chutee": EW 160 + 500 = 660; NS 0
    assert r(bid="generale", points=140, tricks=7) == (False, 0, 660)


# --- made -------------------------------------------------------------------------

def test_made_bid_plus_points_no_rounding():
    # 115 >= 100 and 115 > 47: NS 100 + 115 = 215; EW 162 - 115 = 47
    assert r(bid=100, points=115) == (True, 215, 47)


def test_80_made_with_80_points_is_not_enough_to_beat_the_defence():
    # "A 80 annonce, faire 80 laisse 82 a la defense": 80 > 82 is false: failed, EW 160 + 80 = 240
    assert r(bid=80, points=80) == (False, 0, 240)


def test_81_to_81_is_not_more_than_the_defence():
    # 81 > 81 false: failed, EW 160 + 80 = 240
    assert r(bid=80, points=81) == (False, 0, 240)


def test_82_beats_the_defence_on_80():
    # 82 >= 80 and 82 > 80: NS 80 + 82 = 162; EW 80
    assert r(bid=80, points=82) == (True, 162, 80)


def test_defence_belote_can_sink_the_contract():
    # 90 >= 90 but 90 > 72 + 20 = 92 is false: failed. NS 0; EW 160 + 90 + 20 (own belote) = 270
    assert r(bid=90, points=90, belote={"EW": 1}) == (False, 0, 270)


def test_same_deal_without_the_defence_belote_is_made():
    # 90 >= 90 and 90 > 72: NS 90 + 90 = 180; EW 72
    assert r(bid=90, points=90) == (True, 180, 72)


def test_takers_belote_counts_toward_the_contract():
    # 85 + 20 = 105 >= 100 and 105 > 77: NS 100 + 85 + 20 = 205; EW 77
    assert r(bid=100, points=85, belote={"NS": 1}) == (True, 205, 77)


def test_melds_never_count_toward_the_contract():
    # 90 < 100 despite the tierce: failed; all melds to the defence: EW 160 + 100 + 20 = 280
    assert r(bid=100, points=90, melds={"NS": ["tierce"]}) == (False, 0, 280)


def test_best_meld_side_scores_all_melds_of_the_deal():
    # NS quarte (50) beats EW tierce (20): NS scores both, A_all = 70.
    # 100 >= 90 and 100 > 62: NS 90 + 100 + 70 = 260; EW 62
    assert r(bid=90, points=100, melds={"NS": ["quarte"], "EW": ["tierce"]}) == (True, 260, 62)


def test_defence_with_the_best_meld_scores_all_melds_on_a_made_contract():
    # EW carre_A (100) beats NS tierce (20): EW scores 120.
    # NS 90 + 100 = 190; EW 62 + 120 = 182
    assert r(bid=90, points=100, melds={"NS": ["tierce"], "EW": ["carre_A"]}) == (True, 190, 182)


def test_failure_gives_all_melds_to_the_defence_even_the_takers_best():
    # 100 < 120: failed. NS quinte (100) is the best meld, but on a failure the
    # defence scores all of them: EW 160 + 120 + (100 + 20) = 400
    assert r(bid=120, points=100, melds={"NS": ["quinte"], "EW": ["tierce"]}) == (False, 0, 400)


def test_equal_best_melds_score_nothing():
    # tierce vs tierce: nobody. NS 100 + 110 = 210; EW 52
    assert r(bid=100, points=110, melds={"NS": ["tierce"], "EW": ["tierce"]}) == (True, 210, 52)


def test_melds_to_decides_equal_melds():
    # the table gives the melds to NS: NS 100 + 110 + (20 + 20) = 250; EW 52
    assert r(bid=100, points=110, melds={"NS": ["tierce"], "EW": ["tierce"]}, melds_to="NS") == (True, 250, 52)


def test_carre_values_are_the_same_at_nt():
    # carre of aces is 100 in every contract here (not 200 as in coinche1000):
    # NS 100 + 110 + 100 = 310; EW 52
    assert r(bid=100, trump="NT", points=110, melds={"NS": ["carre_A"]}) == (True, 310, 52)


def test_carre_of_jacks_200_and_nines_150():
    # NS carre_J 200 + EW carre_9 150 (NS best): NS 100 + 110 + 350 = 560; EW 52
    assert r(bid=100, points=110, melds={"NS": ["carre_J"], "EW": ["carre_9"]}) == (True, 560, 52)


# --- coinche ------------------------------------------------------------------------

def test_coinche_doubles_every_mark_but_belote_when_made():
    # 110 + 20 = 130 >= 100 and > 52: NS (100 + 110 + 20 tierce)*2 + 20 belote = 480; EW 52*2 = 104
    assert r(bid=100, coinche=1, points=110, belote={"NS": 1},
             melds={"NS": ["tierce"]}) == (True, 480, 104)


def test_coinche_doubles_the_defence_on_a_failure_belote_excepted():
    # 70 < 100: failed. NS 0; EW (160 + 100)*2 + 20 = 540
    assert r(bid=100, coinche=1, points=70, belote={"EW": 1}) == (False, 0, 540)


def test_surcoinche_quadruples_a_failure():
    # 100 + 20 = 120 < 130: failed. NS 20; EW (160 + 130)*4 = 1160
    assert r(bid=130, coinche=2, points=100, belote={"NS": 1}) == (False, 20, 1160)


# --- capot and generale ----------------------------------------------------------------

def test_unannounced_capot_counts_250_instead_of_the_cards():
    # NS 120 + 250 = 370; EW 0
    assert r(bid=120, points=162, tricks=8) == (True, 370, 0)


def test_unannounced_capot_coinched():
    # NS (120 + 250)*2 = 740; EW 0
    assert r(bid=120, coinche=1, points=162, tricks=8) == (True, 740, 0)


def test_capot_bid_made():
    # NS E 250 + forfait 250 = 500; EW 0
    assert r(bid="capot", points=162, tricks=8) == (True, 500, 0)


def test_capot_bid_made_coinched_with_belote():
    # NS (250 + 250)*2 + 20 = 1020
    assert r(bid="capot", coinche=1, points=162, tricks=8, belote={"NS": 1}) == (True, 1020, 0)


def test_capot_bid_failed_gives_160_plus_250():
    # F stays 160 (the defence did not win all tricks): EW 160 + 250 = 410
    assert r(bid="capot", points=150, tricks=7) == (False, 0, 410)


def test_defence_capot_raises_the_failure_base_to_250():
    # "le forfait de chute passe de 160 a 250": EW 250 + 100 = 350
    assert r(bid=100, points=0, tricks=0) == (False, 0, 350)


def test_generale_bid_made():
    # NS E 500 + forfait 500 = 1000; EW 0
    assert r(bid="generale", points=162, solo=True) == (True, 1000, 0)


def test_generale_bid_with_all_tricks_but_partner_won_one_is_failed():
    # solo false: "si son partenaire en remporte un seul, elle est chutee": EW 160 + 500 = 660
    assert r(bid="generale", points=162, tricks=8) == (False, 0, 660)


def test_unannounced_generale_counts_as_a_capot():
    # resolution: NS 100 + 250 = 350 (not 500)
    assert r(bid=100, points=162, tricks=8, solo=True) == (True, 350, 0)


# --- belote at NT / AT -----------------------------------------------------------------

def test_up_to_four_belotes_at_all_trump_count_on_both_sides():
    # AT, NS 2 belotes (40), EW 1 (20): 70 + 40 = 110 >= 100 but 110 > 92 + 20 = 112 false: failed.
    # NS 40; EW 160 + 100 + 20 = 280
    assert r(bid=100, trump="AT", points=70, belote={"NS": 2, "EW": 1}) == (False, 40, 280)


def test_four_belotes_at_all_trump_made():
    # 120 + 80 = 200 >= 160 and > 42: NS 160 + 120 + 80 = 360; EW 42
    assert r(bid=160, trump="AT", points=120, belote={"NS": 4}) == (True, 360, 42)
