"""The draw (host_tools.club.pairing): each team once per round, no rematch while one
can be avoided (checked against every possible pairing), byes fair, tables in ranking
order."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools.club.pairing import draw_round, first_round, next_round, present
from host_tools.club.standings import forfeits, late_byes, ranked, records


def all_pairings(teams):
    """Every way to pair the teams (a list of an even length)."""
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for index, other in enumerate(rest):
        for tail in all_pairings(rest[:index] + rest[index + 1:]):
            yield [(first, other)] + tail


def fewest_rematches(teams, met):
    return min(sum(1 for a, b in p if met(a, b)) for p in all_pairings(list(teams)))


def test_first_round_is_the_seeds():
    pairs, bye = first_round(range(1, 8), 42)
    assert (pairs, bye) == first_round(range(1, 8), 42)
    assert sorted([t for p in pairs for t in p] + bye) == list(range(1, 8)) and len(bye) == 1
    assert first_round(range(1, 17), 1) != first_round(range(1, 17), 2)


def test_backtracking_finds_what_a_greedy_pass_misses():
    # greedy: 1-2, then 3-4 have met; a search: 1-3, 2-4 without a rematch
    met = {frozenset((3, 4))}
    pairs, bye, rematches = next_round([1, 2, 3, 4], lambda a, b: frozenset((a, b)) in met, {})
    assert (pairs, bye, rematches) == ([(1, 3), (2, 4)], [], 0)


def test_a_rematch_only_when_every_pairing_has_one():
    met = {frozenset(p) for p in [(1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3)]}  # all have met
    pairs, _, rematches = next_round([1, 2, 3, 4], lambda a, b: frozenset((a, b)) in met, {})
    assert rematches == 2 and pairs == [(1, 2), (3, 4)]


def test_bye_to_the_lowest_ranked_without_one():
    pairs, bye, _ = next_round([5, 4, 3, 2, 1], lambda a, b: False, {1: 1, 2: 1})
    assert bye == [3] and pairs == [(5, 4), (2, 1)]


def test_second_bye_only_once_everyone_had_one():
    _, bye, _ = next_round([3, 1, 2], lambda a, b: False, {1: 1, 2: 1, 3: 1})
    assert bye == [2]


@st.composite
def concours(draw):
    teams = draw(st.integers(2, 11))
    rounds = draw(st.integers(1, min(6, teams + 1)))
    seed = draw(st.integers(0, 10 ** 6))
    return teams, rounds, seed


@settings(max_examples=60, deadline=None)
@given(concours())
def test_every_round_of_a_random_concours(params):
    """Rounds after a random first one, each with a random ranking; every round is
    checked against every possible pairing of its teams."""
    count, rounds, seed = params
    rnd = random.Random(seed)
    teams = list(range(1, count + 1))
    met = {}
    byes = {}

    def has_met(a, b):
        return met.get(frozenset((a, b)), 0) > 0

    for number in range(1, rounds + 1):
        if number == 1:
            pairs, bye = first_round(teams, seed)
            ranking = None
        else:
            ranking = teams[:]
            rnd.shuffle(ranking)
            pairs, bye, rematches = next_round(ranking, has_met, byes)
            # each team once
        seated = [t for p in pairs for t in p] + bye
        assert sorted(seated) == teams
        assert len(bye) == count % 2
        if ranking is not None:
            position = {t: i for i, t in enumerate(ranking)}
            # tables numbered from the top, the better-placed team at NS
            assert all(position[a] < position[b] for a, b in pairs)
            assert [position[a] for a, _ in pairs] == sorted(position[a] for a, _ in pairs)
            # the fewest rematches any choice of bye and pairing allows
            fewest_byes = min(byes.get(t, 0) for t in teams)
            eligible = [t for t in teams if byes.get(t, 0) == fewest_byes] if bye else [None]
            best = min(fewest_rematches([t for t in teams if t != b], has_met) for b in eligible)
            assert rematches == best
            if bye:
                assert byes.get(bye[0], 0) == fewest_byes  # nobody gets a second bye before all had one
                lower = [t for t in eligible if position[t] > position[bye[0]]]
                for t in lower:  # a lower-ranked candidate was passed over only to avoid a rematch
                    assert fewest_rematches([x for x in teams if x != t], has_met) > rematches
        for a, b in pairs:
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        for t in bye:
            byes[t] = byes.get(t, 0) + 1
    assert max(byes.values(), default=0) - min(byes.get(t, 0) for t in teams) <= 1


def test_64_teams_and_9_rounds_without_a_rematch():
    rnd = random.Random(3)
    teams = list(range(1, 65))
    met = set()

    def has_met(a, b):
        return frozenset((a, b)) in met

    pairs, _ = first_round(teams, 3)
    met |= {frozenset(p) for p in pairs}
    for _ in range(8):
        ranking = teams[:]
        rnd.shuffle(ranking)
        pairs, bye, rematches = next_round(ranking, has_met, {})
        assert rematches == 0 and not bye and len(pairs) == 32
        met |= {frozenset(p) for p in pairs}


# -- evenings where teams come and go ------------------------------------------------------

def check_round(number, teams, before, ranking, late, pairs, bye, rematches):
    """The draw's properties for round `number`: each present team once, never a
    withdrawn or absent team, the fewest rematches any fair bye allows, the bye to
    a present team with the fewest byes (a late team's counted ones included)."""
    playing = present(teams, number)
    seated = [t for p in pairs for t in p] + bye
    assert sorted(seated) == sorted(playing)
    assert len(bye) == len(playing) % 2
    gone = {t["number"] for t in teams if t["withdrawn"] is not None}
    assert not set(seated) & gone
    if number == 1:
        return
    met = {frozenset((t["NS"], t["EW"])) for r in before for t in r["tables"]}

    def has_met(a, b):
        return frozenset((a, b)) in met

    byes = dict(late)
    for r in before:
        for t in r["bye"]:
            byes[t] = byes.get(t, 0) + 1
    fewest = min(byes.get(t, 0) for t in playing)
    eligible = [t for t in playing if byes.get(t, 0) == fewest] if bye else [None]
    if bye:
        assert bye[0] in eligible
    assert rematches == sum(1 for a, b in pairs if has_met(a, b))
    assert rematches == min(fewest_rematches([t for t in playing if t != b], has_met) for b in eligible)
    position = {t: i for i, t in enumerate(ranking)}
    assert all(position[a] < position[b] for a, b in pairs)


@st.composite
def evenings(draw):
    """A start (teams, rounds, seed, late_as_bye) and a list of steps between draws."""
    start = (draw(st.integers(2, 9)), draw(st.integers(1, 6)), draw(st.integers(0, 10 ** 6)), draw(st.booleans()))
    steps = draw(st.lists(st.sampled_from(["draw", "draw", "draw", "withdraw", "withdraw after draw", "late",
                                           "undo"]), min_size=1, max_size=14))
    return start, steps, draw(st.integers(0, 10 ** 6))


@settings(max_examples=120, deadline=None)
@given(evenings())
def test_random_evenings_with_withdrawals_late_teams_and_undone_draws(evening):
    """Random evenings played the service's way (pure): teams withdraw between rounds
    or after a draw (a forfeit), late teams join from the next round drawn, draws are
    undone; every round drawn keeps the draw's properties."""
    (count, total_rounds, seed, late_as_bye), steps, chance = evening
    rnd = random.Random(chance)
    event = {"ranking": "matches", "match_points": [2, 1, 0], "bye_score": 0, "bye_match_points": 2,
             "late_as_bye": late_as_bye}
    teams = [{"number": n, "name": "T%d" % n, "joined": 1, "withdrawn": None} for n in range(1, count + 1)]
    rounds, results = [], {}

    def play_last():
        for t in rounds[-1]["tables"]:
            key = (rounds[-1]["round"], t["table"])
            if key not in results and key not in forfeits(teams, rounds, results):
                results[key] = {"NS": rnd.randrange(0, 2000, 10), "EW": rnd.randrange(0, 2000, 10)}

    for step in steps:
        playing_next = present(teams, len(rounds) + 1)
        if step in ("draw", "withdraw after draw"):
            if len(rounds) == total_rounds or len(playing_next) < 2:
                continue
            if rounds:
                play_last()
            number = len(rounds) + 1
            order = [row["team"] for row in ranked("matches", records(event, teams, rounds, results))]
            late = late_byes(event, teams, len(rounds))
            pairs, bye, rematches = draw_round(number, teams, rounds, order, seed, late)
            check_round(number, teams, rounds, order, late, pairs, bye, rematches)
            rounds.append({"round": number, "tables": [{"table": i + 1, "NS": a, "EW": b}
                                                       for i, (a, b) in enumerate(pairs)], "bye": bye})
            if step == "withdraw after draw" and pairs:
                gone = rnd.choice(pairs)[rnd.randrange(2)]
                next(t for t in teams if t["number"] == gone)["withdrawn"] = len(rounds)
                forfeit = forfeits(teams, rounds, results)
                table = next(t for t in rounds[-1]["tables"] if gone in (t["NS"], t["EW"]))
                other = table["EW"] if table["NS"] == gone else table["NS"]
                assert forfeit[(number, table["table"])] == other
                rows = records(event, teams, rounds, results)
                assert rows[gone]["played"] == sum(1 for r in rounds[:-1] for t in r["tables"]
                                                   if gone in (t["NS"], t["EW"])) + \
                    sum(1 for r in rounds for b in r["bye"] if b == gone) + late.get(gone, 0)
        elif step == "withdraw" and playing_next:
            if rounds:
                play_last()
            gone = rnd.choice(playing_next)
            next(t for t in teams if t["number"] == gone)["withdrawn"] = len(rounds)
        elif step == "late" and len(rounds) < total_rounds and len(playing_next) < 11:  # checked by brute force
            teams.append({"number": len(teams) + 1, "name": "L", "joined": len(rounds) + 1, "withdrawn": None})
        elif step == "undo" and rounds and not any((rounds[-1]["round"], t["table"]) in results
                                                  for t in rounds[-1]["tables"]):
            removed = rounds.pop()
            for t in teams:
                t["joined"] = min(t["joined"], removed["round"])
    # a withdrawn team is listed after every team still playing
    order = ranked("matches", records(event, teams, rounds, results))
    flags = [row["withdrawn"] for row in order]
    assert flags == sorted(flags)
