"""The draw of a round: who plays whom, at which table, and who has the bye.

Round 1 is random from the event's seed. Each later round pairs the teams in ranking
order without a rematch while one can be avoided: the best-placed team still free
meets the best-placed team it has not met yet, and when that leaves the others with
no way to finish without a rematch, the search goes back and tries the next one
(backtracking, with the dead ends remembered), so "avoidable" is decided by trying
every pairing, not by a greedy pass that can paint itself into a corner. Only when
no pairing avoids rematches does the search allow one, then two, and so on: a round
always has the fewest rematches possible. Tables are numbered from the top of the
ranking; the better-placed team of a table sits NS.

With an odd number of teams one team has the bye: the lowest-ranked of those with
the fewest byes so far (a team gets a second bye only once every team has had one);
a candidate higher up is taken only when that lets the round have fewer rematches.

Teams come and go during an evening (draw_round): a withdrawn team is never drawn
again, so it never gets a bye; a team added after a draw is drawn from the round it
joined. A late team's missed rounds that the event counts as byes count as byes here
too, so it is not given a second one before the others had theirs.
"""
import random


def first_round(teams, seed):
    """(pairs [(ns, ew)], bye [team] or []) of a random first round."""
    order = sorted(teams)
    random.Random(seed).shuffle(order)
    bye = [order.pop()] if len(order) % 2 else []
    return [(order[i], order[i + 1]) for i in range(0, len(order), 2)], bye


def _pairings(order, met, budget):
    """The pairs of `order` (teams, best first) in ranking order with at most `budget`
    rematches, or None. met(a, b): they have played each other."""
    count = len(order)
    dead = set()  # (remaining teams as a bit mask, budget left) known to have no pairing

    def search(mask, left):
        if mask == 0:
            return []
        if (mask, left) in dead:
            return None
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        for other in range(first + 1, count):
            if not rest >> other & 1:
                continue
            cost = 1 if met(order[first], order[other]) else 0
            if cost > left:
                continue
            tail = search(rest & ~(1 << other), left - cost)
            if tail is not None:
                return [(order[first], order[other])] + tail
        dead.add((mask, left))
        return None

    return search((1 << count) - 1, budget)


def next_round(ranking, met, byes):
    """(pairs [(ns, ew)] in table order, bye [team] or [], rematches) for a round after
    the first. ranking: the teams, best first; met(a, b): a and b have played each
    other; byes: {team: byes had so far}."""
    teams = list(ranking)
    candidates = [None]
    if len(teams) % 2:
        fewest = min(byes.get(t, 0) for t in teams)
        candidates = [t for t in reversed(teams) if byes.get(t, 0) == fewest]
    for budget in range(len(teams) // 2 + 1):
        for bye in candidates:
            order = [t for t in teams if t != bye]
            pairs = _pairings(order, met, budget)
            if pairs is not None:
                rematches = sum(1 for a, b in pairs if met(a, b))
                return pairs, ([] if bye is None else [bye]), rematches
    raise AssertionError("unreachable: any pairing fits a budget of every table")


def present(teams, number):
    """The numbers of the teams drawn in round `number`: joined by then and not
    withdrawn. teams: [{"number", "joined", "withdrawn"}]."""
    return [t["number"] for t in teams if t.get("joined", 1) <= number and t.get("withdrawn") is None]


def draw_round(number, teams, rounds, ranking, seed, late_byes=None):
    """(pairs, bye, rematches) of round `number`, after `rounds` (the rounds drawn
    before it, [{"tables": [{"NS", "EW"}], "bye": [team]}]). ranking: every team,
    best first (the teams not present are left out here); late_byes: {team: missed
    rounds counted as byes}."""
    playing = present(teams, number)
    if number == 1:
        pairs, bye = first_round(playing, seed)
        return pairs, bye, 0
    here = set(playing)
    order = [t for t in ranking if t in here]
    met = set()
    byes = dict(late_byes or {})
    for r in rounds:
        for t in r["tables"]:
            met.add(frozenset((t["NS"], t["EW"])))
        for team in r["bye"]:
            byes[team] = byes.get(team, 0) + 1
    return next_round(order, lambda a, b: frozenset((a, b)) in met, byes)
