"""coinche1001 (seed 004, Italian "Belote Coinchee"): one test per scoring line.

No rounding. T = P + M_T + b_T, Dt = D + M_D + b_D; made: T >= bid and T > Dt.
NS takes unless said otherwise; trump is hearts.
"""
from vectors import deal, result


def r(**kw):
    return result("coinche1001", deal(**kw))


# --- seed examples ----------------------------------------------------------------

def test_seed_004_example_1_made_with_90_and_a_tierce_is_210_to_72():
    # "90 + 20 + 100 = 210 punti; Squadra in difesa: 72 punti". T = 110 >= 100 and > 72.
    assert r(bid=100, points=90, melds={"NS": ["tierce"]}) == (True, 210, 72)


def test_seed_004_example_2_contre_70_and_belote_failed_is_20_to_524():
    # T = 70 + 20 = 90 < 100: failed. "20 punti"; "(162 + 100) x 2 = 524 punti"
    assert r(bid=100, coinche=1, points=70, belote={"NS": 1}) == (False, 20, 524)


# --- not coinched -----------------------------------------------------------------------

def test_made_no_rounding():
    # T = 85 >= 80, 85 > 77: NS 85 + 80 = 165; EW 77
    assert r(bid=80, points=85) == (True, 165, 77)


def test_a_tie_fails():
    # T = 81 >= 80 but Dt = 81: "In caso di pareggio, il contratto si considera fallito".
    # EW 162 + 80 = 242
    assert r(bid=80, points=81) == (False, 0, 242)


def test_defence_melds_count_against_the_takers():
    # EW quarte 50 is the best meld (credited to EW): T = 100, Dt = 62 + 50 = 112: failed.
    # EW 162 + 80 + 50 = 292
    assert r(bid=80, points=100, melds={"EW": ["quarte"]}) == (False, 0, 292)


def test_failed_takers_keep_only_their_belote():
    # T = 60 + 20 = 80 < 90: NS 20; EW 162 + 90 = 252
    assert r(bid=90, points=60, belote={"NS": 1}) == (False, 20, 252)


def test_failed_defence_gets_every_credited_meld_and_its_belote():
    # NS quarte credited (best, 50): T = 50 + 50 = 100 < 120: failed.
    # EW 162 + 120 + 50 + 20 (EW belote) = 352
    assert r(bid=120, points=50, melds={"NS": ["quarte"]}, belote={"EW": 1}) == (False, 0, 352)


def test_defence_capot_keeps_the_162_base():
    # no 250 base in this seed: EW 162 + 100 = 262
    assert r(bid=100, points=0, tricks=0) == (False, 0, 262)


def test_unannounced_capot_250_plus_bid():
    # "riceve 250 punti piu il valore dell'offerta": NS 250 + 100 = 350; EW 0
    assert r(bid=100, points=162, tricks=8) == (True, 350, 0)


def test_unannounced_capot_with_tierce_and_belote():
    # NS 250 + 100 + 20 + 20 = 390
    assert r(bid=100, points=162, tricks=8, belote={"NS": 1}, melds={"NS": ["tierce"]}) == (True, 390, 0)


def test_unannounced_generale_is_500_flat():
    # "Se non e stato annunciato, vale 500 punti": NS 500 (bid not added); EW 0
    assert r(bid=100, points=162, solo=True) == (True, 500, 0)


def test_unannounced_generale_plus_melds_and_belote():
    # NS 500 + 20 + 20 = 540
    assert r(bid=120, points=162, solo=True, belote={"NS": 1}, melds={"NS": ["tierce"]}) == (True, 540, 0)


def test_capot_bid_made_is_500_plus_melds():
    # "il punteggio sale a 500 punti, piu i punti degli annunci": NS 500 + 50 = 550
    assert r(bid="capot", points=162, tricks=8, melds={"NS": ["quarte"]}) == (True, 550, 0)


def test_generale_bid_made_is_1000():
    # "la squadra riceve 1000 punti": NS 1000; EW 0
    assert r(bid="generale", points=162, solo=True) == (True, 1000, 0)


