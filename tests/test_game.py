"""Games: totals, the end of the game per preset, edits, dealer rotation."""
import pytest

from coinche.game import Game, GameError
from coinche.record import RecordError
from coinche.rules import Rules
from vectors import deal

CAPOT_NS = deal(taker="NS", bid="capot", points=162, tricks=8)
CAPOT_EW = deal(taker="EW", bid="capot", points=162, tricks=8)


def game(preset, deals=(), **options):
    return Game(Rules(preset, options or None), deals)


# --- totals -----------------------------------------------------------------------

def test_totals_are_the_sum_of_the_deals():
    g = game("classic2000")
    g.add(deal(bid=100, points=112))              # NS 110 + 100 = 210, EW 50
    g.add(deal(taker="EW", bid=90, points=60))    # failed: NS 160 + 90 = 250, EW 0
    assert g.total == {"NS": 460, "EW": 50}
    assert g.totals_after(0) == {"NS": 210, "EW": 50}
    assert g.totals_after(1) == {"NS": 460, "EW": 50}


def test_all_pass_deal_scores_nothing():
    g = game("federation")
    r = g.add({"bid": "pass"})
    assert r.made is None and g.total == {"NS": 0, "EW": 0} and len(g.deals) == 1


def test_invalid_deal_is_not_added():
    g = game("classic2000", [deal(bid=100, points=112)])
    with pytest.raises(RecordError):
        g.add(deal(points=170))
    assert len(g.deals) == 1 and g.total == {"NS": 210, "EW": 50}


# --- end of the game: classic2000 ---------------------------------------------------

def _classic_1960_1700():
    # NS 3 capots = 1500; EW 150 coinched fails: NS + 160 + 150*2 = 460 -> NS 1960.
    # EW capot 500; NS 110 surcoinched fails twice: EW + (160 + 110*4 = 600) x2 -> EW 1700.
    return [CAPOT_NS, CAPOT_NS, CAPOT_NS, deal(taker="EW", bid=150, coinche=1, points=50),
            CAPOT_EW, deal(bid=110, coinche=2, points=50), deal(bid=110, coinche=2, points=50)]


def test_classic2000_running_totals_below_the_target():
    g = game("classic2000", _classic_1960_1700())
    assert g.total == {"NS": 1960, "EW": 1700} and not g.over


def test_classic2000_tie_goes_to_the_winner_of_that_deal():
    g = game("classic2000", _classic_1960_1700())
    # EW 100 coinched, 112 made: EW 110 + 200 = 310 -> 2010; NS round10(50) = 50 -> 2010
    g.add(deal(taker="EW", bid=100, coinche=1, points=112))
    assert g.total == {"NS": 2010, "EW": 2010}
    assert g.over and g.winner == "EW"


def test_classic2000_higher_total_wins_even_if_it_lost_the_deal():
    g = game("classic2000", _classic_1960_1700())
    # EW 100 coinched, 102 made: EW 100 + 200 = 300 -> 2000; NS round10(60) = 60 -> 2020
    g.add(deal(taker="EW", bid=100, coinche=1, points=102))
    assert g.total == {"NS": 2020, "EW": 2000}
    assert g.over and g.winner == "NS"


def test_game_over_refuses_another_deal():
    g = game("classic2000", _classic_1960_1700())
    g.add(deal(taker="EW", bid=100, coinche=1, points=112))
    with pytest.raises(GameError) as e:
        g.add(deal())
    assert e.value.field == "deal" and "over" in str(e.value)
    with pytest.raises(GameError):
        g.add({"bid": "pass"})


def test_undo_after_the_end_reopens_the_game():
    g = game("classic2000", _classic_1960_1700())
    g.add(deal(taker="EW", bid=100, coinche=1, points=112))
    g.undo()
    assert not g.over and g.winner is None and g.total == {"NS": 1960, "EW": 1700}


# --- coinche1000 ------------------------------------------------------------------------

