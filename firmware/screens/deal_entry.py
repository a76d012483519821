"""Deal entry: the screen that walks the steps of a Draft (table/draft.py), from the
taker to the check-and-save step and its announce picker.

The game at the table scores the draft as it would be saved (app.table.trial)
and saves it (app.save_deal); this screen only turns keys into changes of the
draft and draws each step.
"""
import on_demand
from coinche.fields import RecordError
from coinche.game import GameError, validate
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP, is_key, up_down
from screens.base import Screen, contract_text
from table.draft import ALL, BEST, DEF_ALL, REMOVE_BELOTE, S_BID, S_CONFIRM, S_MELDS_TO, S_TAKER, S_TENS, SOLO, wrap_or_stop

_COINCHE = ("", "x2", "x4")  # the coinche levels as every screen writes them
class Entry(Screen):
    """Walks the steps of a Draft. index is None for a new deal, else the deal edited.

    The contract step sets the bid (UP/DOWN), its type (held OK) and the coinche
    (held BACK); OK goes to the last step, which checks and saves: it shows the deal
    as it will be scored with the card points at the contract's figure, UP/DOWN
    set them by one (held: faster and faster), BACK shows them by tens (where the
    defence's pile and the capots are), and a held OK / held BACK opens the NS / EW
    announce picker (a three-way screen: UP belote, DOWN
    tierce, held OK quarte, OK the others: quinte, carres, whose melds are best,
    removals; with a belote the only possible announce, the hold toggles it)."""

    # every key's action in words, all at once: no hint line turns on these steps

    def __init__(self, app, draft, index=None, back_to=None):
        Screen.__init__(self, app, back_to)
        self.draft = draft
        self.index = index
        self.step = draft.steps()[0]
        self.meld_team = None  # set while the announce picker is open
        self.more = False      # the picker's list of the other announces is open
        self.pick = 0          # that list's highlighted row
        self.error = None
        self.scored = None
        self._ctx = None  # texts derived from the draft, rebuilt only after a key changes it
        self._stepno_s = None
        self.confirm_texts = None  # the confirm step's texts (screens/confirm_texts.py build())
        self.confirm_title = None  # the confirm step's title (the card points do not change it)
        self._rows = None  # the contract's or card points' keys in words (_key_rows)
        # the confirm step's card points shown before, their error, result and texts: swapped
        # with the current ones, so UP/DOWN back and forth allocates nothing (None:
        # nothing kept)
        self.kept_points = self.kept_error = self.kept_scored = self.kept_texts = None
        self.checked = None  # the record last scored there, as validate() returned it
        self.holds = None  # the confirm step's (NS, EW): does the team's hold key open its announces?
        self.melds_sum = None  # the melds' sum, "Ann.EO 150+NS 50", when the detail line has no room for it
        self._picker_texts = None  # (team, (choices, rows, title, hold)) of the open picker
        # the card points say every trick went one way (162 or 0) but no capot was
        # entered: asked once on saving ("Capot?": OK a capot, BACK the points kept)
        self.capot_question = None  # its question while asked: "Capot?" or "Defence capot?"
        self.capot_special = ALL  # the capot it asks for (ALL, DEF_ALL), each answer in words
        self.capot_answer_ok = self.capot_answer_back = None
        self.capot_asked = False

    @property
    def name(self):
        if self.capot_question is not None:
            return "entry-capot"
        if self.meld_team:
            return "entry-meld-list" if self.more else "entry-meld"
        return "entry-" + self.step

    # -- navigation
    def _touch(self):
        """Forget the texts derived from the draft (they are rebuilt at the next draw)."""
        self._ctx = self._stepno_s = self.confirm_texts = self.confirm_title = self.checked = self.holds = self._rows = None
        self._picker_texts = None
        self.kept_points = self.kept_error = self.kept_scored = self.kept_texts = None

    def goto(self, step):
        self._touch()
        self.step = step
        if step == S_CONFIRM:
            self._evaluate()

    def advance(self):
        steps = self.draft.steps()
        if self.step == S_TENS:  # the card points by tens, the check step's BACK: back there
            self.goto(S_CONFIRM)
            return
        i = steps.index(self.step)
        self.goto(steps[min(i + 1, len(steps) - 1)])

    def retreat(self):
        self._touch()
        if self.step == S_MELDS_TO:  # asked from the confirm step: back there
            self.draft.ask_melds_to = False  # left without a choice
            self.goto(S_CONFIRM)
            return
        if self.step == S_CONFIRM and self.draft.bid != "pass":
            self.step = S_TENS  # the card points by tens, the defence's pile, the capots
            return
        steps = self.draft.steps()  # the tens go back where the check step would
        i = steps.index(S_CONFIRM if self.step == S_TENS else self.step)
        if i == 0:
            self.back()
            return
        self.step = steps[i - 1]

    def _evaluate(self, points_only=False):
        """Score the draft as it would be saved; keep any error to show it. points_only:
        only the card points changed since the last evaluation: its checked
        record is scored again with the new points (nothing else of a record depends
        on them, and 0..162 is always valid)."""
        app = self.app
        draft = self.draft
        self.error = None
        self.scored = None
        try:
            if points_only and self.checked is not None:
                self.checked["points"] = draft.takers_points()
            else:
                self.checked = None
                self.checked = validate(draft.rules, draft.record())
            self.scored = app.table.trial(self.checked, self.index, True)
        except (RecordError, GameError) as e:
            self.error = e
        on_demand.release("coinche.record")  # the check's code, loaded for it: off the heap until the next one

    # -- keys
    def key(self, ev):
        if self.capot_question is not None:
            return self._capot_key(ev)
        if self.meld_team is not None:
            return self._pick_key(ev)
        if is_key(ev, BACK):
            self.retreat()
            return
        step = self.step  # one method per step
        if step == S_TAKER:
            self._key_taker(ev)
        elif step == S_BID:
            self._key_bid(ev)
        elif step == S_TENS:
            self._key_tens(ev)
        elif step == S_MELDS_TO:
            self._key_melds_to(ev)
        elif step == S_CONFIRM:
            self._key_confirm(ev)

    def _key_taker(self, ev):
        """UP NS took, DOWN EW took, OK the taker kept."""
        draft = self.draft
        self._ctx = None
        if is_key(ev, UP):
            draft.taker = "NS"
        elif is_key(ev, DOWN):
            draft.taker = "EW"
        elif not is_key(ev, OK):
            return
        self.advance()

    def _key_tens(self, ev):
        """UP/DOWN the card points' tens (held: stop at the ends), OK the check step, held OK the other pile."""
        draft = self.draft
        if is_key(ev, OK, LONG):
            draft.touched = True
            draft.set_pile("D" if draft.pile == "T" else "T")  # count the other pile, same total
            self._rows = None
            self.app.show_message(self.app.texts["defence"] if draft.pile == "D" else self.app.texts["takers"])
            return
        move = up_down(ev)
        if move:
            draft.touched = True
            items = draft.tens_items()
            i = wrap_or_stop(items.index(draft.tens) if draft.tens in items else 0, move, len(items),
                             ev >> 2 == PRESS)
            was_num = isinstance(draft.tens, int)
            draft.tens = items[i]
            if was_num != isinstance(draft.tens, int):
                self._stepno_s = None
            if draft.tens == 16 and draft.units > 2:
                draft.units = 2
        elif is_key(ev, OK):
            self.advance()

    def _key_melds_to(self, ev):
        """Whose melds are best: UP NS, DOWN EW, OK nobody (or the team chosen), held OK nobody."""
        draft = self.draft
        if is_key(ev, UP):
            draft.melds_to = "NS"
        elif is_key(ev, DOWN):
            draft.melds_to = "EW"
        elif is_key(ev, OK):
            if draft.melds_to == "auto":  # nothing chosen yet: OK means nobody
                draft.melds_to = None
        elif is_key(ev, OK, LONG):
            draft.melds_to = None  # nobody, even after a team was chosen
        else:
            return
        self.goto(S_CONFIRM)

    def _key_bid(self, ev):
        """UP/DOWN the contract, OK next, held OK its type (NT, AT), held BACK the coinche."""
        draft = self.draft
        step = up_down(ev)
        if step:
            items = draft.bid_items()
            was = draft.bid
            draft.bid = items[wrap_or_stop(items.index(was) if was in items else 1, step, len(items), True)]
            if (was == "pass") != (draft.bid == "pass"):
                self._stepno_s = self._ctx = self._rows = None
            # points follow the bid until the player sets them; a capot or
            # generale bid (or leaving one) brings its own default
            if not draft.touched or not isinstance(was, int) or not isinstance(draft.bid, int):
                draft.tens = draft.default_tens()
                draft.units = 0
                draft.touched = False  # a default again: it follows the bid
        elif is_key(ev, OK):
            self.advance()
        elif is_key(ev, OK, LONG):
            kinds = draft.kinds()
            if len(kinds) > 1:  # the contract type is part of the contract: 100, 100 NT, 100 AT
                draft.kind = kinds[(kinds.index(draft.kind) + 1) % len(kinds)]
                self._ctx = None
        elif is_key(ev, BACK, LONG) and draft.bid != "pass":  # the coinche, as the table says it
            if len(draft.coinche_items()) == 1:
                draft.coinche = 0  # a capot bid where the preset forbids its coinche
                self.app.show_message(self.app.texts["e_capot_coinche"])
            else:
                draft.coinche = (draft.coinche + 1) % 3

    def _key_confirm(self, ev):
        """UP/DOWN the card points by one, OK save, held OK / held BACK the NS / EW announces."""
        draft = self.draft
        app = self.app
        step = up_down(ev)
        if step:
            if draft.has_points():  # the card points: a press wraps, a held key stops at the ends; scored live
                self._show_points(step, ev >> 2 == PRESS)
            elif draft.bid != "pass":
                app.show_message(app.texts["e_no_points"])  # capot, defence capot, generale: no card points
        elif is_key(ev, OK, LONG) or is_key(ev, BACK, LONG):
            if draft.bid != "pass":  # held OK: NS announce, held BACK: EW (their keys on home)
                self._open_picker("NS" if is_key(ev, OK, LONG) else "EW")
        elif is_key(ev, OK):
            if draft.melds_unsettled():
                self.goto(S_MELDS_TO)  # equal best melds: the table says whose count
            elif self.error is not None:
                app.show_message(app.texts["e_field"])
            elif not self._ask_capot():
                self._save()

    def _save(self):
        back = self.back_to
        self.app.save_deal(self.draft.record(), self.index, back.back if self.index is not None and back else None)

    def _ask_capot(self):
        """On saving card points of 162 or 0 (every trick one way, by the usual slip of the
        units), ask once whether it was a capot. True: the question is open."""
        draft = self.draft
        if self.capot_asked or not draft.has_points():
            return False
        points = draft.takers_points()
        if points != 162 and points != 0:
            return False
        self.capot_asked = True
        texts = self.app.texts
        self.capot_special = ALL if points == 162 else DEF_ALL
        self.capot_question = texts["q_capot"] if points == 162 else texts["q_def_capot"]
        self.capot_answer_ok = "OK: " + (texts["all_tricks"] if points == 162 else texts["def_all"])
        self.capot_answer_back = "< " + texts["keep_points"] + " " + str(draft.points_entered())
        return True

    def _capot_key(self, ev):
        """The capot question: OK saves a capot (or the defence's), BACK the points as entered."""
        if is_key(ev, OK):
            draft = self.draft
            draft.tens = self.capot_special
            draft.units = 0
            self.capot_question = None
            self._touch()
            self._save()
        elif is_key(ev, BACK):
            self.capot_question = None
            self._save()

    def _open_picker(self, team):
        draft = self.draft
        items = draft.announce_items(team)
        if not items:  # nothing this team can announce in this contract: why, in words
            texts = self.app.texts
            if draft.kind == "NT":
                self.app.show_message(texts["e_no_belote_nt"])
            elif draft.rules["belote"] == "taker" and team != draft.taker:
                self.app.show_message(texts["e_belote_takers"])  # the defence's hold, where only takers have one
            else:
                self.app.show_message(texts["e_no_belote"])
            return
        if not draft.rules.has_melds() and len(items) == 1:
            draft.announce(team, items[0])  # the belote is all there is: the hold toggles it
            self.goto(S_CONFIRM)
            return
        self.meld_team = team
        self.more = False  # a fresh picker for every team and every visit
        self.pick = 0

    def _take(self, item):
        """Apply the picked announce and leave the picker."""
        self.draft.announce(self.meld_team, item)
        self.meld_team = None
        self.more = False
        self.goto(S_MELDS_TO if item == BEST else S_CONFIRM)

    def _pick_key(self, ev):
        s = up_down(ev)
        choices = self._picker(self.meld_team)[0]
        if self.more:  # the list of the other announces
            others = choices[3]
            if s:  # list order: UP goes up the list
                self.pick = wrap_or_stop(self.pick, -s, len(others), ev >> 2 == PRESS)
            elif is_key(ev, OK):
                self._take(others[self.pick])
            elif is_key(ev, BACK):
                self.more = False  # back to the three-way screen
            return
        item = None
        if is_key(ev, UP):
            item = choices[0]
        elif is_key(ev, DOWN):
            item = choices[1]
        elif is_key(ev, OK, LONG):
            item = choices[2]
        elif is_key(ev, OK):
            if choices[3]:
                self.more = True
                self.pick = 0
            return
        elif is_key(ev, BACK):
            self.meld_team = None
            self._picker_texts = None  # the confirm step does not need them (they are rebuilt on a hold)
            return
        if item is not None:
            self._take(item)

    # -- drawing
    def _stepno(self):
        """'1/2' on the contract ... None on the card points by tens, a side screen of the check step."""
        if self.step == S_TENS:
            return None
        if self._stepno_s is None:
            steps = self.draft.steps()
            i = steps.index(self.step) if self.step in steps else len(steps) - 1
            self._stepno_s = "%d/%d" % (i + 1, len(steps))
        return self._stepno_s

    def context(self):
        """The contract so far with its coinche, e.g. 'NS 100 SA x2' (compact when long)."""
        if self._ctx is None:
            self._ctx = contract_text(self.app, self.draft.record())
        return self._ctx

    def _picker(self, team):
        """(choices, rows, title, hold) of team's announce picker, built when it opens and
        kept while it is open: choices as Draft.announce_choices (UP, DOWN, held OK, the
        others), rows the texts of the others."""
        kept = self._picker_texts
        if kept is not None and kept[0] == team:
            return kept[1]
        texts = self.app.texts
        draft = self.draft
        items = draft.announce_choices(team)
        rows = []
        for it in items[3]:
            if it == REMOVE_BELOTE:
                rows.append("- " + texts["belote"])
            elif isinstance(it, int):
                rows.append("- " + texts[draft.melds[team][it]])
            elif it == BEST:
                rows.append(texts["t_melds_to"])
            else:
                rows.append(texts[it])
        title = texts["t_pick_meld"] + " " + self.app.team_name(team)
        if len(title) > 16:  # a long team name: "Nordsud add"
            title = self.app.team_name(team) + " " + texts["add"]
        hold = None
        if items[2]:  # held OK: "hold OK: Quarte" ("tenir OK:Cinquante" where a space leaves no room)
            hold = texts["home_hold"] + " " + texts[items[2]]
            if len(hold) > 16:
                hold = texts["home_hold"] + texts[items[2]]
        p = (items, rows, title, hold)
        self._picker_texts = (team, p)
        return p

    # every key's action in words, all at once
    def draw(self, layout):
        if self.capot_question is not None:
            # OK's answer on the detail line, BACK's on the keys' line
            layout.ask(self.capot_question, self.capot_answer_ok, self.capot_answer_back)
        elif self.meld_team is not None:
            self._draw_announces(layout)
        elif self.step == S_TAKER:  # one method per step
            self._draw_taker(layout)
        elif self.step == S_BID:
            self._draw_bid(layout)
        elif self.step == S_TENS:
            self._draw_tens(layout)
        elif self.step == S_MELDS_TO:
            self._draw_melds_to(layout)
        elif self.step == S_CONFIRM:
            self._draw_confirm(layout)

    def _draw_taker(self, layout):
        app = self.app
        layout.choice3(app.texts["t_taker"], self._stepno(), (app.team_name("NS"), "NS"),
                       (app.texts["keep"], "keep"), (app.team_name("EW"), "EW"), self.draft.taker, self.context())

    def _draw_bid(self, layout):
        """The contract, its type and coinche; the taker's line under it."""
        draft = self.draft
        texts = self.app.texts
        b = draft.bid
        if b == "pass":  # nobody took: no taker's line under "All passed"
            self._ctx = ""
        if self._ctx is None:
            name = self.app.team_name(draft.taker)
            ctx = name + " " + texts["took"]
            if len(draft.kinds()) > 1:
                kind = texts["k_" + draft.kind] if draft.kind != "suit" else texts["suit"]
                ctx += " " + kind
                if len(ctx) > 16:  # a long team name: the contract type matters more
                    ctx = name + " " + kind
            self._ctx = ctx
        coinche = draft.coinche_level()
        if isinstance(b, int):
            lab = texts["k_" + draft.kind] if draft.kind != "suit" else None
            if coinche:
                lab = (lab + " " if lab else "") + _COINCHE[coinche]
            layout.picker(texts["t_bid"], self._stepno(), b, lab, self._ctx, self._key_rows())
        else:
            lab = texts[b]
            if coinche:
                lab = lab + " " + _COINCHE[coinche]
            layout.picker(texts["t_bid"], self._stepno(), None, lab, self._ctx, self._key_rows())

    def _draw_tens(self, layout):
        draft = self.draft
        texts = self.app.texts
        title = texts["t_points"] if draft.pile == "T" else texts["t_pile_def"]
        if isinstance(draft.tens, int):
            v = draft.points_entered()
            layout.picker(title, self._stepno(), v, None, self.context(), self._key_rows())
            layout.mark_digits(v, False)
        else:
            lab = {ALL: texts["all_tricks"], DEF_ALL: texts["def_all"], SOLO: texts["solo"]}[draft.tens]
            layout.picker(title, self._stepno(), None, lab, self.context(), self._key_rows())

    def _draw_melds_to(self, layout):
        texts = self.app.texts
        cur = self.draft.melds_to if self.draft.melds_to != "auto" else None
        ns, ew = (self.app.team_name("NS"), "NS"), (self.app.team_name("EW"), "EW")
        if cur is None:
            layout.choice3(texts["t_melds_to"], self._stepno(), ns, (texts["nobody"], None), ew, cur, None)
        else:  # OK keeps the team chosen; held OK: nobody
            layout.choice3(texts["t_melds_to"], self._stepno(), ns, (texts["keep"], None), ew, cur,
                           texts["hold_ok_nobody"])

    def _draw_announces(self, layout):
        texts = self.app.texts
        choices, rows, title, hold = self._picker(self.meld_team)
        if self.more:
            layout.listing(title, rows, self.pick, max(0, min(self.pick - 2, len(rows) - layout.ROWS)))
            return
        up, down = choices[0], choices[1]  # values 1, 2, 3: none of them is highlighted (0)
        layout.choice3(title, None, (texts[up] if up else "-", 1), (texts["others"] if rows else "-", 2),
                       (texts[down] if down else "-", 3), 0, hold)

    def _key_rows(self):
        """The keys of the contract and card-points steps in words, all shown at once: the
        arrows, OK and BACK first, then each hold the step has (built once per change)."""
        if self._rows is None:
            texts = self.app.texts
            draft = self.draft
            keys = texts["h_step_keys"]
            if self.step == S_BID:
                kind = texts["h_hold_kind"] if len(draft.kinds()) > 1 else None
                coinche = texts["h_hold_coinche"] if draft.bid != "pass" else None
                self._rows = (keys, kind, coinche) if kind and coinche else (keys, kind or coinche) if kind or coinche else keys
            else:
                self._rows = (keys, texts["h_pile_def"] if draft.pile == "T" else texts["h_pile_takers"])
        return self._rows

    def _show_points(self, direction, wrap):
        """The confirm step's card points one up or down (direction +1 or -1), scored at once. The value
        shown before is kept (its score and texts, swapped with the current ones), so going
        back and forth between two values allocates nothing; any other change of the
        draft forgets it."""
        draft = self.draft
        shown = draft.points_entered() if self.confirm_texts is not None else None  # None: texts never built
        if not draft.step_points(direction, wrap):
            return  # held at an end: nothing to score again
        back = self.kept_points is not None and self.kept_points == draft.points_entered()
        self.kept_points = shown
        self.kept_error, self.error = self.error, self.kept_error
        self.kept_scored, self.scored = self.scored, self.kept_scored
        self.kept_texts, self.confirm_texts = self.confirm_texts, self.kept_texts
        if not back:  # a value not kept: scored now, its texts built at the next draw
            self.confirm_texts = None
            self._evaluate(True)
        if shown is None:
            self.kept_points = self.kept_error = self.kept_scored = self.kept_texts = None

    def _draw_confirm(self, layout):
        if self.confirm_texts is None:  # built once per change of the draft, by code loaded for it
            self.confirm_texts = on_demand.load("screens.confirm_texts").build(self)
            on_demand.release("screens.confirm_texts")
        # a tuple, not an object of a class of ours: neither the class's code nor a dict per texts on the heap
        title, verdict, detail, melds_sum, rows, back, mark = self.confirm_texts
        texts = self.app.texts
        if self.error is not None:
            e = self.error
            layout.confirm(title=title, verdict=verdict, detail="", ns_label="", ns=0, ew_label="", ew=0,
                           ns_total=0, ew_total=0, hint=texts["h_step_keys"],
                           error=(texts["e_field"], texts.get("f_" + e.field, e.field)))
            return
        if melds_sum is not None:  # the melds' sum when the detail line has no room for both
            detail = melds_sum if not detail else detail
        r, tot, _ = self.scored
        app = self.app
        # title, verdict, detail, each team's name, deal score and total, the keys, no error
        layout.confirm(title=title, verdict=verdict, detail=detail, ns_label=app.team_name("NS"),
                       ns=r.score["NS"], ew_label=app.team_name("EW"), ew=r.score["EW"], ns_total=tot["NS"],
                       ew_total=tot["EW"], hint=rows, made=r.made, mark_units=mark, back=back)

