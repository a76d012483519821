"""Which side's melds score (RULES.md, "Melds"): compare the best single meld by
points, then carre over sequence, then longer sequence, then higher top card;
still equal: nobody. Checked through melds.winner and through whole deals."""
from coinche import melds
from vectors import deal, result


def w(ns, ew, trump="H", carre_nt="same"):
    return melds.winner({"NS": ns, "EW": ew}, trump, carre_nt)


def test_more_points_wins():
    # quarte 50 > tierce 20
    assert w(["tierce"], ["quarte"]) == "EW"


def test_best_single_meld_not_the_sum():
    # NS three tierces (60 in all, best 20) vs EW one quarte (50): EW
    assert w(["tierce", "tierce", "tierce"], ["quarte"]) == "EW"


def test_carre_beats_a_sequence_of_equal_points():
    # quinte 100 vs carre of queens 100: the carre
    assert w(["quinte"], ["carre_Q"]) == "EW"


def test_carre_of_nines_150_beats_quinte_100():
    assert w(["carre_9"], ["quinte"]) == "NS"


def test_equal_sequences_score_nobody():
    # the record holds no top cards: two quintes cannot be told apart
    assert w(["quinte"], ["quinte", "tierce"]) is None


def test_carres_of_equal_value_by_card_order_ace_high():
    # both 100: A above 10 in 7 8 9 10 J Q K A
    assert w(["carre_10"], ["carre_A"]) == "EW"


def test_carres_of_equal_value_king_above_ten():
    # resolution: sequence order 7 8 9 10 J Q K A, so K > Q > 10
    assert w(["carre_K"], ["carre_10"]) == "NS"
    assert w(["carre_Q"], ["carre_10"]) == "NS"


def test_nt_carres_in_coinche1000_k_above_q_above_j():
    # at NT (carre_nt = nt) K, Q, J are all 100: K highest
    assert w(["carre_J"], ["carre_Q"], trump="NT", carre_nt="nt") == "EW"
    assert w(["carre_K"], ["carre_Q"], trump="NT", carre_nt="nt") == "NS"


def test_nines_at_nt_in_coinche1000_are_no_meld():
    assert w(["carre_9"], [], trump="NT", carre_nt="nt") is None


def test_no_melds_nobody():
    assert w([], []) is None


def test_melds_to_null_credits_nobody_even_when_codes_decide():
    # coinche1001, NS quarte would win; the table says nobody.
    # T = 90 >= 80, > 72: NS 90 + 80 = 170; EW 72
    assert result("coinche1001", deal(bid=80, points=90, melds={"NS": ["quarte"]}, melds_to=None)) == (True, 170, 72)


def test_melds_to_overrides_the_codes():
    # coinche1001, the table gives the melds to EW (their tierce): T = 90, Dt = 72 + 20 = 92 > 90: failed.
    # EW 162 + 80 + 20 = 262
    assert result("coinche1001", deal(bid=80, points=90, melds={"NS": ["quarte"], "EW": ["tierce"]},
                                      melds_to="EW")) == (False, 0, 262)


def test_melds_to_in_federation_gives_all_melds():
    # federation, melds_to EW: EW scores both sides' melds 50 + 20 = 70.
    # 90 >= 80, 90 > 72: NS 80 + 90 = 170; EW 72 + 70 = 142
    assert result("federation", deal(bid=80, points=90, melds={"NS": ["quarte"], "EW": ["tierce"]},
                                     melds_to="EW")) == (True, 170, 142)


def test_own_melds_several_credited():
    # coinche1000: NS quinte + tierce (best 100) vs EW quarte: NS credited 120.
    # 100 >= 82: NS 100 + 120 + 100 = 320; EW round10(62) = 60
    assert result("coinche1000", deal(bid=100, points=100, melds={"NS": ["quinte", "tierce"],
                                                                  "EW": ["quarte"]})) == (True, 320, 60)