def test_coinche1000_tie_goes_to_the_winner_of_that_deal():
    deals = [
        deal(taker="EW", bid=80, coinche=1, points=50),   # 50 < 82: NS (160 + 80)*2 = 480
        deal(taker="EW", bid=80, coinche=1, points=50),   # NS 960
        CAPOT_EW,                                         # EW 250 + 250 = 500
        deal(taker="NS", bid=140, points=50),             # 50 < 82: EW 160 + 140 = 300 -> 800
    ]
    g = game("coinche1000", deals)
    assert g.total == {"NS": 960, "EW": 800} and not g.over
    # EW 100 with 112: EW round10(112) = 110 + 100 = 210 -> 1010; NS round10(50) = 50 -> 1010
    g.add(deal(taker="EW", bid=100, points=112))
    assert g.total == {"NS": 1010, "EW": 1010}
    assert g.over and g.winner == "EW"


# --- coinche1001: an exact tie means one more deal ---------------------------------------

def _c1001_822_968():
    return [
        CAPOT_NS,                                         # NS 500
        deal(taker="EW", bid=160, points=100),            # T 100 < 160: NS 162 + 160 = 322 -> 822
        deal(taker="NS", bid=80, coinche=1, points=50),   # T 50 < 80: EW (162 + 80)*2 = 484
        deal(taker="NS", bid=80, coinche=1, points=50),   # EW 968
    ]


def test_coinche1001_exact_tie_plays_one_more_deal():
    g = game("coinche1001", _c1001_822_968())
    assert g.total == {"NS": 822, "EW": 968} and not g.over
    # NS 80 with 114: T 114 >= 80, > 48: NS 114 + 80 = 194 -> 1016; EW 48 -> 1016
    g.add(deal(bid=80, points=114))
    assert g.total == {"NS": 1016, "EW": 1016}
    assert not g.over and g.winner is None
    # EW 80 with 100: EW 180 -> 1196; NS 62 -> 1078
    g.add(deal(taker="EW", bid=80, points=100))
    assert g.over and g.winner == "EW"


def test_coinche1001_one_side_over_1001_wins():
    g = game("coinche1001", _c1001_822_968())
    # EW 80 with 100: EW 180 -> 1148; NS 62 -> 884
    g.add(deal(taker="EW", bid=80, points=100))
    assert g.over and g.winner == "EW"


def test_coinche1001_1000_is_not_enough():
    g = game("coinche1001", _c1001_822_968())
    # EW 80 with... EW needs 1001: 968 + 32 is impossible as taker; as defence:
    # NS 80 with 130: NS 210 -> 1032, EW 32 -> 1000: NS wins, EW's 1000 does not count
    g.add(deal(bid=80, points=130))
    assert g.total == {"NS": 1032, "EW": 1000}
    assert g.over and g.winner == "NS"


# --- federation: not on melds/belote alone; exact tie: one more deal -----------------------

def test_federation_not_over_when_reached_only_thanks_to_the_melds():
    g = game("federation", [CAPOT_NS], target=700)                 # NS 250 + 250 = 500
    # NS 80 with 100 and a quinte: NS 80 + 100 + 100 = 280 -> 780; EW 62.
    # 780 - 100 (melds of this deal) = 680 < 700: play on
    g.add(deal(bid=80, points=100, melds={"NS": ["quinte"]}))
    assert g.total == {"NS": 780, "EW": 62} and not g.over
    # EW 80 with 90: EW 170 -> 232; NS 72 -> 852, 852 - 0 >= 700: NS win
    g.add(deal(taker="EW", bid=80, points=90))
    assert g.over and g.winner == "NS"


def test_federation_not_over_when_reached_only_thanks_to_the_belote():
    g = game("federation", [CAPOT_NS], target=700)
    # NS 80 with 100 + belote: NS 80 + 100 + 20 = 200 -> 700; 700 - 20 = 680 < 700: play on
    g.add(deal(bid=80, points=100, belote={"NS": 1}))
    assert g.total["NS"] == 700 and not g.over


