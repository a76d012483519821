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
from coinche.rules import MAX_ROUND_DEALS, PRESET_NAMES, Rules, RulesError

MAX_ROUNDS = result_code.MAX_ROUND
MAX_TEAMS = 2 * result_code.MAX_TABLE  # 49 tables: the most a result code can name
MAX_NAME = 40
SOURCES = ("code", "sheet", "import", "correction")
LANGS = ("fr", "de", "it", "en")  # the pages' languages, the device's
# characters that change how the text around them is shown: embeddings, overrides, isolates, marks
DIRECTION = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
MIN_PASSWORD = 8
SCRYPT = (2 ** 14, 8, 1)  # n, r, p: about 16 MB and a few tens of ms per check


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


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
               bye_score=0, match_points=(2, 1, 0), bye_match_points=None, late_as_bye=False, lang="fr"):
    """The event row for `new`, every field checked (ClubError). deals or target, not
    both: a round of so many deals, or played to a target. late_as_bye: a late team's
    missed rounds count as byes; lang: the pages' language."""
    name = _name(name, "the event's name")
    _whole(rounds, 1, MAX_ROUNDS, "rounds")
    if (deals is None) == (target is None):
        raise ClubError("give either --deals D (rounds of D deals) or --target T (rounds played to T)")
    if not isinstance(preset, str) or preset not in PRESET_NAMES:
        raise ClubError("unknown preset %r (presets: %s)" % (preset, ", ".join(PRESET_NAMES)))
    options = dict(options or {})
    for key in ("deals", "target"):
        if key in options:
            raise ClubError("set %s with --%s, not --set" % (key, key))
    if deals is not None:
        options["deals"] = _whole(deals, 1, MAX_ROUND_DEALS, "deals")
    else:
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
            "target": None if rules.round_deals else rules.target, "rules": json.dumps(rules.spec()),
            "ranking": ranking, "match_points": json.dumps(match_points), "bye_score": bye_score,
            "bye_match_points": bye_match_points, "seed": seed, "max_deal": max_deal, "tens": int(tens),
            "created": now(), "lang": lang, "late_as_bye": int(late_as_bye)}


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
                "late_as_bye": bool(e["late_as_bye"]), "lang": e["lang"]}

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

    def _team(self, number):
        if isinstance(number, bool) or not isinstance(number, int):
            raise ClubError("a team is given by its number, got %r" % (number,))
        for t in self.store.teams():
            if t["number"] == number:
                return t
        count = len(self.store.teams())
        raise ClubError("there is no team %d (teams: %s)" % (number, "1 to %d" % count if count else "none yet"))

    def _free_name(self, name, taken):
        if name.casefold() in taken:
            raise ClubError("there is already a team named %r" % name)

    @staticmethod
    def _who(who):
        return _name(who, "who acts")

    def add_teams(self, names, who="cli"):
        """Teams numbered in the order added; after a draw, they join from the next
        round drawn (the action is kept with who and when)."""
        self.event()
        if not names:
            raise ClubError("give at least one team name")
        clean = [_name(n, "a team's name") for n in names]
        who = self._who(who)
        existing = self.store.teams()
        taken = {t["name"].casefold() for t in existing}
        for n in clean:
            self._free_name(n, taken)
            taken.add(n.casefold())
        if len(existing) + len(clean) > MAX_TEAMS:
            raise ClubError("at most %d teams (%d tables)" % (MAX_TEAMS, MAX_TEAMS // 2))
        drawn = len(self.store.rounds())
        if drawn >= self.event()["rounds"]:
            raise ClubError("all %d rounds are drawn: a team added now would play none" % drawn)
        joined = drawn + 1
        first = len(existing) + 1
        at = now()
        with self.store.transaction():
            for offset, n in enumerate(clean):
                self.store.add_team(first + offset, n, joined)
                if drawn:
                    self.store.add_team_action("add", first + offset, who, at, None, {"name": n, "joined": joined})
        return [{"number": first + offset, "name": n, "joined": joined} for offset, n in enumerate(clean)]

    def withdraw_team(self, number, why=None, who="cli"):
        """The team is never drawn again. Its table in a round drawn but without its
        result is a forfeit (standings.py): its opponent is credited as for a bye. A
        bye it holds in a round not over is taken back: a withdrawn team gets none."""
        team = self._team(number)
        if team["withdrawn"] is not None:
            raise ClubError("team %d (%s) has already withdrawn" % (number, team["name"]))
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
                if number in (t["NS"], t["EW"]) and (last["round"], t["table"]) not in results:
                    other = t["EW"] if t["NS"] == number else t["NS"]
                    detail["forfeit"] = {"round": last["round"], "table": t["table"], "opponent": other}
            if number in last["bye"]:
                bye_back = True
                detail["bye_taken_back"] = last["round"]
        at = now()
        with self.store.transaction():
            self.store.withdraw_team(number, len(rounds))
            if bye_back:
                self.store.replace_seats(last["round"], last["tables"], [b for b in last["bye"] if b != number])
            self.store.add_team_action("withdraw", number, who, at, why, detail)
        return dict(detail, action="withdraw", team=number, who=who, at=at, why=why)

    def rename_team(self, number, name, who="cli"):
        team = self._team(number)
        name = _name(name, "a team's name")
        who = self._who(who)
        if name == team["name"]:
            raise ClubError("team %d is already named %r" % (number, name))
        self._free_name(name, {t["name"].casefold() for t in self.store.teams() if t["number"] != number})
        at = now()
        with self.store.transaction():
            self.store.rename_team(number, name)
            self.store.add_team_action("rename", number, who, at, None, {"old": team["name"], "new": name})
        return {"action": "rename", "team": number, "old": team["name"], "new": name, "who": who, "at": at,
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
        if len(pairing.present(teams, number)) < 2:
            raise ClubError("a draw needs at least two teams still playing (team add NAME ...)")
        order = [row["team"] for row in self.standings()["ranking"]]
        pairs, bye, rematches = pairing.draw_round(number, teams, rounds, order, event["seed"],
                                                   standings.late_byes(event, teams, len(rounds)))
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
        removed = {"round": last["round"], "tables": last["tables"], "bye": last["bye"],
                   "rematches": self._rematches(last, rounds[:-1])}
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
        while neither's table has a result; returns the round as draw() does."""
        self.event()
        first, second = self._team(a), self._team(b)
        who = self._who(who)
        if a == b:
            raise ClubError("a swap needs two different teams, got %d twice" % a)
        rounds = self.store.rounds()
        if not rounds:
            raise ClubError("no round is drawn: there is nothing to swap")
        last = rounds[-1]
        results = self.store.results()
        places = {}
        for t in last["tables"]:
            for seat in ("NS", "EW"):
                places[t[seat]] = ("table", t["table"], seat)
        for team in last["bye"]:
            places[team] = ("bye", None, None)
        for team in (first, second):
            if team["withdrawn"] is not None:
                raise ClubError("team %d (%s) has withdrawn: it cannot be moved" % (team["number"], team["name"]))
            if team["number"] not in places:
                raise ClubError("team %d (%s) is not in round %d, the last round drawn: a swap is within that round"
                                % (team["number"], team["name"], last["round"]))
        for team in (first, second):
            where = places[team["number"]]
            if where[0] == "table" and (last["round"], where[1]) in results:
                raise ClubError("table %d of round %d already has its result: its teams stay where they played"
                                % (where[1], last["round"]))
        swap = {a: b, b: a}
        tables = [{"table": t["table"], "NS": swap.get(t["NS"], t["NS"]), "EW": swap.get(t["EW"], t["EW"])}
                  for t in last["tables"]]
        byes = sorted(swap.get(t, t) for t in last["bye"])
        at = now()
        with self.store.transaction():
            self.store.replace_seats(last["round"], tables, byes)
            self.store.add_team_action("swap", a, who, at, None, {"other": b, "round": last["round"]})
        changed = {"round": last["round"], "tables": tables, "bye": byes}
        changed["rematches"] = self._rematches(changed, rounds[:-1])
        return changed

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
        elif max(ns, ew) < event["target"]:
            raise ClubError("a round to %d ends when a team reaches it: %d-%d cannot be a final score"
                            % (event["target"], ns, ew))

    def _not_forfeit(self, round_number, table):
        forfeit = standings.forfeits(self.store.teams(), self.store.rounds(), self.store.results())
        if (round_number, table) in forfeit:
            raise ClubError("table %d of round %d is a forfeit: a team withdrew before its result%s"
                            % (table, round_number, "" if forfeit[(round_number, table)] is None else
                               ", team %d is credited as for a bye" % forfeit[(round_number, table)]))

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
        seat = self._seat(round_number, table)
        if ns_team is not None:
            if (ns_team, ew_team) == (seat["EW"], seat["NS"]):
                ns, ew = ew, ns
            elif (ns_team, ew_team) != (seat["NS"], seat["EW"]):
                raise ClubError("the code is for teams %d and %d, but table %d of round %d is team %d (NS) against %d (EW):"
                                " was the device set to the right table?"
                                % (ns_team, ew_team, table, round_number, seat["NS"], seat["EW"]))
        return round_number, table, ns, ew, result_code.digits_of(text)

    def result_from_code(self, text):
        round_number, table, ns, ew, code = self._from_code(text)
        return self._store_result(round_number, table, ns, ew, "code", code)

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
        if fields["deals"] != event["deals"]:
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
        forfeit = standings.forfeits(teams, rounds, results)
        for r in rounds:
            for t in r["tables"]:
                res = results.get((r["round"], t["table"]))
                t["result"] = None if res is None else {"NS": res["NS"], "EW": res["EW"], "source": res["source"]}
                t["forfeit"] = (r["round"], t["table"]) in forfeit
                t["ns_name"] = names[t["NS"]]
                t["ew_name"] = names[t["EW"]]
            r["bye_names"] = [names[b] for b in r["bye"]]
        progress = None
        if rounds and self._missing(rounds[-1], results, teams):
            last = rounds[-1]
            filed = sum(1 for t in last["tables"] if t["result"] is not None or t["forfeit"])
            progress = {"round": last["round"], "filed": filed, "tables": len(last["tables"])}
        return {"event": self.event_summary(), "teams": self.teams(), "rounds": rounds,
                "standings": self.standings(), "progress": progress, "corrections": self.store.corrections(),
                "team_actions": self.store.team_actions()}

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
                result_rows.append((r["round"], t["table"], t["NS"], t["ns_name"], t["EW"], t["ew_name"]) + row)
            for team, name in zip(r["bye"], r["bye_names"]):
                result_rows.append((r["round"], "", team, name, "", "", "", "", "bye", "", "", ""))
        keys = ("rank", "team", "name", "played", "won", "drawn", "lost", "points_for", "points_against",
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
