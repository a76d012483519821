"""Individual events (new --format individual): players instead of teams, partners
and tables drawn each round. The command line's shapes, the players' adds,
withdrawals and renames (the teams' code), result codes holding the round's pair
numbers, the standings crediting each player with their pair's result, the
storage on PostgreSQL and in an older file; and the draw's properties on random
evenings (hypothesis): no partner twice while it can be avoided, opponents
repeated least, sit-outs fair, withdrawn players never drawn."""
import random
import sqlite3

import pytest
from hypothesis import event as hypothesis_event
from hypothesis import given, settings
from hypothesis import strategies as st

from test_club_cli import club, dump, ok
from test_link_league import postgres  # noqa: F401  (the fixture: a server of our own)
from coinche.result_code import encode
from host_tools.club.pairing import _matchings, draw_individual, individual_history, present
from host_tools.club.service import Club, make_event


def refused(db, *argv, match):
    before = dump(db)
    status, out, err = club(db, *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and match in err, err
    assert dump(db) == before


def new_event(path, players=10, *extra):
    ok(path, "new", "--name", "Mêlée", "--rounds", 4, "--deals", 12, "--rules", "classic2000", "--format",
       "individual", "--seed", 7, "--bye-score", 500, *extra)
    ok(path, "player", "add", *["P%d" % n for n in range(1, players + 1)])


def everyone(drawn):
    return [p for t in drawn["tables"] for side in ("NS", "EW") for p in t[side]]


def test_a_round_draws_partners_tables_and_sit_outs_in_the_shape_named(tmp_path):
    path = tmp_path / "e.db"
    new_event(path)
    drawn = ok(path, "draw")
    assert list(drawn) == ["round", "tables", "sit_out"] and drawn["round"] == 1
    assert [list(t) for t in drawn["tables"]] == [["table", "NS", "EW"]] * 2
    assert [t["table"] for t in drawn["tables"]] == [1, 2]
    assert all(len(t["NS"]) == 2 and len(t["EW"]) == 2 for t in drawn["tables"])
    assert len(drawn["sit_out"]) == 2
    assert sorted(everyone(drawn) + drawn["sit_out"]) == list(range(1, 11))


def test_the_event_says_its_format_and_pairs_stays_the_default(tmp_path):
    ok(tmp_path / "i.db", "new", "--name", "I", "--rounds", 2, "--deals", 4, "--rules", "classic2000",
       "--format", "individual")
    assert ok(tmp_path / "i.db", "show")["event"]["format"] == "individual"
    assert ok(tmp_path / "p.db", "new", "--name", "P", "--rounds", 2, "--deals", 4, "--rules",
              "classic2000")["format"] == "pairs"


def test_teams_are_refused_in_an_individual_event_and_players_in_a_pairs_one(tmp_path):
    path = tmp_path / "i.db"
    new_event(path, 4)
    refused(path, "team", "add", "X", match="individual event: its entrants are players")
    pairs = tmp_path / "p.db"
    ok(pairs, "new", "--name", "P", "--rounds", 2, "--deals", 4, "--rules", "classic2000")
    refused(pairs, "player", "add", "X", match="pairs event: its entrants are teams")
    refused(pairs, "player", "list", match="pairs event: its entrants are teams")
    refused(path, "team", "withdraw", 1, match="individual event: its entrants are players")
    assert [p["name"] for p in ok(path, "player", "list")["players"]] == ["P1", "P2", "P3", "P4"]


def test_a_draw_needs_four_players(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 3)
    refused(path, "draw", match="at least four players")


def test_sit_outs_rotate_before_anyone_sits_out_twice(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 6)  # two sit out each round: three rounds seat everyone out once
    sat = []
    for round_number in (1, 2, 3):
        drawn = ok(path, "draw")
        sat += drawn["sit_out"]
        for t in drawn["tables"]:
            ok(path, "result", "--round", round_number, "--table", t["table"], "--ns", 900, "--ew", 700)
    assert sorted(sat) == [1, 2, 3, 4, 5, 6]


def test_a_withdrawn_player_is_never_drawn_again(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 9)
    ok(path, "player", "withdraw", 3, "--why", "train")
    for round_number in (1, 2):
        drawn = ok(path, "draw")
        assert 3 not in everyone(drawn) + drawn["sit_out"]
        for t in drawn["tables"]:
            ok(path, "result", "--round", round_number, "--table", t["table"], "--ns", 900, "--ew", 700)
    rows = ok(path, "standings", "--json")["ranking"]
    assert rows[-1]["player"] == 3 and rows[-1]["withdrawn"] and rows[-1]["played"] == 0


def test_a_late_player_is_drawn_from_the_next_round(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 8)
    drawn = ok(path, "draw")
    assert ok(path, "player", "add", "Late")["players"] == [{"number": 9, "name": "Late", "joined": 2}]
    assert 9 not in everyone(drawn)
    for t in drawn["tables"]:
        ok(path, "result", "--round", 1, "--table", t["table"], "--ns", 900, "--ew", 700)
    second = ok(path, "draw")
    assert 9 in everyone(second) + second["sit_out"]
    assert ok(path, "show")["team_actions"][0]["action"] == "add"


def test_a_player_renamed_keeps_their_number(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 4)
    renamed = ok(path, "player", "rename", 2, "Anne")
    assert (renamed["player"], renamed["old"], renamed["new"]) == (2, "P2", "Anne")
    assert ok(path, "player", "list")["players"][1]["name"] == "Anne"


def test_each_player_is_credited_with_their_pairs_result(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 10)
    drawn = ok(path, "draw")
    first, second = drawn["tables"]
    ok(path, "result", "--round", 1, "--table", 1, "--ns", 1020, "--ew", 640)
    ok(path, "result", "--round", 1, "--table", 2, "--ns", 300, "--ew", 300)
    table = ok(path, "standings", "--json")
    rows = {r["player"]: r for r in table["ranking"]}
    assert "team" not in table["ranking"][0]
    for p in first["NS"]:
        assert (rows[p]["points_for"], rows[p]["points_against"], rows[p]["won"]) == (1020, 640, 1)
    for p in first["EW"]:
        assert (rows[p]["points_for"], rows[p]["points_against"], rows[p]["lost"]) == (640, 1020, 1)
    for p in second["NS"] + second["EW"]:
        assert (rows[p]["points_for"], rows[p]["drawn"]) == (300, 1)
    for p in drawn["sit_out"]:  # a sit-out scores as the event's bye
        assert (rows[p]["points_for"], rows[p]["byes"], rows[p]["won"]) == (500, 1, 1)
    assert table["ranking"][0]["player"] in drawn["sit_out"] + first["NS"]
    assert "plyr" in ok_text(path, "standings")


def ok_text(path, *argv):
    status, out, err = club(path, *argv)
    assert status == 0, err
    return out


def test_a_code_holds_the_rounds_pair_numbers(tmp_path):
    """Table T's NS pair is 2T-1, its EW pair 2T: the code names the pairs, the app
    knows who sat there (players up to 196 would not fit the code's two digits)."""
    path = tmp_path / "e.db"
    new_event(path, 8)
    drawn = ok(path, "draw")
    stored = ok(path, "result", "--code", encode(1, 2, 810, 1050, 3, 4))
    assert stored["totals"] == {"NS": 810, "EW": 1050} and stored["NS"] == drawn["tables"][1]["NS"]
    # a device set up the other way round: its NS pair is the table's EW pair
    stored = ok(path, "result", "--code", encode(1, 1, 400, 900, 2, 1))
    assert stored["totals"] == {"NS": 900, "EW": 400}
    state = ok(path, "show")
    assert state["rounds"][0]["tables"][0]["pairs"] == {"NS": 1, "EW": 2}
    assert state["rounds"][0]["tables"][0]["ns_names"] == ["P%d" % p for p in drawn["tables"][0]["NS"]]


def test_a_code_with_other_pair_numbers_is_refused(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 8)
    ok(path, "draw")
    refused(path, "result", "--code", encode(1, 2, 810, 1050, 1, 2),
            match="the code is for pairs 1 and 2, but table 2 of round 1 is pair 3 (NS) against 4 (EW)")


def test_a_player_leaving_before_the_result_credits_the_three_others(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 8)
    drawn = ok(path, "draw")
    table = drawn["tables"][0]
    gone = table["NS"][0]
    left = ok(path, "player", "withdraw", gone)
    others = sorted(table["NS"][1:] + table["EW"])
    assert left["player"] == gone and sorted(left["forfeit"]["credited"]) == others
    refused(path, "result", "--round", 1, "--table", 1, "--ns", 900, "--ew", 700, match="is a forfeit")
    ok(path, "result", "--round", 1, "--table", 2, "--ns", 900, "--ew", 700)
    rows = {r["player"]: r for r in ok(path, "standings", "--json")["ranking"]}
    assert all(rows[p]["points_for"] == 500 and rows[p]["byes"] == 1 for p in others)
    assert rows[gone]["played"] == 0


def test_two_players_swap_places_and_an_undone_draw_comes_back_the_same(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 10)
    drawn = ok(path, "draw")
    a, b = drawn["tables"][0]["NS"][0], drawn["sit_out"][0]
    swapped = ok(path, "draw", "--swap", a, b)
    assert swapped["tables"][0]["NS"][0] == b and a in swapped["sit_out"]
    assert ok(path, "draw", "--undo")["removed"] == swapped
    assert ok(path, "draw") == drawn


def test_export_writes_both_players_of_a_side(tmp_path):
    path = tmp_path / "e.db"
    new_event(path, 4)
    drawn = ok(path, "draw")
    ok(path, "result", "--round", 1, "--table", 1, "--ns", 900, "--ew", 700)
    ok(path, "export", "--out", tmp_path / "out")
    rows = (tmp_path / "out" / "results.csv").read_text().splitlines()
    assert rows[1].startswith("1,1,%d %d," % tuple(drawn["tables"][0]["NS"]))
    assert (tmp_path / "out" / "standings.csv").read_text().startswith("rank,player,name")


def test_an_event_file_before_individual_events_gains_their_columns(tmp_path):
    path = tmp_path / "old.db"
    ok(path, "new", "--name", "Old", "--rounds", 2, "--deals", 4, "--rules", "classic2000", "--seed", 2)
    ok(path, "team", "add", "A", "B", "C", "D")
    con = sqlite3.connect(path)
    for table, column in (("event", "format"), ("event", "minutes"), ("event", "clock"), ("seat", "ns2"),
                          ("seat", "ew2")):
        con.execute("ALTER TABLE %s DROP COLUMN %s" % (table, column))
    con.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    con.commit()
    con.close()
    state = ok(path, "show")
    assert (state["event"]["format"], state["event"]["minutes"]) == ("pairs", None)
    drawn = ok(path, "draw")
    assert len(drawn["tables"]) == 2 and isinstance(drawn["tables"][0]["NS"], int)


def test_an_individual_event_in_postgresql(postgres):  # noqa: F811  (the imported fixture)
    """An individual timed event on PostgreSQL, made before these columns existed
    (they are added when it is opened again)."""
    with Club(postgres, create=True) as c:
        c.create_event(make_event("Ligue", 3, "classic2000", deals=12, seed=3, bye_score=500))
        with c.store.transaction():
            for table, column in (("event", "format"), ("event", "minutes"), ("event", "clock"), ("seat", "ns2"),
                                  ("seat", "ew2")):
                c.store.execute("ALTER TABLE %s DROP COLUMN %s" % (table, column))
            c.store.set_meta("schema", "2")
    with Club(postgres) as c:
        assert c.store.meta("schema") == "3" and c.event_summary()["format"] == "pairs"
        with c.store.transaction():  # the organiser's mind changed before anyone came: individual, 30 minutes
            c.store.execute("UPDATE event SET format = 'individual', minutes = 30")
        c.add_players(["P%d" % n for n in range(1, 11)])
        drawn = c.draw()
        assert c.clock("start")["left_seconds"] == 1800 and c.clock("add", 5)["minutes"] == 35
        assert c.rounds()[0]["tables"] == [dict(t) for t in drawn["tables"]]
        assert c.rounds()[0]["bye"] == drawn["sit_out"]
        c.result_from_code(encode(1, 1, 900, 700, 1, 2))
        c.withdraw_player(drawn["tables"][1]["EW"][0], why="left")
        rows = {r["player"]: r for r in c.standings()["ranking"]}
        assert all(rows[p]["points_for"] == 900 for p in drawn["tables"][0]["NS"])
        second = c.draw()
        assert drawn["tables"][1]["EW"][0] not in [p for t in second["tables"] for p in t["NS"] + t["EW"]]


# -- the draw's properties on random evenings (hypothesis) --------------------------------------

def fewest_partner_repeats(seated, partnered):
    return min(sum(1 for a, b in m if frozenset((a, b)) in partnered) for m in _matchings(sorted(seated)))


def fewest_opponent_repeats(seated, partnered, opposed, partner_repeats):
    """The least opponent cost of any round with that many partner repeats (brute force)."""
    best = None
    for m in _matchings(sorted(seated)):
        if sum(1 for a, b in m if frozenset((a, b)) in partnered) != partner_repeats:
            continue
        for tables in _matchings(list(range(len(m)))):
            cost = sum(opposed.get(frozenset((x, y)), 0) for i, j in tables for x in m[i] for y in m[j])
            best = cost if best is None else min(best, cost)
    return best or 0


EVENING = st.tuples(st.integers(4, 13), st.integers(1, 6), st.integers(0, 10 ** 6),
                    st.lists(st.sampled_from(["draw", "draw", "draw", "withdraw", "late"]), max_size=12))


@settings(max_examples=60, deadline=None)
@given(EVENING)
def test_random_individual_evenings_draw_fair_rounds(evening):
    count, total_rounds, seed, steps = evening
    rnd = random.Random(seed)
    players = [{"number": n, "joined": 1, "withdrawn": None} for n in range(1, count + 1)]
    rounds = []
    for step in steps + ["draw"] * total_rounds:
        number = len(rounds) + 1
        playing = present(players, number)
        if step == "draw" and number <= total_rounds and len(playing) >= 4:
            ranking = list(range(1, len(players) + 1))
            rnd.shuffle(ranking)
            partnered, opposed, sat = individual_history(rounds)
            tables, out, partner_repeats, opponent_cost = draw_individual(number, players, rounds, ranking, seed)
            seated = [p for ns, ew in tables for p in ns + ew]
            # everyone present is seated once or sits out; withdrawn players are never drawn
            assert sorted(seated + out) == sorted(playing) and len(out) == len(playing) % 4
            # sit-outs: only those with the fewest so far, while the others have more
            if out:
                assert max(sat.get(p, 0) for p in out) <= min(sat.get(p, 0) for p in seated)
            # no partner twice while it can be avoided: the fewest repeats any pairing has
            repeats = sum(1 for ns, ew in tables for side in (ns, ew) if frozenset(side) in partnered)
            assert repeats == partner_repeats
            if len(seated) <= 10:
                assert repeats == fewest_partner_repeats(seated, partnered)
            elif repeats:  # above ten, a repeat only when none can be avoided is checked by search
                assert fewest_partner_repeats(seated, partnered) == repeats
            cost = sum(opposed.get(frozenset((x, y)), 0) for ns, ew in tables for x in ns for y in ew)
            assert cost == opponent_cost
            if len(seated) <= 8:  # opponents repeated least: every arrangement is compared
                assert cost == fewest_opponent_repeats(seated, partnered, opposed, repeats)
            rounds.append({"round": number, "tables": [{"table": i + 1, "NS": ns, "EW": ew}
                                                       for i, (ns, ew) in enumerate(tables)], "bye": out})
        elif step == "withdraw" and playing:
            gone = rnd.choice(playing)
            next(p for p in players if p["number"] == gone)["withdrawn"] = len(rounds)
        elif step == "late" and len(players) < 13:
            players.append({"number": len(players) + 1, "joined": number, "withdrawn": None})


@pytest.mark.parametrize("count", [16, 20, 24])
def test_no_partner_twice_and_few_repeated_opponents_over_many_rounds(count):
    """Five rounds of 16 to 24 players: never a partner twice, and in the first four
    rounds never an opponent twice (each player meets 12 of the others)."""
    players = [{"number": n, "joined": 1, "withdrawn": None} for n in range(1, count + 1)]
    rounds = []
    for number in range(1, 6):
        tables, out, partner_repeats, _ = draw_individual(number, players, rounds, list(range(1, count + 1)), 11)
        assert partner_repeats == 0 and out == []
        rounds.append({"round": number, "tables": [{"table": i + 1, "NS": ns, "EW": ew}
                                                   for i, (ns, ew) in enumerate(tables)], "bye": out})
    partnered, opposed, _ = individual_history(rounds[:4])
    assert max(opposed.values()) == 1  # four rounds: 8 opponents each, all different


def test_a_draw_of_196_players_seats_everyone():
    players = [{"number": n, "joined": 1, "withdrawn": None} for n in range(1, 197)]
    rounds = []
    for number in (1, 2, 3):
        tables, out, partner_repeats, opponent_cost = draw_individual(number, players, rounds,
                                                                      list(range(1, 197)), 5)
        assert len(tables) == 49 and out == [] and partner_repeats == 0 and opponent_cost == 0
        rounds.append({"round": number, "tables": [{"table": i + 1, "NS": ns, "EW": ew}
                                                   for i, (ns, ew) in enumerate(tables)], "bye": out})


# -- random evenings through the service and a real file (hypothesis) ----------------------------

STEPS = st.lists(st.sampled_from(["round", "round", "round", "withdraw", "withdraw after draw", "late", "undo"]),
                 max_size=10)


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 11), STEPS, st.integers(0, 10 ** 6), st.booleans())
def test_random_individual_evenings_through_the_service(tmp_path_factory, count, steps, chance, late_as_bye):
    """Players that come and go, draws undone, results typed: every draw seats the
    players present and no one else, and every player's standing is an independent
    count of their pair's results, sit-outs and forfeits."""
    rnd = random.Random(chance)
    path = str(tmp_path_factory.mktemp("ind") / "e.db")
    with Club(path, create=True) as c:
        c.create_event(make_event("R", 5, "classic2000", deals=12, seed=chance, bye_score=500, format="individual",
                                  late_as_bye=late_as_bye))
        c.add_players(["P%d" % n for n in range(1, count + 1)])
        withdrawals = []

        def play_last():
            rounds = c.rounds()
            if rounds:
                for t in rounds[-1]["tables"]:
                    if t["table"] in c._missing(rounds[-1], c.store.results()):
                        c.result(rounds[-1]["round"], t["table"], rnd.randrange(0, 2000, 10),
                                 rnd.randrange(0, 2000, 10))

        for step in steps:
            rounds = c.rounds()
            playing = present(c.store.teams(), len(rounds) + 1)
            if step in ("round", "withdraw after draw") and len(rounds) < 5 and len(playing) >= 4:
                play_last()
                drawn = c.draw()
                here = present(c.store.teams(), drawn["round"])
                assert sorted(everyone(drawn) + drawn["sit_out"]) == sorted(here)
                if step == "withdraw after draw":
                    gone = rnd.choice(everyone(drawn))
                    credited = c.withdraw_player(gone)["forfeit"]["credited"]
                    assert gone not in credited and len(credited) == 3
                    withdrawals.append(2)
            elif step == "withdraw" and playing and len(rounds) < 5:
                play_last()
                c.withdraw_player(rnd.choice(playing))
                withdrawals.append(1)
            elif step == "late" and len(rounds) < 5:
                c.add_players(["L%d" % len(c.teams())])
            elif step == "undo" and rounds and not any(k[0] == rounds[-1]["round"] for k in c.store.results()):
                c.undo_draw()
        play_last()
        event = c.event()
        teams = c.store.teams()
        rounds = c.rounds()
        results = c.store.results()
        want = {t["number"]: [0, 0, 0] for t in teams}  # points for, against, played
        left = {t["number"]: t["withdrawn"] for t in teams if t["withdrawn"] is not None}
        for r in rounds:
            for t in r["tables"]:
                res = results.get((r["round"], t["table"]))
                if res is not None:
                    for side, own, other in ((t["NS"], res["NS"], res["EW"]), (t["EW"], res["EW"], res["NS"])):
                        for p in side:
                            want[p][0] += own
                            want[p][1] += other
                            want[p][2] += 1
                else:  # a forfeit: everyone still there scores as a bye
                    for p in t["NS"] + t["EW"]:
                        if not (p in left and left[p] <= r["round"]):
                            want[p][0] += 500
                            want[p][2] += 1
            for p in r["bye"]:
                want[p][0] += 500
                want[p][2] += 1
        if late_as_bye:
            for t in teams:
                missed = min(t["joined"], len(rounds) + 1) - 1
                want[t["number"]][0] += 500 * missed
                want[t["number"]][2] += missed
        table = c.standings(after=len(rounds))
        assert {r["player"]: [r["points_for"], r["points_against"], r["played"]] for r in table["ranking"]} == want
        assert event["format"] == "individual"
        hypothesis_event("withdrawals: %s" % sorted(set(withdrawals)))