def test_federation_over_without_bonus():
    g = game("federation", [CAPOT_NS], target=700)
    # NS 100 with 110: 210 -> 710
    g.add(deal(bid=100, points=110))
    assert g.over and g.winner == "NS"


def test_federation_exact_tie_plays_one_more_deal():
    deals = [
        CAPOT_NS,                                         # NS 500
        deal(taker="EW", bid=90, points=122),             # 122 >= 90, > 40: EW 212, NS 40 -> 540/212
        deal(bid="capot", points=150, tricks=7),          # failed: EW 160 + 250 = 410 -> 622
    ]
    g = game("federation", deals, target=700)
    assert g.total == {"NS": 540, "EW": 622} and not g.over
    # NS 80 with 82: NS 162 -> 702; EW 80 -> 702
    g.add(deal(bid=80, points=82))
    assert g.total == {"NS": 702, "EW": 702} and not g.over
    # EW 80 with 100: EW 180 -> 882; NS 62 -> 764
    g.add(deal(taker="EW", bid=80, points=100))
    assert g.over and g.winner == "EW"


def test_federation_only_the_qualifying_side_wins():
    # resolution: both over the target, the higher one only thanks to its melds: the other wins
    g = game("federation", [CAPOT_NS, CAPOT_EW], target=700)      # 500/500
    # NS 80 with 120, EW's carre_J (200) is the best meld and EW scores it:
    # NS 80 + 120 = 200 -> 700; EW 42 + 200 = 242 -> 742; EW 742 - 200 = 542 < 700
    g.add(deal(bid=80, points=120, melds={"EW": ["carre_J"]}))
    assert g.total == {"NS": 700, "EW": 742}
    assert g.over and g.winner == "NS"


def test_federation_default_target_3000():
    g = game("federation", [CAPOT_NS, CAPOT_NS, CAPOT_NS, CAPOT_NS, CAPOT_NS])   # 5 x 500 = 2500
    assert not g.over
    g.add(CAPOT_NS)                                                             # 3000
    assert g.over and g.winner == "NS"


# --- editing past deals ----------------------------------------------------------------------

def test_replace_recomputes_the_totals():
    g = game("classic2000", [deal(bid=100, points=112), deal(taker="EW", bid=90, points=60)])
    # deal 0 becomes a failed 100: EW 160 + 100 = 260; deal 1 still NS 250
    g.replace(0, deal(bid=100, points=90))
    assert g.total == {"NS": 250, "EW": 260}
    assert g.deals[0]["points"] == 90


def test_remove_recomputes_the_totals():
    g = game("classic2000", [deal(bid=100, points=112), deal(taker="EW", bid=90, points=60)])
    g.remove(0)
    assert g.total == {"NS": 250, "EW": 0} and len(g.deals) == 1


def test_an_edit_that_would_end_the_game_before_later_deals_is_refused():
    g = game("federation", [deal(bid=80, points=100), deal(taker="EW", bid=80, points=100)])
    before = dict(g.total)   # NS 180 + 62 = 242, EW 62 + 180 = 242
    assert before == {"NS": 242, "EW": 242}
    # a surcoinched made generale: (500 + 500)*4 = 4000 >= 3000 at deal 1, before deal 2
    with pytest.raises(GameError) as e:
        g.replace(0, deal(bid="generale", coinche=2, points=162, solo=True))
    assert e.value.field == "deal"
    assert g.total == before and g.deals[0]["bid"] == 80 and not g.over


def test_the_same_edit_on_the_last_deal_ends_the_game():
    g = game("federation", [deal(bid=80, points=100), deal(taker="EW", bid=80, points=100)])
    g.replace(1, deal(bid="generale", coinche=2, points=162, solo=True))
    # NS 180 + 4000 = 4180
    assert g.total["NS"] == 4180 and g.over and g.winner == "NS"


