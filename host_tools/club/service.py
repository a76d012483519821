"""The concours's rules of the house: what may be stored and when. The command line
and the admin page both call these methods; each checks everything first and then
writes in one transaction, so a refused action (ClubError) leaves the file as it was.
"""
import csv
import datetime
import io
import hashlib
import hmac
import json
import os
import secrets
import unicodedata

from host_tools.club import pairing, standings
from host_tools.club.errors import ClubError
from host_tools.club.limits import deal_limits
from host_tools.club.databases import open_storage

from coinche import result_code
from coinche.rule_options import MAX_ROUND_DEALS, PRESET_NAMES
from coinche.rules import Rules, RulesError

MAX_ROUNDS = result_code.MAX_ROUND
MAX_TEAMS = 2 * result_code.MAX_TABLE  # 49 tables: the most a result code can name
MAX_PLAYERS = 4 * result_code.MAX_TABLE  # an individual event: four players a table
FORMATS = ("pairs", "individual")
MAX_MINUTES = 600
MAX_NAME = 40
SOURCES = ("code", "sheet", "import", "correction")
LANGS = ("fr", "de", "it", "en")  # the pages' languages, the device's
# characters that change how the text around them is shown: embeddings, overrides, isolates, marks
DIRECTION = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
MIN_PASSWORD = 8
SCRYPT = (2 ** 14, 8, 1)  # n, r, p: about 16 MB and a few tens of ms per check


STAMP = "%Y-%m-%dT%H:%M:%SZ"
WARNING_SECONDS = 5 * 60  # the projector's first warning: 5 minutes left


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(STAMP)


def _instant(stamp):
    return datetime.datetime.strptime(stamp, STAMP).replace(tzinfo=datetime.timezone.utc)


def _whole(value, low, high, what):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClubError("%s must be a whole number from %d to %d, got %r" % (what, low, high, value))
    return value


def _name(text, what="a name"):
    """A name as it will be shown: spaces collapsed; no control or direction-override
    character, which would hide or reorder what is around it on every page."""
    if not isinstance(text, str) or not text.strip():
        raise ClubError("%s cannot be empty" % what)
    for char in text:
        if (unicodedata.category(char) == "Cc" and char != " ") or char in DIRECTION:
            raise ClubError("%s cannot hold a control or direction character (U+%04X): %r" % (what, ord(char), text))
    text = " ".join(text.split())
    if len(text) > MAX_NAME:
        raise ClubError("%s is at most %d characters, got %d: %r" % (what, MAX_NAME, len(text), text))
    return text


def make_event(name, rounds, preset, options=None, deals=None, target=None, ranking="total", seed=None,
               bye_score=0, match_points=(2, 1, 0), bye_match_points=None, late_as_bye=False, lang="fr",
               format="pairs", minutes=None):
    """The event row for `new`, every field checked (ClubError). deals or target, not
    both: a round of so many deals, or played to a target; minutes: a round's length,
    with either (whichever comes first) or alone (rounds end on time only). format:
    pairs (teams) or individual (players, partners drawn each round). late_as_bye: a
    late team's missed rounds count as byes; lang: the pages' language."""
    name = _name(name, "the event's name")
    _whole(rounds, 1, MAX_ROUNDS, "rounds")
    if format not in FORMATS:
        raise ClubError("the format is pairs or individual, got %r" % (format,))
    if minutes is not None:
        _whole(minutes, 1, MAX_MINUTES, "minutes")
    if deals is not None and target is not None:
        raise ClubError("give either --deals D (rounds of D deals) or --target T (rounds played to T), not both")
    if deals is None and target is None and minutes is None:
        raise ClubError("give --deals D (rounds of D deals), --target T (rounds played to T) "
                        "or --minutes M (rounds of M minutes)")
    if not isinstance(preset, str) or preset not in PRESET_NAMES:
        raise ClubError("unknown preset %r (presets: %s)" % (preset, ", ".join(PRESET_NAMES)))
    options = dict(options or {})
    for key in ("deals", "target"):
        if key in options:
            raise ClubError("set %s with --%s, not --set" % (key, key))
    if deals is not None:
        options["deals"] = _whole(deals, 1, MAX_ROUND_DEALS, "deals")
    else:
        if target is not None:
            options["target"] = target
        options["deals"] = 0
    try:
        rules = Rules(preset, options)
    except RulesError as e:
        raise ClubError(str(e))
    if ranking not in standings.RANKINGS:
        raise ClubError("ranking must be total or matches, got %r" % (ranking,))
    if seed is None:
        seed = secrets.randbelow(10 ** 9)
    _whole(seed, 0, 2 ** 63 - 1, "seed")
    _whole(bye_score, 0, result_code.MAX_TOTAL, "bye score")
    match_points = list(match_points)
    if len(match_points) != 3:
        raise ClubError("match points are three numbers: win, draw, loss")
    for value in match_points:
        _whole(value, 0, 100, "match points")
    if bye_match_points is None:
        bye_match_points = match_points[0]
    _whole(bye_match_points, 0, 100, "bye match points")
    if lang not in LANGS:
        raise ClubError("the language is one of %s, got %r" % (", ".join(LANGS), lang))
    if not isinstance(late_as_bye, bool):
        raise ClubError("late as bye is yes or no, got %r" % (late_as_bye,))
    max_deal, tens = deal_limits(rules)
    return {"name": name, "rounds": rounds, "deals": rules.round_deals,
            "target": None if rules.round_deals or target is None else rules.target, "rules": json.dumps(rules.spec()),
            "ranking": ranking, "match_points": json.dumps(match_points), "bye_score": bye_score,
            "bye_match_points": bye_match_points, "seed": seed, "max_deal": max_deal, "tens": int(tens),
            "created": now(), "lang": lang, "late_as_bye": int(late_as_bye), "format": format, "minutes": minutes}


