"""coinche1000 (seed 003, online "Coinche bis 1000"): one test per scoring line.

Each side's card count rounded; own melds of the best side credited; made:
P >= 82 and P + M_T + b_T >= bid. NS takes unless said otherwise; trump hearts.
"""
from vectors import deal, result


def r(**kw):
    return result("coinche1000", deal(**kw))


# --- not coinched, made ---------------------------------------------------------

def test_made_rounded_points_plus_bid():
    # NS round10(112) = 110 + 100 = 210; EW round10(50) = 50
    assert r(bid=100, points=112) == (True, 210, 50)


def test_rounding_85_up_deal_sums_to_170():
    # NS round10(85) = 90 + 80 = 170; EW round10(77) = 80 (card parts 90 + 80 = 170)
    assert r(bid=80, points=85) == (True, 170, 80)


def test_rounding_84_down():
    # NS round10(84) = 80 + 80 = 160; EW round10(78) = 80
    assert r(bid=80, points=84) == (True, 160, 80)


def test_melds_count_toward_the_contract():
    # 95 >= 82 and 95 + 20 = 115 >= 110: NS round10(95) = 100 + 20 + 110 = 230; EW round10(67) = 70
    assert r(bid=110, points=95, melds={"NS": ["tierce"]}) == (True, 230, 70)


def test_belote_counts_toward_the_contract():
    # 90 >= 82 and 90 + 20 = 110 >= 110: NS 90 + 20 + 110 = 220; EW round10(72) = 70
    assert r(bid=110, points=90, belote={"NS": 1}) == (True, 220, 70)


def test_82_card_points_are_needed_even_with_melds_and_belote():
    # 81 < 82: failed although 81 + 20 + 50 >= 80. NS 20 (belote);
    # EW 160 + 80 + 50 (the credited NS quarte goes to the defence) = 290
    assert r(bid=80, points=81, belote={"NS": 1}, melds={"NS": ["quarte"]}) == (False, 20, 290)


def test_only_the_best_sides_own_melds_are_credited():
    # NS quarte (50) beats EW tierce (20): NS credited 50, EW's tierce void.
    # NS 100 + 50 + 100 = 250; EW round10(62) = 60
    assert r(bid=100, points=100, melds={"NS": ["quarte"], "EW": ["tierce"]}) == (True, 250, 60)


def test_defence_credited_melds_when_their_carre_beats_a_quinte():
    # EW carre_K (100) beats NS quinte (100): carre over sequence. EW credited 100.
    # 110 >= 82, 110 >= 100: NS 110 + 100 = 210; EW round10(52) = 50 + 100 = 150
    assert r(bid=100, points=110, melds={"NS": ["quinte"], "EW": ["carre_K"]}) == (True, 210, 150)


# --- not coinched, failed ---------------------------------------------------------

def test_failed_defence_scores_160_bid_and_every_credited_meld():
    # 60 < 82: failed. NS quarte credited (50, best): EW 160 + 120 + 50 = 330; NS 0
    assert r(bid=120, points=60, melds={"NS": ["quarte"], "EW": ["tierce"]}) == (False, 0, 330)


def test_failed_defence_adds_its_own_belote_and_takers_keep_theirs():
    # AT: NS 1 belote, EW 1. 90 + 20 = 110 < 120: failed. NS 20; EW 160 + 120 + 20 = 300
    assert r(bid=120, trump="AT", points=90, belote={"NS": 1, "EW": 1}) == (False, 20, 300)


def test_defence_capot_raises_the_base_to_250():
    # EW 250 + 90 = 340
    assert r(bid=90, points=0, tricks=0) == (False, 0, 340)


# --- capot -----------------------------------------------------------------------------

def test_unannounced_capot_counts_250_for_the_cards():
    # NS round10(250) = 250 + 100 = 350; EW 0
    assert r(bid=100, points=162, tricks=8) == (True, 350, 0)


def test_capot_bid_made_is_500():
    # "also ist ein Capot-Gebot 500 wert, ob es erfuellt wird oder nicht": NS 250 + 250 = 500
    assert r(bid="capot", points=162, tricks=8) == (True, 500, 0)