def test_a_removal_that_leaves_deals_after_the_end_is_refused():
    deals = _c1001_822_968() + [deal(bid=80, points=114)]            # 1016/1016, one more deal
    g = game("coinche1001", deals)
    g.add(deal(taker="EW", bid=80, points=30))                       # T 30 < 80: NS 162 + 80 = 242 -> 1258
    assert g.over and g.winner == "NS"
    # removing deal 2 (EW +484): after deal 4 NS 1016, EW 532: NS over 1001 with deal 5 still to come
    with pytest.raises(GameError):
        g.remove(2)
    assert len(g.deals) == 6


def test_bad_index():
    g = game("classic2000", [deal()])
    for i in (1, -1, "0", True):
        with pytest.raises(GameError):
            g.replace(i, deal())
    with pytest.raises(GameError):
        game("classic2000").undo()


def test_replace_validates_the_record():
    g = game("classic2000", [deal()])
    with pytest.raises(RecordError) as e:
        g.replace(0, deal(trump="NT"))
    assert e.value.field == "trump"


# --- dealer ---------------------------------------------------------------------------------

def test_dealer_rotates_counter_clockwise_n_w_s_e():
    g = game("classic2000")
    assert g.dealer() == "N"
    seen = []
    for _ in range(5):
        g.add({"bid": "pass"})   # the deal passes to the right even when all four passed
        seen.append(g.dealer())
    assert seen == ["W", "S", "E", "N", "W"]
    assert [g.dealer(i) for i in range(4)] == ["N", "W", "S", "E"]


def test_dealer_after_a_mix_of_played_and_passed_deals():
    g = Game(Rules("federation"), [deal(), {"bid": "pass"}, deal()], dealer="S")
    # S dealt deal 0, E deal 1 (passed), N deal 2: W deals next
    assert [g.dealer(i) for i in range(3)] == ["S", "E", "N"]
    assert g.dealer() == "W"


def test_dealer_bad_seat():
    with pytest.raises(GameError) as e:
        Game(Rules("federation"), [], dealer="X")
    assert e.value.field == "dealer"


def test_game_fields():
    g = Game(Rules("federation", {"target": 700}), [deal(bid=100, points=110)], dealer="E")
    assert g.rules.spec() == {"preset": "federation", "options": {"target": 700}}
    assert g.first_dealer == "E" and g.total == {"NS": 210, "EW": 52}
    assert g.over is False and g.winner is None and len(g.deals) == 1


# ------------------------------------------------------------------ dealing order and corrections

def test_dealing_order_and_corrections():
    from coinche.game import CLOCKWISE, SEATS
    rules = Rules("classic2000")
    deal = {"taker": "NS", "bid": 80, "trump": "H", "points": 90}
    g = Game(rules, [deal] * 5)
    assert [g.dealer(i) for i in range(6)] == ["N", "W", "S", "E", "N", "W"]  # anticlockwise by default
    g = Game(rules, [deal] * 5, "E", "cw")
    assert [g.dealer(i) for i in range(6)] == ["E", "S", "W", "N", "E", "S"]
    assert SEATS == ("N", "W", "S", "E") and CLOCKWISE == ("N", "E", "S", "W")
    # a correction: deal 3 (index 2) was dealt by E; the order goes on from there
    g = Game(rules, [deal] * 5, "N", "acw", [[2, "E"]])
    assert [g.dealer(i) for i in range(6)] == ["N", "W", "E", "N", "W", "S"]
    assert g.with_fix("S") == [[2, "E"], [5, "S"]]
    g.fixes = g.with_fix("S")
    assert g.dealer() == "S" and g.with_fix("W") == [[2, "E"], [5, "W"]]  # the same deal: replaced
    # an undo below a correction: that deal is not reached yet, the order decides
    h = Game(rules, [deal] * 1, "N", "acw", g.fixes)
    assert h.dealer() == "W"
    assert h.same_table().fixes == g.fixes and h.same_table().order == "acw"
    for bad in ([[0, "X"]], [["1", "N"]], [[-1, "N"]], [[1]]):
        with pytest.raises(GameError):
            Game(rules, (), "N", "acw", bad)
    with pytest.raises(GameError):
        Game(rules, (), "N", "sideways")
