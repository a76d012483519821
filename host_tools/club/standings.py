"""The standings: every team's record from the results stored so far, ranked by the
event's rule.

    total    points for, then wins, then points for minus points against
    matches  match points (win / draw / loss, 2/1/0 unless the event says otherwise),
             then points for minus against, then points for

Teams still equal on every criterion share a rank (1, 2, 2, 4); the list shows them
by team number. A bye counts as a round won by the event's bye score to 0 and earns
the event's bye match points (a win's unless set). A table without a result yet
counts for nobody.

Teams come and go: a table where a withdrawn team has no result is a forfeit, its
opponent credited as for a bye and the withdrawn team given nothing; a late team's
missed rounds count nothing, or a bye each when the event says so (late_as_bye).

Individual events rank players the same way: each player is credited with their
pair's result in each round (their pair's total as points for, the other pair's as
points against); a sit-out counts as a bye. A table where a withdrawn player has
no result is a forfeit: the three others are credited as for a bye. Rows then say
"player" where a pairs event's say "team".

Withdrawn teams keep what they played and are listed after the teams still
playing, ranked among themselves by the same rule. Standings "after round R" count
rounds 1..R only.
"""

RANKINGS = ("total", "matches")


def seated(side):
    """The entrants on one side of a table: [team], or the two players of an individual event."""
    return list(side) if isinstance(side, list) else [side]


def entrant_key(event):
    """What a row names: "team", or "player" in an individual event."""
    return "player" if event.get("format") == "individual" else "team"


def _blank(team, key="team"):
    return {key: team["number"], "name": team["name"], "played": 0, "won": 0, "drawn": 0, "lost": 0,
            "points_for": 0, "points_against": 0, "match_points": 0, "byes": 0,
            "withdrawn": team.get("withdrawn") is not None}


def forfeited(teams, rounds, results):
    """{(round, table): [the entrants credited]} of the tables where a team (or a
    player) that withdrew during that round has no result: everyone else at the table
    is credited. A team's "withdrawn" is the number of rounds drawn when it left: a
    team that leaves later keeps the forfeit it was credited with."""
    left = {t["number"]: t["withdrawn"] for t in teams if t.get("withdrawn") is not None}
    out = {}
    for r in rounds:
        for t in r["tables"]:
            if (r["round"], t["table"]) in results:
                continue
            everyone = seated(t["NS"]) + seated(t["EW"])
            absent = [x for x in everyone if x in left and left[x] <= r["round"]]
            if absent:
                out[(r["round"], t["table"])] = [x for x in everyone if x not in absent]
    return out


def forfeits(teams, rounds, results):
    """{(round, table): the team credited (None when both teams withdrew)}: forfeited()
    as a pairs event reads it."""
    return {key: (credited[0] if credited else None) for key, credited in forfeited(teams, rounds, results).items()}


def late_byes(event, teams, rounds_drawn):
    """{team: missed rounds counted as byes} (none unless the event says late_as_bye)."""
    if not event.get("late_as_bye"):
        return {}
    return {t["number"]: min(t.get("joined", 1), rounds_drawn + 1) - 1 for t in teams if t.get("joined", 1) > 1}


def _sort_key(ranking, row):
    difference = row["points_for"] - row["points_against"]
    if ranking == "total":
        return (-row["points_for"], -row["won"], -difference)
    return (-row["match_points"], -difference, -row["points_for"])


def records(event, teams, rounds, results, after=None):
    """{team: row} of every team from the drawn rounds and the stored results, of
    rounds 1..after only when after is given."""
    if after is not None:
        rounds = [r for r in rounds if r["round"] <= after]
    win, draw, loss = event["match_points"]
    key = entrant_key(event)
    rows = {t["number"]: _blank(t, key) for t in teams}

    def bye(team):
        row = rows[team]
        row["played"] += 1
        row["won"] += 1
        row["byes"] += 1
        row["points_for"] += event["bye_score"]
        row["match_points"] += event["bye_match_points"]

    def count(team, own, other):
        row = rows[team]
        row["played"] += 1
        row["points_for"] += own
        row["points_against"] += other
        if own > other:
            row["won"] += 1
            row["match_points"] += win
        elif own == other:
            row["drawn"] += 1
            row["match_points"] += draw
        else:
            row["lost"] += 1
            row["match_points"] += loss

    forfeit = forfeited(teams, rounds, results)
    for r in rounds:
        for t in r["tables"]:
            res = results.get((r["round"], t["table"]))
            if res is not None:
                for team in seated(t["NS"]):
                    count(team, res["NS"], res["EW"])
                for team in seated(t["EW"]):
                    count(team, res["EW"], res["NS"])
            for team in forfeit.get((r["round"], t["table"]), ()):
                bye(team)
        for team in r["bye"]:
            bye(team)
    for team, missed in late_byes(event, teams, len(rounds)).items():
        for _ in range(missed):
            bye(team)
    return rows


def ranked(ranking, rows):
    """The rows best first, each with its shared "rank"; withdrawn teams after the
    teams still playing."""
    order = sorted(rows.values(), key=lambda row: (row.get("withdrawn", False), _sort_key(ranking, row),
                                                   row.get("team", row.get("player"))))
    out = []
    for index, row in enumerate(order):
        before = order[index - 1] if index else None
        if before is not None and before.get("withdrawn", False) == row.get("withdrawn", False) \
                and _sort_key(ranking, row) == _sort_key(ranking, before):
            rank = out[-1]["rank"]
        else:
            rank = index + 1
        out.append(dict(row, rank=rank))
    return out
