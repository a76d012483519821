"""The standings: every team's record from the results stored so far, ranked by the
event's rule.

    total    points for, then wins, then points for minus points against
    matches  match points (win / draw / loss, 2/1/0 unless the event says otherwise),
             then points for minus against, then points for

Teams still equal on every criterion share a rank (1, 2, 2, 4); the list shows them
by team number. A bye counts as a round won by the event's bye score to 0 and earns
the event's bye match points (a win's unless set). A table without a result yet
counts for nobody.
"""

RANKINGS = ("total", "matches")


def _blank(team):
    return {"team": team["number"], "name": team["name"], "played": 0, "won": 0, "drawn": 0, "lost": 0,
            "points_for": 0, "points_against": 0, "match_points": 0, "byes": 0}


def _sort_key(ranking, row):
    difference = row["points_for"] - row["points_against"]
    if ranking == "total":
        return (-row["points_for"], -row["won"], -difference)
    return (-row["match_points"], -difference, -row["points_for"])


def records(event, teams, rounds, results):
    """{team: row} of every team from the drawn rounds and the stored results."""
    win, draw, loss = event["match_points"]
    rows = {t["number"]: _blank(t) for t in teams}

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

    for r in rounds:
        for t in r["tables"]:
            res = results.get((r["round"], t["table"]))
            if res is None:
                continue
            count(t["NS"], res["NS"], res["EW"])
            count(t["EW"], res["EW"], res["NS"])
        for team in r["bye"]:
            row = rows[team]
            row["played"] += 1
            row["won"] += 1
            row["byes"] += 1
            row["points_for"] += event["bye_score"]
            row["match_points"] += event["bye_match_points"]
    return rows


def ranked(ranking, rows):
    """The rows best first, each with its shared "rank"."""
    order = sorted(rows.values(), key=lambda row: (_sort_key(ranking, row), row["team"]))
    out = []
    for index, row in enumerate(order):
        if index and _sort_key(ranking, row) == _sort_key(ranking, order[index - 1]):
            rank = out[-1]["rank"]
        else:
            rank = index + 1
        out.append(dict(row, rank=rank))
    return out