def hash_password(password):
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise ClubError("the admin password needs at least %d characters" % MIN_PASSWORD)
    n, r, p = SCRYPT
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    return "scrypt$%d$%d$%d$%s$%s" % (n, r, p, salt.hex(), digest.hex())


def password_matches(stored, password):
    if not stored or not isinstance(password, str):
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32)
    except ValueError:
        return False
    return kind == "scrypt" and hmac.compare_digest(got.hex(), digest)


class Club:
    """One event file, opened."""

    def __init__(self, path, create=False):
        self.path = path
        self.store = open_storage(path, create)

    def close(self):
        self.store.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the event -----------------------------------------------------------
    def create_event(self, event):
        if self.store.event() is not None:
            raise ClubError("%s already holds an event (one file per event)" % self.path)
        self.store.create(event)
        return self.event_summary()

    def event(self):
        event = self.store.event()
        if event is None:
            raise ClubError("%s holds no event yet: create it with `new`" % self.path)
        return event

    def rules(self):
        return Rules.from_spec(self.event()["rules"])

    def event_summary(self):
        e = self.event()
        return {"name": e["name"], "rounds": e["rounds"], "deals": e["deals"], "target": e["target"],
                "rules": e["rules"], "ranking": e["ranking"], "match_points": e["match_points"],
                "bye_score": e["bye_score"], "bye_match_points": e["bye_match_points"], "seed": e["seed"],
                "max_deal": e["max_deal"], "multiples_of_10": bool(e["tens"]),
                "late_as_bye": bool(e["late_as_bye"]), "lang": e["lang"], "format": e["format"],
                "minutes": e["minutes"]}

    def has_password(self):
        return self.store.meta("password") is not None

    def set_password(self, password):
        hashed = hash_password(password)
        with self.store.transaction():
            self.store.set_meta("password", hashed)

    def check_password(self, password):
        return password_matches(self.store.meta("password"), password)

    # -- teams -----------------------------------------------------------------
    def teams(self):
        """[{"number", "name", "joined", "withdrawn"}]: joined, the first round the team
        can be drawn in; withdrawn, true once it left."""
        return [dict(t, withdrawn=t["withdrawn"] is not None) for t in self.store.teams()]

    def kind(self):
        """What the entrants are: "team", or "player" in an individual event (the rows
        of the team table are then players: the same adds, withdrawals and renames)."""
        return standings.entrant_key(self.event())

    def _as(self, kind):
        """ClubError when the command names teams in an individual event or the reverse."""
        if kind != self.kind():
            raise ClubError("this is %s event: its entrants are %ss (`%s add NAME ...`), not %ss" % (
                "an individual" if self.kind() == "player" else "a pairs", self.kind(), self.kind(), kind))

    def _team(self, number):
        kind = self.kind()
        if isinstance(number, bool) or not isinstance(number, int):
            raise ClubError("a %s is given by its number, got %r" % (kind, number))
        for t in self.store.teams():
            if t["number"] == number:
                return t
        count = len(self.store.teams())
        raise ClubError("there is no %s %d (%ss: %s)" % (kind, number, kind, "1 to %d" % count if count else "none yet"))

    def _free_name(self, name, taken):
        if name.casefold() in taken:
            raise ClubError("there is already a %s named %r" % (self.kind(), name))

    def entrants(self, kind):
        """teams() of a pairs event (kind "team") or of an individual one ("player");
        ClubError for the other kind."""
        self._as(kind)
        return self.teams()

    def add_players(self, names, who="cli"):
        """Players of an individual event, as add_teams adds teams (late ones too)."""
        return self.add_teams(names, who, kind="player")

    def withdraw_player(self, number, why=None, who="cli"):
        """A player leaves, as withdraw_team: at a table without its result, the three
        others are credited as for a bye (standings.py)."""
        return self.withdraw_team(number, why, who, kind="player")

    def rename_player(self, number, name, who="cli"):
        return self.rename_team(number, name, who, kind="player")

    @staticmethod
    def _who(who):
        return _name(who, "who acts")

    def add_teams(self, names, who="cli", kind="team"):
        """Teams numbered in the order added; after a draw, they join from the next
        round drawn (the action is kept with who and when)."""
        self._as(kind)
        if not names:
            raise ClubError("give at least one %s name" % kind)
        clean = [_name(n, "a %s's name" % kind) for n in names]
        who = self._who(who)
        existing = self.store.teams()
        taken = {t["name"].casefold() for t in existing}
        for n in clean:
            self._free_name(n, taken)
            taken.add(n.casefold())
        most = MAX_PLAYERS if kind == "player" else MAX_TEAMS
        if len(existing) + len(clean) > most:
            raise ClubError("at most %d %ss (%d tables)" % (most, kind, result_code.MAX_TABLE))
        drawn = len(self.store.rounds())
        if drawn >= self.event()["rounds"]:
            raise ClubError("all %d rounds are drawn: a %s added now would play none" % (drawn, kind))
        joined = drawn + 1
        first = len(existing) + 1
        at = now()
        with self.store.transaction():
            for offset, n in enumerate(clean):
                self.store.add_team(first + offset, n, joined)
                if drawn:
                    self.store.add_team_action("add", first + offset, who, at, None, {"name": n, "joined": joined})
        return [{"number": first + offset, "name": n, "joined": joined} for offset, n in enumerate(clean)]

    def withdraw_team(self, number, why=None, who="cli", kind="team"):
        """The team is never drawn again. Its table in a round drawn but without its
        result is a forfeit (standings.py): its opponent is credited as for a bye. A
        bye it holds in a round not over is taken back: a withdrawn team gets none."""
        self._as(kind)
        team = self._team(number)
        if team["withdrawn"] is not None:
            raise ClubError("%s %d (%s) has already withdrawn" % (kind, number, team["name"]))
        if why is not None:
            if not isinstance(why, str) or not why.strip():
                raise ClubError("a withdrawal's reason cannot be blank: give one, or none")
            why = why.strip()
        who = self._who(who)
        rounds = self.store.rounds()
        results = self.store.results()
        detail = {"name": team["name"], "after_round": len(rounds), "forfeit": None}
        last = rounds[-1] if rounds else None
        bye_back = False
        if last is not None and self._missing(last, results, self.store.teams()):
            for t in last["tables"]:
                everyone = standings.seated(t["NS"]) + standings.seated(t["EW"])
                if number in everyone and (last["round"], t["table"]) not in results:
                    others = [x for x in everyone if x != number]
                    detail["forfeit"] = {"round": last["round"], "table": t["table"]}
                    if kind == "player":
                        detail["forfeit"]["credited"] = others
                    else:
                        detail["forfeit"]["opponent"] = others[0]
            if number in last["bye"]:
                bye_back = True
                detail["bye_taken_back"] = last["round"]
        at = now()
        with self.store.transaction():
            self.store.withdraw_team(number, len(rounds))
            if bye_back:
                self.store.replace_seats(last["round"], last["tables"], [b for b in last["bye"] if b != number])
            self.store.add_team_action("withdraw", number, who, at, why, detail)
        return dict(detail, action="withdraw", who=who, at=at, why=why, **{kind: number})

    def rename_team(self, number, name, who="cli", kind="team"):
        self._as(kind)
        team = self._team(number)
        name = _name(name, "a %s's name" % kind)
        who = self._who(who)
        if name == team["name"]:
            raise ClubError("%s %d is already named %r" % (kind, number, name))
        self._free_name(name, {t["name"].casefold() for t in self.store.teams() if t["number"] != number})
        at = now()
        with self.store.transaction():
            self.store.rename_team(number, name)
            self.store.add_team_action("rename", number, who, at, None, {"old": team["name"], "new": name})
        return {"action": "rename", kind: number, "old": team["name"], "new": name, "who": who, "at": at,
                "why": None}

    def team_actions(self):
        """Every withdrawal, rename, late add, undone draw and swap: [{"action", "team",
        "who", "at", "why", ...}] in order, never deleted."""
        return self.store.team_actions()

    # -- the draw --------------------------------------------------------------
    def rounds(self):
        return self.store.rounds()

    def _missing(self, round_info, results, teams=None):
        """The tables of a round still waiting for a result (a forfeit waits for none)."""
        teams = self.store.teams() if teams is None else teams
        forfeit = standings.forfeits(teams, [round_info], results)
        return [t["table"] for t in round_info["tables"]
                if (round_info["round"], t["table"]) not in results and (round_info["round"], t["table"]) not in forfeit]

    @staticmethod
    def _rematches(round_info, before):
        met = {frozenset((t["NS"], t["EW"])) for r in before for t in r["tables"]}
        return sum(1 for t in round_info["tables"] if frozenset((t["NS"], t["EW"])) in met)

    def _drawn(self, round_info, before):
        """A round as draw, undo and swap print it: an individual event's as
        {"round", "tables": [{"table", "NS": [P, Q], "EW": [P, Q]}], "sit_out": [P...]}."""
        tables = [{"table": t["table"], "NS": t["NS"], "EW": t["EW"]} for t in round_info["tables"]]
        if self.kind() == "player":
            return {"round": round_info["round"], "tables": tables, "sit_out": list(round_info["bye"])}
        return {"round": round_info["round"], "tables": tables, "bye": list(round_info["bye"]),
                "rematches": self._rematches(round_info, before)}

    def draw(self):
        event = self.event()
        teams = self.store.teams()
        rounds = self.store.rounds()
        if len(rounds) >= event["rounds"]:
            raise ClubError("all %d rounds of the event are drawn" % event["rounds"])
        results = self.store.results()
        if rounds:
            missing = self._missing(rounds[-1], results, teams)
            if missing:
                raise ClubError("round %d still waits for the results of table%s %s" % (
                    rounds[-1]["round"], "s" if len(missing) > 1 else "", ", ".join(map(str, missing))))
        number = len(rounds) + 1
        # byes had outside the draw: a late team's missed rounds the event counts, and a
        # forfeit's credit (the opponent of a team that left was scored as for a bye, so it
        # does not get a second one before the others had theirs)
        late = standings.late_byes(event, teams, len(rounds))
        for credited in standings.forfeited(teams, rounds, results).values():
            for entrant in credited:
                late[entrant] = late.get(entrant, 0) + 1
        if self.kind() == "player":
            if len(pairing.present(teams, number)) < 4:
                raise ClubError("a draw needs at least four players still playing (player add NAME ...)")
            order = [row["player"] for row in self.standings()["ranking"]]
            seats, out, _, _ = pairing.draw_individual(number, teams, rounds, order, event["seed"], late)
            tables = [{"table": i + 1, "NS": ns, "EW": ew} for i, (ns, ew) in enumerate(seats)]
            with self.store.transaction():
                self.store.add_round(number, tables, out, now())
            return {"round": number, "tables": tables, "sit_out": out}
        if len(pairing.present(teams, number)) < 2:
            raise ClubError("a draw needs at least two teams still playing (team add NAME ...)")
        order = [row["team"] for row in self.standings()["ranking"]]
        pairs, bye, rematches = pairing.draw_round(number, teams, rounds, order, event["seed"], late)
        tables = [{"table": i + 1, "NS": ns, "EW": ew} for i, (ns, ew) in enumerate(pairs)]
        with self.store.transaction():
            self.store.add_round(number, tables, bye, now())
        return {"round": number, "tables": tables, "bye": bye, "rematches": rematches}

    def undo_draw(self, who="cli"):
        """Removes the last round drawn while none of its results is in; returns it as
        draw() returned it. Teams added after it join from the round drawn again."""
        self.event()
        who = self._who(who)
        rounds = self.store.rounds()
        if not rounds:
            raise ClubError("no round is drawn: there is nothing to undo")
        last = rounds[-1]
        results = self.store.results()
        filed = [t["table"] for t in last["tables"] if (last["round"], t["table"]) in results]
        if filed:
            raise ClubError("round %d already has the result of table%s %s: a draw with results cannot be undone"
                            % (last["round"], "s" if len(filed) > 1 else "", ", ".join(map(str, filed))))
        removed = self._drawn(last, rounds[:-1])
        at = now()
        with self.store.transaction():
            self.store.remove_round(last["round"])
            for t in self.store.teams():
                if t["joined"] > last["round"]:
                    self.store.set_joined(t["number"], last["round"])
            self.store.add_team_action("undo", None, who, at, None, {"round": last["round"], "removed": removed})
        return removed

    def swap_teams(self, a, b, who="cli"):
        """Teams a and b change places in the last round drawn (seat, table or bye)
        while neither's table has a result; returns the round as draw() does. In an
        individual event, two players (a player and one sitting out, too)."""
        kind = self.kind()
        first, second = self._team(a), self._team(b)
        who = self._who(who)
        if a == b:
            raise ClubError("a swap needs two different %ss, got %d twice" % (kind, a))
        rounds = self.store.rounds()
        if not rounds:
            raise ClubError("no round is drawn: there is nothing to swap")
        last = rounds[-1]
        results = self.store.results()
        places = {}
        for t in last["tables"]:
            for seat in ("NS", "EW"):
                for entrant in standings.seated(t[seat]):
                    places[entrant] = ("table", t["table"], seat)
        for team in last["bye"]:
            places[team] = ("bye", None, None)
        for team in (first, second):
            if team["withdrawn"] is not None:
                raise ClubError("%s %d (%s) has withdrawn: it cannot be moved" % (kind, team["number"], team["name"]))
            if team["number"] not in places:
                raise ClubError("%s %d (%s) is not in round %d, the last round drawn: a swap is within that round"
                                % (kind, team["number"], team["name"], last["round"]))
        for team in (first, second):
            where = places[team["number"]]
            if where[0] == "table" and (last["round"], where[1]) in results:
                raise ClubError("table %d of round %d already has its result: its %ss stay where they played"
                                % (where[1], last["round"], kind))
        swap = {a: b, b: a}

        def moved(side):
            return [swap.get(x, x) for x in side] if isinstance(side, list) else swap.get(side, side)

        tables = [{"table": t["table"], "NS": moved(t["NS"]), "EW": moved(t["EW"])} for t in last["tables"]]
        byes = sorted(swap.get(t, t) for t in last["bye"])
        at = now()
        with self.store.transaction():
            self.store.replace_seats(last["round"], tables, byes)
            self.store.add_team_action("swap", a, who, at, None, {"other": b, "round": last["round"]})
        return self._drawn({"round": last["round"], "tables": tables, "bye": byes}, rounds[:-1])

    # -- results ---------------------------------------------------------------
    def _seat(self, round_number, table):
        rounds = self.store.rounds()
        if not any(r["round"] == round_number for r in rounds):
            raise ClubError("round %r has not been drawn (rounds drawn: %s)" % (
                round_number, ", ".join(str(r["round"]) for r in rounds) or "none"))
        info = rounds[round_number - 1]
        for t in info["tables"]:
            if t["table"] == table:
                return t
        raise ClubError("round %d has no table %r (tables 1 to %d)" % (round_number, table, len(info["tables"])))

    def check_totals(self, ns, ew):
        """ClubError for totals no round of this event can give."""
        event = self.event()
        for team, value in (("NS", ns), ("EW", ew)):
            _whole(value, 0, result_code.MAX_TOTAL, "the %s total" % team)
            if event["tens"] and value % 10:
                raise ClubError("the %s total %d is not a multiple of 10: every score of these rules is" % (team, value))
        if event["deals"]:
            most = event["deals"] * event["max_deal"]
            for team, value in (("NS", ns), ("EW", ew)):
                if value > most:
                    raise ClubError("the %s total %d is more than a round can give (%d deals of at most %d: %d)"
                                    % (team, value, event["deals"], event["max_deal"], most))
        elif event["target"] is not None and event["minutes"] is None and max(ns, ew) < event["target"]:
            raise ClubError("a round to %d ends when a team reaches it: %d-%d cannot be a final score"
                            % (event["target"], ns, ew))

    def _not_forfeit(self, round_number, table):
        forfeit = standings.forfeited(self.store.teams(), self.store.rounds(), self.store.results())
        credited = forfeit.get((round_number, table))
        if credited is not None:
            kind = self.kind()
            raise ClubError("table %d of round %d is a forfeit: a %s withdrew before its result%s"
                            % (table, round_number, kind, "" if not credited else
                               ", %s %s %s credited as for a bye" % (kind if len(credited) == 1 else kind + "s",
                                                                     ", ".join(map(str, credited)),
                                                                     "is" if len(credited) == 1 else "are")))

    def _store_result(self, round_number, table, ns, ew, source, code):
        seat = self._seat(round_number, table)
        self._not_forfeit(round_number, table)
        self.check_totals(ns, ew)
        old = self.store.results().get((round_number, table))
        if old is not None:
            raise ClubError("table %d of round %d already has a result (NS %d - EW %d): a change is a correction "
                            "(correct --round %d --table %d --ns X --ew Y --why TEXT)"
                            % (table, round_number, old["NS"], old["EW"], round_number, table))
        with self.store.transaction():
            self.store.put_result(round_number, table, ns, ew, source, code, now())
        return {"round": round_number, "table": table, "NS": seat["NS"], "EW": seat["EW"],
                "totals": {"NS": ns, "EW": ew}, "source": source}

    def result(self, round_number, table, ns, ew):
        """A result typed from a paper sheet."""
        _whole(round_number, 1, MAX_ROUNDS, "round")
        _whole(table, 1, result_code.MAX_TABLE, "table")
        return self._store_result(round_number, table, ns, ew, "sheet", None)

    def _from_code(self, text):
        """(round, table, NS total, EW total, code) of a code, with the totals filed by
        the draw's seats (the teams in the code may have sat the other way round)."""
        try:
            round_number, table, ns_team, ew_team, ns, ew = result_code.decode(text)
        except result_code.CodeError as e:
            raise ClubError("result code %s: %s" % (text.strip(), e))
        ns_seat, ew_seat = self.code_teams(round_number, table)
        if ns_team is not None:
            if (ns_team, ew_team) == (ew_seat, ns_seat):
                ns, ew = ew, ns
            elif (ns_team, ew_team) != (ns_seat, ew_seat):
                raise ClubError("the code is for %s %d and %d, but table %d of round %d is %s %d (NS) against %d (EW):"
                                " was the device set to the right table?"
                                % (self._code_unit(), ns_team, ew_team, table, round_number, self._code_unit()[:-1],
                                   ns_seat, ew_seat))
        return round_number, table, ns, ew, result_code.digits_of(text)

    def _code_unit(self):
        return "pairs" if self.kind() == "player" else "teams"

    def code_teams(self, round_number, table):
        """(NS, EW) as a result code's team fields hold them: the teams, or in an
        individual event the round's pair numbers, 2T-1 for NS and 2T for EW at table
        T (1..98: they fit the code's two digits, where 196 players would not)."""
        seat = self._seat(round_number, table)
        if isinstance(seat["NS"], list):
            return 2 * table - 1, 2 * table
        return seat["NS"], seat["EW"]

    def result_from_code(self, text):
        round_number, table, ns, ew, code = self._from_code(text)
        return self._store_result(round_number, table, ns, ew, "code", code)

    def confirmed_at_table(self, round_number, table, ns, ew):
        """The table's other team confirmed its result (the link's "confirm" action):
        a result filed from its code with these totals (either way round) is marked
        "table". Nothing else changes; a result typed or corrected by hand stays as it is.
        True when it is marked."""
        stored = self.store.results().get((round_number, table))
        if stored is None or stored["source"] != "code" or (stored["NS"], stored["EW"]) not in ((ns, ew), (ew, ns)):
            return False
        with self.store.transaction():
            self.store.put_result(round_number, table, stored["NS"], stored["EW"], "table", stored["code"],
                                  stored["entered"])
        return True

    def code(self, round_number, table, ns_team, ew_team, ns, ew):
        """The code a device shows for this round's result (nothing is stored)."""
        self.event()
        self.check_totals(ns, ew)
        try:
            code = result_code.encode(round_number, table, ns, ew, ns_team, ew_team)
        except result_code.CodeError as e:
            raise ClubError(str(e))
        return {"code": code, "grouped": result_code.grouped(code)}

    def correct(self, round_number, table, ns, ew, why, who):
        _whole(round_number, 1, MAX_ROUNDS, "round")
        _whole(table, 1, result_code.MAX_TABLE, "table")
        self._seat(round_number, table)
        if not isinstance(why, str) or not why.strip():
            raise ClubError("a correction needs its reason (--why TEXT)")
        who = _name(who, "who corrects")
        old = self.store.results().get((round_number, table))
        if old is None:
            raise ClubError("table %d of round %d has no result to correct: enter it with `result`" % (table, round_number))
        self.check_totals(ns, ew)
        if (old["NS"], old["EW"]) == (ns, ew):
            raise ClubError("table %d of round %d already stands at NS %d - EW %d" % (table, round_number, ns, ew))
        at = now()
        with self.store.transaction():
            self.store.add_correction(round_number, table, (old["NS"], old["EW"]), (ns, ew), who, at, why.strip())
            self.store.put_result(round_number, table, ns, ew, "correction", None, at)
        return {"round": round_number, "table": table, "old": {"NS": old["NS"], "EW": old["EW"]},
                "new": {"NS": ns, "EW": ew}, "who": who, "at": at, "why": why.strip()}

    def corrections(self):
        return self.store.corrections()

    # -- device exports ----------------------------------------------------------
    def import_export(self, path):
        """Stores the round results of a device export (games.json); all or nothing.
        A game already stored with the same totals is skipped; docs/club.md gives the
        fields read."""
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except OSError as e:
            raise ClubError("cannot read %s: %s" % (path, e.strerror))
        except ValueError as e:
            raise ClubError("%s is not a device export (not JSON: %s)" % (path, e))
        if not isinstance(doc, dict) or not isinstance(doc.get("games"), list):
            raise ClubError("%s is not a device export (no \"games\" list)" % path)
        rules = self.rules()
        event = self.event()
        plan, skipped, seen = [], [], set()
        for index, game in enumerate(doc["games"], 1):
            where = "game %d of %s" % (index, os.path.basename(path))
            if not isinstance(game, dict) or not isinstance(game.get("concours"), dict):
                continue  # a game that was not a concours round
            entry = self._import_entry(where, game, rules, event)
            key = (entry[0], entry[1])
            if key in seen:
                raise ClubError("%s: round %d table %d appears twice in the export" % (where, key[0], key[1]))
            seen.add(key)
            old = self.store.results().get(key)
            if old is not None:
                if (old["NS"], old["EW"]) == (entry[2], entry[3]):
                    skipped.append({"round": key[0], "table": key[1], "why": "already stored"})
                    continue
                raise ClubError("%s: table %d of round %d already has NS %d - EW %d, the export says %d - %d: "
                                "a change is a correction" % (where, key[1], key[0], old["NS"], old["EW"],
                                                              entry[2], entry[3]))
            self._not_forfeit(key[0], key[1])
            self.check_totals(entry[2], entry[3])
            plan.append(entry)
        if not plan and not skipped:
            raise ClubError("%s holds no concours round" % path)
        stored = []
        with self.store.transaction():
            for round_number, table, ns, ew, code in plan:
                self.store.put_result(round_number, table, ns, ew, "import", code, now())
                stored.append({"round": round_number, "table": table, "totals": {"NS": ns, "EW": ew}})
        return {"imported": stored, "skipped": skipped}

    def _import_entry(self, where, game, rules, event):
        info = game["concours"]
        try:
            fields = {k: info[k] for k in ("round", "table", "teams", "totals", "deals", "code")}
        except KeyError as e:
            raise ClubError("%s: the concours round has no %s" % (where, e.args[0]))
        if not game.get("over"):
            raise ClubError("%s: round %r table %r is not over yet" % (where, fields["round"], fields["table"]))
        try:
            played = Rules.from_spec({"preset": game["rules"]["preset"], "options": game["rules"]["options"]})
        except (KeyError, TypeError, RulesError) as e:
            raise ClubError("%s: its rules cannot be read (%s)" % (where, e))
        unused = ("target", "tie", "bonus_rule") if rules.round_deals else ()  # a round ignores them
        if {k: v for k, v in played.opt.items() if k not in unused} != \
                {k: v for k, v in rules.opt.items() if k not in unused}:
            raise ClubError("%s: played under other rules (%s %s) than the event's (%s %s)" % (
                where, played.preset, json.dumps(played.overrides, sort_keys=True), rules.preset,
                json.dumps(rules.overrides, sort_keys=True)))
        if event["minutes"] is not None:
            # a timed round ends after the deals played when the clock ends it first
            if isinstance(fields["deals"], bool) or not isinstance(fields["deals"], int) or fields["deals"] < 0 or \
                    (event["deals"] and fields["deals"] > event["deals"]):
                raise ClubError("%s: %r deals, the event's timed rounds have at most %s" % (
                    where, fields["deals"], event["deals"] or "as many as the clock allows"))
        elif fields["deals"] != event["deals"]:
            raise ClubError("%s: %r deals, the event's rounds have %d" % (where, fields["deals"], event["deals"]))
        totals = fields["totals"]
        if not isinstance(totals, dict) or totals != game.get("total"):
            raise ClubError("%s: its totals %r are not the game's %r" % (where, totals, game.get("total")))
        round_number, table, ns, ew, code = self._from_code(str(fields["code"]))
        teams = fields["teams"]
        decoded = result_code.decode(code)
        if (decoded[0], decoded[1]) != (fields["round"], fields["table"]) or \
                {decoded[4], decoded[5]} != {totals.get("NS"), totals.get("EW")} or \
                (decoded[2] is not None and teams != {"NS": decoded[2], "EW": decoded[3]}):
            raise ClubError("%s: its code %s does not hold its round, table, teams and totals" % (where, code))
        return round_number, table, ns, ew, code

    # -- the round clock -----------------------------------------------------------
    # A timed event's rounds last `minutes` (or end after their deals, whichever comes
    # first). The clock is kept in the event as {"round", "started", "paused_at",
    # "paused_seconds", "added"}: a start time, when it was paused (None: running),
    # the seconds it spent paused before, the minutes added (or removed) since. Every
    # process reading the file (the pages, the link) computes the same time left.
    def time(self):
        """The present instant (a test sets another)."""
        return _instant(now())

    def clock_view(self, event=None, rounds=None):
        """{"round", "minutes", "running", "paused", "left_seconds", "warning"}, None when
        the event is not timed. minutes: the round's length with the minutes added;
        running: started, not paused, time left; warning: None, "5min" (5 minutes or
        less left) or "end" (no time left: the tables finish the deal in play)."""
        event = self.store.event() if event is None else event
        if event is None or event["minutes"] is None:
            return None
        clock = event["clock"]
        if clock is None:
            return {"round": None, "minutes": event["minutes"], "running": False, "paused": False,
                    "left_seconds": event["minutes"] * 60, "warning": None}
        minutes = event["minutes"] + clock["added"]
        until = _instant(clock["paused_at"]) if clock["paused_at"] else self.time()
        spent = int((until - _instant(clock["started"])).total_seconds()) - clock["paused_seconds"]
        left = max(0, minutes * 60 - max(0, spent))
        warning = "end" if left == 0 else "5min" if left <= WARNING_SECONDS else None
        return {"round": clock["round"], "minutes": minutes, "running": clock["paused_at"] is None and left > 0,
                "paused": clock["paused_at"] is not None, "left_seconds": left, "warning": warning}

    def clock(self, action=None, minutes=None):
        """The clock's view after `action`: start (the last round drawn's clock, from
        its full length), pause, resume, add (minutes, negative to remove), or None
        (only read it)."""
        event = self.event()
        if event["minutes"] is None:
            raise ClubError("this event's rounds are not timed (new ... --minutes M)")
        clock = event["clock"]
        at = self.time().strftime(STAMP)
        if action == "start":
            rounds = self.store.rounds()
            if not rounds:
                raise ClubError("no round is drawn: draw the round, then start its clock")
            number = rounds[-1]["round"]
            if clock is not None and clock["round"] == number:
                raise ClubError("round %d's clock is already started (clock pause, resume or add MIN)" % number)
            clock = {"round": number, "started": at, "paused_at": None, "paused_seconds": 0, "added": 0}
        elif action in ("pause", "resume", "add"):
            if clock is None:
                raise ClubError("the clock is not started (clock start)")
            clock = dict(clock)
            if action == "pause":
                if clock["paused_at"] is not None:
                    raise ClubError("the clock is already paused (clock resume)")
                clock["paused_at"] = at
            elif action == "resume":
                if clock["paused_at"] is None:
                    raise ClubError("the clock is running: there is nothing to resume")
                clock["paused_seconds"] += int((_instant(at) - _instant(clock["paused_at"])).total_seconds())
                clock["paused_at"] = None
            else:
                if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 or \
                        abs(minutes) > MAX_MINUTES:
                    raise ClubError("add takes a whole number of minutes from -%d to %d, not 0, got %r"
                                    % (MAX_MINUTES, MAX_MINUTES, minutes))
                if event["minutes"] + clock["added"] + minutes < 0:
                    raise ClubError("the round lasts %d minutes: %d cannot be removed"
                                    % (event["minutes"] + clock["added"], -minutes))
                clock["added"] += minutes
        elif action is not None:
            raise ClubError("the clock's actions are start, pause, resume and add MIN, got %r" % (action,))
        if action is not None:
            with self.store.transaction():
                self.store.set_clock(clock)
        return self.clock_view()

    # -- standings ---------------------------------------------------------------
    def _complete(self, rounds, results, teams):
        """The last round whose results are all in (0: none)."""
        complete = 0
        for r in rounds:
            if self._missing(r, results, teams):
                break
            complete = r["round"]
        return complete

    def standings(self, after=None):
        """{"round": R, "provisional": bool, "ranking": rows} counting rounds 1..R: R is
        `after`, or the last round whose results are all in; provisional when round R
        still waits for results. Rows say "withdrawn"; withdrawn teams come last."""
        event = self.event()
        rounds = self.store.rounds()
        results = self.store.results()
        teams = self.store.teams()
        complete = self._complete(rounds, results, teams)
        if after is None:
            after = complete
        else:
            _whole(after, 0, len(rounds), "the round (rounds drawn: %d)" % len(rounds))
        rows = standings.records(event, teams, rounds, results, after)
        return {"round": after, "provisional": after > complete,
                "ranking": standings.ranked(event["ranking"], rows)}

    def state(self):
        """Everything the pages show, read at once: the standings after the last round
        complete, and the round in progress (tables filed of tables) when one is."""
        event = self.store.event()
        if event is None:
            return {"event": None}
        rounds = self.store.rounds()
        results = self.store.results()
        teams = self.store.teams()
        names = {t["number"]: t["name"] for t in teams}
        forfeit = standings.forfeited(teams, rounds, results)
        individual = event["format"] == "individual"
        for r in rounds:
            for t in r["tables"]:
                res = results.get((r["round"], t["table"]))
                t["result"] = None if res is None else {"NS": res["NS"], "EW": res["EW"], "source": res["source"]}
                t["forfeit"] = (r["round"], t["table"]) in forfeit
                t["ns_name"] = " & ".join(names[x] for x in standings.seated(t["NS"]))
                t["ew_name"] = " & ".join(names[x] for x in standings.seated(t["EW"]))
                if individual:  # the names seat by seat, and the pair numbers a result code holds
                    t["ns_names"] = [names[x] for x in t["NS"]]
                    t["ew_names"] = [names[x] for x in t["EW"]]
                    t["pairs"] = {"NS": 2 * t["table"] - 1, "EW": 2 * t["table"]}
            r["bye_names"] = [names[b] for b in r["bye"]]
            if individual:
                r["sit_out"] = r["bye"]
        progress = None
        if rounds and self._missing(rounds[-1], results, teams):
            last = rounds[-1]
            filed = sum(1 for t in last["tables"] if t["result"] is not None or t["forfeit"])
            progress = {"round": last["round"], "filed": filed, "tables": len(last["tables"])}
        return {"event": self.event_summary(), "teams": self.teams(), "rounds": rounds,
                "standings": self.standings(), "progress": progress, "corrections": self.store.corrections(),
                "team_actions": self.store.team_actions(), "clock": self.clock_view(event, rounds)}

    # -- export ------------------------------------------------------------------
    def export(self, out_dir):
        """The event as files in out_dir (made if missing, files there replaced):
        event.json (what the pages show: event, teams, rounds, standings, corrections,
        team actions; no secret), results.csv (a row per table and bye), standings.csv
        (after the last complete round), corrections.csv. Each file is written whole
        or not at all."""
        state = self.state()
        if state["event"] is None:
            self.event()
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            raise ClubError("cannot make the folder %s: %s" % (out_dir, e.strerror))
        results = self.store.results()
        result_rows = [("round", "table", "ns_team", "ns_name", "ew_team", "ew_name", "ns_total", "ew_total",
                        "outcome", "source", "code", "entered")]
        for r in state["rounds"]:
            for t in r["tables"]:
                res = results.get((r["round"], t["table"]))
                if res is not None:
                    row = (res["NS"], res["EW"], "result", res["source"], res["code"] or "", res["entered"])
                else:
                    row = ("", "", "forfeit" if t["forfeit"] else "waiting", "", "", "")
                result_rows.append((r["round"], t["table"], _entrants(t["NS"]), t["ns_name"], _entrants(t["EW"]),
                                    t["ew_name"]) + row)
            for team, name in zip(r["bye"], r["bye_names"]):
                result_rows.append((r["round"], "", team, name, "", "", "", "", "bye", "", "", ""))
        keys = ("rank", self.kind(), "name", "played", "won", "drawn", "lost", "points_for", "points_against",
                "match_points", "byes", "withdrawn")
        standing_rows = [keys + ("after_round",)]
        for row in state["standings"]["ranking"]:
            standing_rows.append(tuple(int(row[k]) if k == "withdrawn" else row[k] for k in keys)
                                 + (state["standings"]["round"],))
        correction_rows = [("round", "table", "old_ns", "old_ew", "new_ns", "new_ew", "who", "at", "why")]
        for c in state["corrections"]:
            correction_rows.append((c["round"], c["table"], c["old"]["NS"], c["old"]["EW"], c["new"]["NS"],
                                    c["new"]["EW"], c["who"], c["at"], c["why"]))
        files = {"event.json": json.dumps(state, ensure_ascii=False, indent=1) + "\n",
                 "results.csv": _csv(result_rows), "standings.csv": _csv(standing_rows),
                 "corrections.csv": _csv(correction_rows)}
        written = []
        for name, text in files.items():
            path = os.path.join(out_dir, name)
            try:
                with open(path + ".part", "w", encoding="utf-8", newline="") as f:
                    f.write(text)
                os.replace(path + ".part", path)
            except OSError as e:
                raise ClubError("cannot write %s: %s" % (path, e.strerror))
            written.append(path)
        return {"out": out_dir, "files": written, "round": state["standings"]["round"]}


def _entrants(side):
    """A table side in a CSV cell: the team's number, or the two players' ("3 7")."""
    return " ".join(map(str, side)) if isinstance(side, list) else side


def _cell(value):
    """A CSV cell; text a spreadsheet would run as a formula gets a leading quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def _csv(rows):
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return buffer.getvalue()
