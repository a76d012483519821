"""The concours screens: Menu > Concours (the round, the table and the two team
numbers, then the start of the round) and the end of a round (its result and
the result code the organiser types in).

Loaded on demand (on_demand.py): a round is played on home and deal entry like
any game; these open before and after it. What they start is recorded by
table/settings.py (start_round), through the App.
"""
import on_demand
from coinche.compat import const
from coinche.result_code import MAX_ROUND, MAX_TABLE, MAX_TEAM, grouped
from events.inputs import BACK, LONG, OK, is_key, up_down
from screens.base import Ask, ListScreen, Screen, kept_note
from screens.table_screens import ask_undo

FIELDS = ("c_round", "c_table", "c_ns", "c_ew")
HIGHEST = {"c_round": MAX_ROUND, "c_table": MAX_TABLE, "c_ns": MAX_TEAM, "c_ew": MAX_TEAM}


def next_round(table, draw=None):
    """The round the concours screen offers: the organiser's draw for this table when
    the club link brought one (a body of link/protocol.draw_body) that is not the round
    started last as drawn (a round started at another table or with other teams is
    offered again as drawn); else the one remembered (settings "concours") with round + 1 once
    that round was started, the same table and teams; round 1, table 1, teams 1 and 2
    on a fresh device."""
    held = table.settings.get("concours")
    drawn = draw and draw["teams"] and draw["teams"].get("NS") is not None
    if drawn and (not held or held["round"] != draw["round"] or held["table"] != draw["table"]
                  or held["teams"] != draw["teams"]):  # not started, or started otherwise
        return {"round": draw["round"], "table": draw["table"], "teams": dict(draw["teams"])}
    if not held:
        return {"round": 1, "table": 1, "teams": {"NS": 1, "EW": 2}}
    number = held["round"] + 1
    return {"round": number if number <= MAX_ROUND else MAX_ROUND, "table": held["table"],
            "teams": dict(held["teams"])}


def team_labels(info, texts):
    """How App.team_name() shows the unnamed teams of a concours round: their seats in
    the language in use and their numbers, {"NS": "NS 5", "EW": "EO 3"}."""
    teams = info["teams"]
    return {team: texts[team] + " " + str(teams[team]) for team in ("NS", "EW")}


def round_title(info):
    """'R2 T7': the round and the table, as home and the round's end show them."""
    return "R%d T%d" % (info["round"], info["table"])


START_ROW = const(4)  # the start's row, after the four numbers


class Concours(ListScreen):
    """The round to start: four numbers (OK on one opens its picker), then the start,
    highlighted when the screen opens: the round proposed (next_round) is one OK away
    from its question, which says what it will start."""

    name = "concours"
    wrap = False

    def __init__(self, app, back_to=None):
        ListScreen.__init__(self, app, back_to, START_ROW)
        club = app.club
        self.info = next_round(app.table, club.draw if club is not None else None)

    def title(self):
        return self.app.texts["m_concours"]

    def value(self, field):
        info = self.info
        if field == "c_round":
            return info["round"]
        if field == "c_table":
            return info["table"]
        return info["teams"]["NS" if field == "c_ns" else "EW"]

    def set_value(self, field, number):
        info = self.info
        if field == "c_round" or field == "c_table":
            info[field[2:]] = number
        else:
            info["teams"]["NS" if field == "c_ns" else "EW"] = number
        self._rows = None  # shown again with the new number

    def rows(self):
        texts = self.app.texts
        out = [(texts[field], str(self.value(field))) for field in FIELDS]
        out.append((texts["c_start"], ">"))
        return out

    def pick(self, i):
        app = self.app
        if i < len(FIELDS):
            app.go(NumberPicker(app, FIELDS[i], self))
            return
        # asked once, with what it starts in words: 'Partie 2, Table 1?', 'NS 1 - EO 2'
        # (the start was just chosen: its verb would say "round" twice in three languages)
        texts = app.texts
        labels = team_labels(self.info, texts)
        info = self.info
        question = "%s %d, %s %d?" % (texts["c_round"], info["round"], texts["c_table"], info["table"])
        app.go(Ask(app, question, labels["NS"] + " - " + labels["EW"], lambda: app.start_round(info), self,
                   kept_note(app)))


class NumberPicker(Screen):
    """One number of the round with UP/DOWN (wrapping from 1 to its highest); OK keeps
    it on the Concours screen (nothing is written until the round starts), BACK cancels."""

    name = "number"

    def __init__(self, app, field, back_to):
        Screen.__init__(self, app, back_to)
        self.field = field
        self.number = back_to.value(field)

    def key(self, ev):
        step = up_down(ev)
        if step:
            highest = HIGHEST[self.field]
            self.number = (self.number - 1 + step) % highest + 1
        elif is_key(ev, OK):
            self.back_to.set_value(self.field, self.number)
            self.back()
        elif is_key(ev, BACK):
            self.back()

    def draw(self, layout):
        layout.picker(self.app.texts[self.field], None, self.number, None, None, self.app.texts["value_keys"])


class RoundOver(Screen):
    """The end of a concours round. Until the other team confirms the result (held OK)
    it says "not confirmed" and who confirms, in the code's place: the code is shown
    only once the result is confirmed (a deal changed since asks for it again). OK
    opens the next round's Concours screen (round + 1, the same table), BACK undoes
    the last deal as on game over. Unconfirmed, its key line turns between the
    confirmation and the other keys."""

    name = "roundover"
    turns = True

    def __init__(self, app):
        Screen.__init__(self, app)
        self._code = None
        self._title = None
        self._labels = None
        self._version = -1
        self._note = None

    def key(self, ev):
        app = self.app
        if is_key(ev, OK, LONG):  # the other team's hold: the code shows once it is journaled
            app.tell(on_demand.load("table.settings").confirm_round(app.table)[1])
            on_demand.release("table.settings")
        elif is_key(ev, OK):
            app.go(Concours(app, self))
        elif is_key(ev, BACK):
            ask_undo(app, self)

    def texts_of_round(self):
        """The title, the team labels and the grouped code, built once per confirmed change."""
        app = self.app
        if self._code is None or self._version != app.version:
            result = app.round_result()
            texts = app.texts
            game = app.game
            # the winner as NS/EW: the team labels below give the names and numbers
            line = texts[game.winner] + " " + texts["wins"] if game.winner in ("NS", "EW") else texts["tie"]
            self._title = round_title(result) + " " + line
            teams = result["teams"]
            names = app.settings.get("names") or {}
            # a named team gets its number after its name (unnamed, team_name() has it)
            ns, ew = app.team_name("NS"), app.team_name("EW")
            self._labels = (ns + " " + str(teams["NS"]) if names.get("NS") else ns,
                            ew + " " + str(teams["EW"]) if names.get("EW") else ew)
            self._code = grouped(result["code"]) if result["code"] else "-"
            confirmed = on_demand.load("table.settings").confirmed(app.table)
            on_demand.release("table.settings")
            self._note = None if confirmed else (texts["ro_unconf"], texts["ro_who"])
            self._version = app.version
        return self._title, self._labels, self._code

    def draw(self, layout):
        title, labels, code = self.texts_of_round()
        total = self.app.game.total
        texts = self.app.texts
        note = self._note
        hint = texts["ro_hold"] if note is not None and not self.phase & 1 else texts["ro_keys"]
        # unconfirmed, the code is not even handed to the layout: the note takes its place
        on_demand.load(layout.OFF_PATH).round_over(layout, title, labels[0], total["NS"], labels[1], total["EW"],
                                                    code if note is None else None, hint, note)