def test_capot_bid_failed_is_500_to_the_defence():
    # F = 250 after a capot bid: EW 250 + 250 = 500
    assert r(bid="capot", points=150, tricks=7) == (False, 0, 500)


# --- coinched: the winner scores (F + E + M)*m ------------------------------------------

def test_coinched_made_winner_scores_everything_doubled():
    # 110 >= 82, 110 + 20 + 20 >= 100: made. NS (160 + 100 + 20 tierce)*2 + 20 belote = 580; EW 0
    assert r(bid=100, coinche=1, points=110, belote={"NS": 1}, melds={"NS": ["tierce"]}) == (True, 580, 0)


def test_coinched_winner_takes_the_other_sides_credited_melds():
    # EW carre_A (100) beats NS tierce: credited to EW (M = 100). NS still make (110 >= 100)
    # and win the deal: NS (160 + 100 + 100)*2 = 720; EW 0
    assert r(bid=100, coinche=1, points=110, melds={"NS": ["tierce"], "EW": ["carre_A"]}) == (True, 720, 0)


def test_coinched_failed_defence_doubled_takers_keep_belote():
    # 70 < 82: failed. NS 20; EW (160 + 100)*2 = 520
    assert r(bid=100, coinche=1, points=70, belote={"NS": 1}) == (False, 20, 520)


def test_surcoinched_failed_quadrupled():
    # EW (160 + 100)*4 = 1040
    assert r(bid=100, coinche=2, points=70) == (False, 0, 1040)


def test_coinched_after_the_takers_capot_base_is_250():
    # NS (250 + 100)*2 = 700; EW 0
    assert r(bid=100, coinche=1, points=162, tricks=8) == (True, 700, 0)


def test_coinched_after_the_defence_capot_base_is_250():
    # EW (250 + 100)*2 = 700
    assert r(bid=100, coinche=1, points=0, tricks=0) == (False, 0, 700)


def test_coinched_capot_bid_failed():
    # EW (250 + 250)*2 = 1000
    assert r(bid="capot", coinche=1, points=150, tricks=7) == (False, 0, 1000)


def test_coinched_capot_bid_made():
    # NS (250 + 250)*2 = 1000
    assert r(bid="capot", coinche=1, points=162, tricks=8) == (True, 1000, 0)


# --- carrés at NT ------------------------------------------------------------------------

def test_nt_carre_of_aces_is_200():
    # NS round10(100) = 100 + 200 + 100 = 400; EW round10(62) = 60
    assert r(bid=100, trump="NT", points=100, melds={"NS": ["carre_A"]}) == (True, 400, 60)


def test_nt_carre_of_tens_is_150():
    # NS 100 + 150 + 100 = 350; EW 60
    assert r(bid=100, trump="NT", points=100, melds={"NS": ["carre_10"]}) == (True, 350, 60)


def test_nt_carre_of_jacks_is_100_and_loses_to_aces():
    # NS carre_J (100 at NT) vs EW carre_A (200 at NT): EW credited 200.
    # NS 100 + 100 = 200; EW 60 + 200 = 260
    assert r(bid=100, trump="NT", points=100, melds={"NS": ["carre_J"], "EW": ["carre_A"]}) == (True, 200, 260)


def test_nt_carre_of_nines_is_no_meld():
    # at NT four nines count nothing, so EW's tierce is the best meld: EW credited 20.
    # NS 100 + 100 = 200; EW 60 + 20 = 80
    assert r(bid=100, trump="NT", points=100, melds={"NS": ["carre_9"], "EW": ["tierce"]}) == (True, 200, 80)


def test_trump_carre_of_nines_is_150():
    # at hearts: NS carre_9 150 beats EW tierce. NS 100 + 150 + 100 = 350; EW 60
    assert r(bid=100, points=100, melds={"NS": ["carre_9"], "EW": ["tierce"]}) == (True, 350, 60)


def test_trump_carre_of_jacks_beats_aces():
    # at hearts J 200 > A 100: EW credited 200. NS 200; EW 60 + 200 = 260
    assert r(bid=100, points=100, melds={"NS": ["carre_A"], "EW": ["carre_J"]}) == (True, 200, 260)
