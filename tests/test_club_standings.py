"""Standings (host_tools.club.standings): both ranking rules, their tie-breaks, shared
ranks, byes."""
from host_tools.club.standings import ranked, records

TEAMS = [{"number": n, "name": "T%d" % n} for n in range(1, 7)]


def event(ranking="total", match_points=(2, 1, 0), bye_score=0, bye_match_points=2):
    return {"ranking": ranking, "match_points": list(match_points), "bye_score": bye_score,
            "bye_match_points": bye_match_points}


def one_round(*tables, bye=()):
    return [{"round": 1, "tables": [{"table": i + 1, "NS": ns, "EW": ew} for i, (ns, ew, _, _) in enumerate(tables)],
             "bye": list(bye)}], {(1, i + 1): {"NS": x, "EW": y} for i, (_, _, x, y) in enumerate(tables)}


def standing(ev, rounds, results, teams=TEAMS):
    return ranked(ev["ranking"], records(ev, teams, rounds, results))


def test_total_ranks_on_points_for_first():
    rounds, results = one_round((1, 2, 900, 1000), (3, 4, 1200, 400), (5, 6, 800, 810))
    rows = standing(event(), rounds, results)
    assert [r["team"] for r in rows] == [3, 2, 1, 6, 5, 4]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6]


def test_total_then_wins_then_difference():
    # 1 and 4 both 1000 for: 1 won (1000-900), 4 lost (1000-1100) -> 1 first
    rounds, results = one_round((1, 2, 1000, 900), (3, 4, 1100, 1000))
    rows = standing(event(), rounds, results, TEAMS[:4])
    assert [r["team"] for r in rows] == [3, 1, 4, 2]
    # equal points and wins: the difference decides (2: 1000-500, 3: 1000-900)
    rounds, results = one_round((1, 2, 500, 1000), (3, 4, 1000, 900))
    rows = standing(event(), rounds, results, TEAMS[:4])
    assert [r["team"] for r in rows[:2]] == [2, 3]


def test_teams_equal_on_everything_share_a_rank():
    rounds, results = one_round((1, 2, 1000, 800), (3, 4, 1000, 800), (5, 6, 300, 200))
    rows = standing(event(), rounds, results)
    assert [(r["team"], r["rank"]) for r in rows] == [(1, 1), (3, 1), (2, 3), (4, 3), (5, 5), (6, 6)]


def test_matches_ranks_on_match_points_then_difference_then_points_for():
    rounds, results = one_round((1, 2, 1000, 990), (3, 4, 2000, 500), (5, 6, 700, 700))
    rows = standing(event("matches"), rounds, results)
    # wins: 3 (+1500), 1 (+10); draws: 5, 6 (1 point, +0, 700 for); losses: 2 (-10), 4 (-1500)
    assert [r["team"] for r in rows] == [3, 1, 5, 6, 2, 4]
    assert [r["rank"] for r in rows] == [1, 2, 3, 3, 5, 6]
    assert [r["match_points"] for r in rows] == [2, 2, 1, 1, 0, 0]


def test_matches_with_the_clubs_own_points():
    rounds, results = one_round((1, 2, 1000, 990), (3, 4, 700, 700))
    rows = standing(event("matches", (4, 3, 2)), rounds, results, TEAMS[:4])
    assert {r["team"]: r["match_points"] for r in rows} == {1: 4, 2: 2, 3: 3, 4: 3}


def test_matches_difference_before_points_for():
    rounds, results = one_round((1, 2, 2000, 1900), (3, 4, 600, 100))
    rows = standing(event("matches"), rounds, results, TEAMS[:4])
    assert [r["team"] for r in rows[:2]] == [3, 1]  # +500 before +100, though 600 < 2000 for


def test_a_bye_scores_as_the_event_says():
    rounds, results = one_round((1, 2, 1000, 900), (3, 4, 800, 700), bye=[5])
    rows = {r["team"]: r for r in standing(event(bye_score=1000, bye_match_points=3), rounds, results, TEAMS[:5])}
    assert (rows[5]["points_for"], rows[5]["won"], rows[5]["played"], rows[5]["match_points"]) == (1000, 1, 1, 3)
    # 1000 for and a win each: the bye's +1000 beats team 1's +100
    assert rows[5]["rank"] == 1 and rows[1]["rank"] == 2
    assert standing(event(bye_score=0), rounds, results, TEAMS[:5])[-1]["team"] == 5


def test_a_table_without_its_result_counts_for_nobody():
    rounds, _ = one_round((1, 2, 0, 0))
    rows = standing(event(), rounds, {}, TEAMS[:2])
    assert all(r["played"] == 0 for r in rows) and [r["rank"] for r in rows] == [1, 1]
