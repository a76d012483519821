"""coinche.stats: the per-team figures of the statistics screen and the export."""
from coinche import stats as ST
from coinche.game import Game
from coinche.rules import Rules


def _tally(preset, records, options=None):
    t = ST.Tally()
    t.add_game(Game(Rules(preset, options), records))
    return t


def test_contracts_coinches_capots_belotes():
    recs = [
        {"taker": "NS", "bid": 80, "trump": "H", "points": 100},  # made
        {"taker": "NS", "bid": 100, "trump": "H", "points": 60, "coinche": 1},  # failed: EW's coinche won
        {"taker": "EW", "bid": 90, "trump": "S", "points": 120, "coinche": 2, "belote": {"EW": 1}},  # EW surcoinche won
        {"taker": "EW", "bid": 80, "trump": "S", "points": 162, "tricks": 8},  # made, capot for EW
        {"bid": "pass"},
        {"taker": "NS", "bid": 80, "trump": "C", "points": 0, "tricks": 0, "belote": {"EW": 1}},  # EW capot
    ]
    t = _tally("federation", recs)
    ns, ew = t.as_dict("NS"), t.as_dict("EW")
    assert (ns["taken"], ns["made"], ns["made_percent"]) == (3, 1, 33)
    assert (ew["taken"], ew["made"], ew["made_percent"]) == (2, 2, 100)
    assert (ew["coinched"], ew["coinche_won"]) == (1, 1)
    assert (ns["coinched"], ns["coinche_won"]) == (1, 0)  # NS coinched EW's 90, EW surcoinched and made it
    assert (ew["surcoinched"], ew["surcoinche_won"]) == (1, 1)
    assert (ns["capots"], ew["capots"]) == (0, 2)
    assert (ns["belotes"], ew["belotes"]) == (0, 2)  # declared by either side (federation)
    assert ns["deals"] == ew["deals"] == 6
    g = Game(Rules("federation"), recs)
    assert ns["points"] == g.total["NS"] and ew["points"] == g.total["EW"]
    assert ns["average"] == (2 * g.total["NS"] + 6) // 12
    assert ns["games"] == 0 and ns["won"] == 0  # not over


def test_games_won_and_empty():
    t = ST.Tally()
    assert t.as_dict("NS")["average"] is None and t.as_dict("NS")["made_percent"] is None
    recs = [{"taker": "NS", "bid": "capot", "trump": "H", "points": 162, "tricks": 8}] * 4
    t.add_game(Game(Rules("classic2000"), recs))
    assert t.as_dict("NS")["won"] == 1 and t.as_dict("EW")["won"] == 0
    assert t.as_dict("NS")["games"] == t.as_dict("EW")["games"] == 1
    assert t.as_dict("NS")["capots"] == 4
    t.clear()
    assert t.counts == {"NS": [0] * ST.FIELDS, "EW": [0] * ST.FIELDS}


def test_percent_rounds_half_up():
    assert ST.percent(1, 8) == 13 and ST.percent(1, 3) == 33 and ST.percent(2, 3) == 67 and ST.percent(0, 0) is None