def test_capot_bid_failed():
    # EW 162 + 250 = 412
    assert r(bid="capot", points=150, tricks=7) == (False, 0, 412)


def test_generale_bid_failed():
    # EW 162 + 500 = 662
    assert r(bid="generale", points=162, tricks=8) == (False, 0, 662)


def test_numeric_bid_with_all_tricks_still_needs_to_beat_the_defence_melds():
    # RULES.md reads "T > Dt" for every numeric bid: T = 162, Dt = 0 + 200 (EW carre_J,
    # the best meld) = 200: failed. EW 162 + 80 + 200 = 442
    assert r(bid=80, points=162, tricks=8, melds={"EW": ["carre_J"]}) == (False, 0, 442)


# --- coinched: the winner scores (162 + bid + M)*m ---------------------------------------

def test_coinched_made_winner_scores_162_bid_melds_doubled():
    # T = 120 + 20 >= 100 and > 42: NS (162 + 100 + 20)*2 = 564; EW 0
    assert r(bid=100, coinche=1, points=120, melds={"NS": ["tierce"]}) == (True, 564, 0)


def test_coinched_made_loser_keeps_its_belote():
    # T = 120 >= 100, > 42 + 20: NS (162 + 100)*2 = 524; EW 20
    assert r(bid=100, coinche=1, points=120, belote={"EW": 1}) == (True, 524, 20)


def test_surcoinched_made():
    # NS (162 + 100)*4 = 1048
    assert r(bid=100, coinche=2, points=120) == (True, 1048, 0)


def test_coinched_numeric_bid_with_all_tricks_keeps_the_162_base():
    # RULES.md: "Coinched, numeric bid: the winner scores (162 + bid + M)*m" - no capot forfait.
    # NS (162 + 100)*2 = 524
    assert r(bid=100, coinche=1, points=162, tricks=8) == (True, 524, 0)


def test_coinched_unannounced_generale_is_still_a_numeric_bid():
    # NS (162 + 100)*2 = 524
    assert r(bid=100, coinche=1, points=162, solo=True) == (True, 524, 0)


def test_coinched_failed_surcoinche():
    # T = 80 < 90: EW (162 + 90)*4 = 1008
    assert r(bid=90, coinche=2, points=80) == (False, 0, 1008)


def test_coinched_capot_bid_made_resolution():
    # resolution: the coinche multiplies the made capot's 500 (+ melds): NS (250 + 250 + 20)*2 = 1040
    assert r(bid="capot", coinche=1, points=162, tricks=8, melds={"NS": ["tierce"]}) == (True, 1040, 0)


def test_coinched_capot_bid_failed_resolution():
    # EW (162 + 250)*2 = 824
    assert r(bid="capot", coinche=1, points=150, tricks=7) == (False, 0, 824)


def test_coinched_generale_bid_made_resolution():
    # NS (500 + 500)*2 = 2000
    assert r(bid="generale", coinche=1, points=162, solo=True) == (True, 2000, 0)


def test_coinched_generale_bid_failed_resolution():
    # EW (162 + 500)*2 = 1324
    assert r(bid="generale", coinche=1, points=150, tricks=7) == (False, 0, 1324)


def test_unannounced_generale_can_fail_on_defence_melds_and_the_bid_still_counts():
    # T = 162, Dt = 0 + 200 (EW carre_J): failed. The 500 flat is not used on a failure:
    # EW 162 + 80 + 200 = 442
    assert r(bid=80, points=162, solo=True, melds={"EW": ["carre_J"]}) == (False, 0, 442)


def test_melds_can_make_a_contract_without_a_trick():
    # literal "T >= bid and T > Dt": NS carre_J + carre_9 = 350 credited, P = 0:
    # T = 350 >= 80 and 350 > Dt = 162. NS 0 + 80 + 350 = 430; EW D = 162 (no defence capot forfait)
    assert r(bid=80, points=0, tricks=0, melds={"NS": ["carre_J", "carre_9"]}) == (True, 430, 162)
