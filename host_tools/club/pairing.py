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
joined. A late team's missed rounds that the event counts as byes, and a forfeit's
credit (the opponent of a team that left after the draw), count as byes here too, so
no team is given a second one before the others had theirs.
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
    rematches, or None. met(a, b): they have played each other (or how much pairing
    them costs, a whole number: the individual draw weighs its tables so)."""
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
            cost = int(met(order[first], order[other]))  # True counts 1; a weight counts itself
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
    best first (the teams not present are left out here); late_byes: {team: byes had
    outside the draw (missed rounds counted as byes, forfeits' credits)}."""
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


# -- individual events -----------------------------------------------------------
# Players come alone; each round draws partnerships and tables. No one partners the
# same player twice while that can be avoided: the partnerships are paired as teams
# are above (_pairings, exact: it tries every pairing before allowing a repeat), here
# in a random order drawn from the event's seed and the round, since partners are
# not chosen by rank. Opponents repeat as little as possible: the partnerships are
# then paired into tables at the least cost, a table costing how many times each
# player met each of its two opponents before; up to 8 players every partnership
# pairing is tried, above that up to TRIES random ones, stopping at the first with
# no opponent repeated, else keeping the cheapest (16 players play 4 rounds without
# meeting an opponent twice; a draw takes under 2 s of CPU up to round 9 of 24
# players, a tenth of that for 196). The players left over when those
# present are not a multiple of four sit out: those with the fewest sit-outs so far,
# the lowest-ranked first (a random order in round 1); a sit-out scores as the
# event's bye.

EXHAUSTIVE = 8  # players: up to this many, every partnership pairing is tried
TRIES = 200  # random partnership pairings tried above that, until one has no opponent repeated


def _matchings(players):
    """Every way to split players (an even number) into pairs."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        for tail in _matchings(rest[:index] + rest[index + 1:]):
            yield [(first, other)] + tail


def individual_history(rounds, late_sit_outs=None):
    """(partnered {frozenset pair}, opposed {frozenset pair: times}, sit-outs {player:
    count}) of the rounds drawn; late_sit_outs: missed rounds counted as sit-outs."""
    partnered, opposed, sat = set(), {}, dict(late_sit_outs or {})
    for r in rounds:
        for t in r["tables"]:
            for side in (t["NS"], t["EW"]):
                partnered.add(frozenset(side))
            for a in t["NS"]:
                for b in t["EW"]:
                    key = frozenset((a, b))
                    opposed[key] = opposed.get(key, 0) + 1
        for p in r["bye"]:
            sat[p] = sat.get(p, 0) + 1
    return partnered, opposed, sat


def sit_outs(playing, ranking, sat, count):
    """The `count` players who sit out: the fewest sit-outs so far, the lowest-ranked
    first. ranking: every player, best first."""
    place = {p: index for index, p in enumerate(ranking)}
    order = sorted(playing, key=lambda p: (sat.get(p, 0), -place.get(p, len(place))))
    return sorted(order[:count])


def draw_individual(number, players, rounds, ranking, seed, late_sit_outs=None):
    """(tables [(NS pair, EW pair)] in table order, sit-out [player], partner repeats,
    opponent repeats) of round `number`. players: [{"number", "joined", "withdrawn"}];
    rounds: the rounds drawn before, tables {"NS": [p, q], "EW": [p, q]} and "bye"
    their sit-outs; ranking: every player, best first."""
    playing = present(players, number)
    rnd = random.Random(seed * 1000 + number)
    if number == 1:
        ranking = sorted(playing)
        rnd.shuffle(ranking)
    partnered, opposed, sat = individual_history(rounds, late_sit_outs)
    out = sit_outs(playing, ranking, sat, len(playing) % 4)
    seated = sorted(p for p in playing if p not in out)

    def partners_met(a, b):
        return frozenset((a, b)) in partnered

    def table_cost(one, two):
        return sum(opposed.get(frozenset((a, b)), 0) for a in one for b in two)

    if len(seated) <= EXHAUSTIVE:
        candidates = list(_matchings(seated))
        fewest = min((sum(1 for a, b in m if partners_met(a, b)) for m in candidates), default=0)
        candidates = [m for m in candidates if sum(1 for a, b in m if partners_met(a, b)) == fewest]
    else:
        candidates, fewest = [], None
        for _ in range(TRIES):
            order = list(seated)
            rnd.shuffle(order)
            for budget in range(len(order) // 2 + 1) if fewest is None else (fewest,):
                found = _pairings(order, partners_met, budget)
                if found is not None:
                    fewest = budget
                    candidates.append(found)
                    break
    best = None
    for matching in candidates:
        sides = [tuple(sorted(pair)) for pair in matching]
        most = sum(table_cost(one, two) for index, one in enumerate(sides) for two in sides[index + 1:])
        for budget in range(most + 1):  # the cost of every table at once: any pairing fits it
            tables = _pairings(sides, table_cost, budget)
            if tables is not None:
                cost = sum(table_cost(a, b) for a, b in tables)
                if best is None or cost < best[1]:
                    best = (tables, cost)
                break
        if best is not None and best[1] == 0:
            break
    tables = list(best[0]) if best else []
    rnd.shuffle(tables)
    return [(list(a), list(b)) for a, b in tables], out, fewest or 0, best[1] if best else 0
