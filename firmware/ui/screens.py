"""The screen state machine: each screen turns events into changes and draws itself.

Key map everywhere: UP/DOWN move or choose, OK confirms (held: the screen's
second action), BACK steps back and never loses what was entered.
Home: UP = NS took, DOWN = EW took, OK = menu, BACK = undo the last deal.
"""
from coinche.game import GameError
from coinche.melds import credited
from coinche.record import RecordError, other, validate
from ui import entry as E
from ui.inputs import BACK, DOWN, LONG, OK, PRESS, REPEAT, UP
from ui.text import first_that_fits, width


def _step(ev):
    """+1 for UP, -1 for DOWN (press or repeat), 0 otherwise."""
    k = ev >> 2
    if k == PRESS or k == REPEAT:
        b = ev & 3
        if b == UP:
            return 1
        if b == DOWN:
            return -1
    return 0


def _is(ev, button, kind=PRESS):
    return ev == ((kind << 2) | button)


class Screen:
    """A screen; BACK returns to back_to (the screen that opened it), or home when there
    is none (home and game over answer BACK otherwise: they never call back())."""

    name = "screen"

    def __init__(self, app, back_to=None):
        self.app = app
        self.back_to = back_to

    def back(self):
        if self.back_to is not None:
            self.app.go(self.back_to)
        else:
            self.app.home()

    def key(self, ev):
        pass

    def draw(self, L):
        pass


class Home(Screen):
    name = "home"

    def key(self, ev):
        a = self.app
        if _is(ev, UP):
            a.start_entry("NS")
        elif _is(ev, DOWN):
            a.start_entry("EW")
        elif _is(ev, OK):
            a.go(Menu(a))
        elif _is(ev, BACK):
            a.ask_undo(self)
        elif _is(ev, OK, LONG):
            from ui.history_screens import History
            a.go(History(a))

    def __init__(self, app):
        Screen.__init__(self, app)
        self._line = None
        self._version = -1

    def last_line(self):
        """The last deal's contract ('Nous 100 SA x2', 'Tous passent'), or the target before
        the first deal; built once per confirmed change, so a redraw allocates nothing."""
        a = self.app
        if self._line is None or self._version != a.version:
            g = a.game
            T = a.T
            if g.deals:
                self._line = contract_text(a, g.deals[-1])
            else:
                self._line = T["game_to"] + " " + str(g.rules["target"])
            self._version = a.version
        return self._line

    def draw(self, L):
        L.home(self.app, self.last_line())


class ListScreen(Screen):
    """A scrolling list; subclasses give rows() and pick()."""

    wrap = True

    def __init__(self, app, back_to=None, sel=0):
        Screen.__init__(self, app, back_to)
        self.sel = sel
        self.top = 0
        self._rows = None
        self._ver = -1

    def cached_rows(self):
        """rows(), rebuilt only after a confirmed change (app.version): moving in a list allocates nothing."""
        v = self.app.version
        if self._rows is None or self._ver != v:
            self._rows = self.rows()
            self._ver = v
        return self._rows

    def rows(self):
        return []

    def title(self):
        return ""

    def right(self):
        return None

    def hint(self):
        return None

    def pick(self, i):
        pass

    def key(self, ev):
        n = len(self.cached_rows())
        if self.sel >= n:  # the list shrank (a deal was deleted)
            self.sel = max(0, n - 1)
        d = -_step(ev)  # UP moves the highlight up the list
        if d and n:
            if self.wrap and (ev >> 2) == PRESS:
                self.sel = (self.sel + d) % n
            else:
                self.sel = min(n - 1, max(0, self.sel + d))
        elif _is(ev, OK) and n:
            self.pick(self.sel)
        elif _is(ev, BACK):
            self.back()

    def scroll(self, count, shown):
        """Keep the highlight on one of count rows (the list may have shrunk) and inside the
        window of shown rows that starts at top."""
        if self.sel >= count:
            self.sel = max(0, count - 1)
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + shown:
            self.top = self.sel - shown + 1

    def draw(self, L):
        rows = self.cached_rows()
        self.scroll(len(rows), L.ROWS)
        L.listing(self.title(), rows, self.sel, self.top, self.right(), self.hint())


class RecordList(ListScreen):
    """A list of two-line records under the team names (layout.records()): the deals of a
    game, the past games."""

    wrap = False

    def draw(self, L):
        rows = self.cached_rows()
        self.scroll(len(rows), L.RECORD_ROWS)
        a = self.app
        L.records(a.team_name("NS"), a.team_name("EW"), rows, self.sel, self.top)


class Menu(ListScreen):
    name = "menu"
    ITEMS = ("m_pass", "m_history", "m_undo", "m_settings", "m_chart", "m_stats", "m_dealer", "m_new", "m_games")

    def title(self):
        return "Menu"

    def rows(self):
        T = self.app.T
        return [T[k] for k in self.ITEMS]

    def pick(self, i):
        a = self.app
        k = self.ITEMS[i]
        if k == "m_pass":
            a.save_deal({"bid": "pass"}, None)
        elif k == "m_history":
            from ui.history_screens import History
            a.go(History(a))
        elif k == "m_undo":
            a.ask_undo(self)
        elif k == "m_settings":
            from ui.settings_screens import Settings
            a.go(Settings(a))
        elif k == "m_new":
            a.go(Ask(a, a.T["m_new"], None, a.new_game, self))
        elif k == "m_games":
            from ui.past_games_screen import Archive
            a.go(Archive(a))
        elif k == "m_dealer":
            from ui.settings_screens import ValuePicker
            a.go(ValuePicker(a, "m_dealer", self))
        elif k == "m_chart":
            from ui.chart import Chart
            a.go(Chart(a, self))
        elif k == "m_stats":
            from ui.stats import Stats
            a.go(Stats(a, self))


class Ask(Screen):
    """A yes/no question: OK does it, BACK returns."""

    name = "ask"

    def __init__(self, app, question, detail, action, back_to):
        Screen.__init__(self, app, back_to)
        self.q = question
        self.detail = detail
        self.action = action

    def key(self, ev):
        if _is(ev, OK):
            self.action()
        elif _is(ev, BACK):
            self.back()

    def draw(self, L):
        L.ask(self.q, self.detail, "OK / <")


def contract_text(app, rec, taker=True, compact=False):
    """'NS 100 SA x2': a deal's contract (taker: with the taking team's name first;
    compact: '100SAx2', no spaces, 'Gén.' for 'Générale'). With the taker's name, a
    text longer than a 128x64 line is given compact."""
    T = app.T
    if rec["bid"] == "pass":
        return T["passed"]
    b = rec["bid"]
    s = str(b) if isinstance(b, int) else T[b + "_short" if compact else b]
    sep = "" if compact else " "
    t = rec.get("trump")
    if t in ("NT", "AT"):
        s += sep + T["k_" + t]
    c = rec.get("coinche", 0)
    if c:
        s += sep + "x" + str(2 * c)
    if taker:
        s = app.team_name(rec["taker"]) + " " + s
        if not compact and len(s) > 16:
            return contract_text(app, rec, True, True)
    return s


# -- deal entry ----------------------------------------------------------------

_COINCHE = ("", "x2", "x4")  # the coinche levels as every screen writes them


def _fit(*texts):
    """The first of texts that fits one line of the 128x64 screen (the last one anyway)."""
    return first_that_fits(texts, 128)


def _belote_label(app, b):
    """'Belote NS', 'Belote NS x2 EO' ... for (NS, EW) counts, with the team names
    ('Belote 1-1' when long names do not fit); '' for none."""
    if b == (0, 0):
        return ""
    s = app.T["belote"]
    for team, n in (("NS", b[0]), ("EW", b[1])):
        if n:
            s += " " + app.team_name(team) + ((" x%d" % n) if n > 1 else "")
    return _fit(s, "%s %d-%d" % (app.T["belote"], b[0], b[1]))


class Entry(Screen):
    """Walks the steps of a Draft. index is None for a new deal, else the deal edited.

    The contract step sets the bid (UP/DOWN), its type (held OK) and the coinche
    (held BACK). The last step checks and saves: it shows the deal as it will be
    scored, UP/DOWN set the units of the card points there, and a held OK / held
    BACK opens the NS / EW announce picker (a three-way screen: UP belote, DOWN
    tierce, held OK quarte, OK the others: quinte, carres, whose melds are best,
    removals; with a belote the only possible announce, the hold toggles it)."""

    def __init__(self, app, draft, index=None, back_to=None):
        Screen.__init__(self, app, back_to)
        self.d = draft
        self.index = index
        self.step = draft.steps()[0]
        self.meld_team = None  # set while the announce picker is open
        self.more = False      # the picker's list of the other announces is open
        self.pick = 0          # that list's highlighted row
        self.error = None
        self._result = None
        self._ctx = None  # texts derived from the draft, rebuilt only after a key changes it
        self._stepno_s = None
        self._confirm = None
        self._title = None  # the confirm step's title (the units do not change it)
        # the confirm step's units value shown before and its error, result and texts, swapped
        # in place (units None: nothing kept), so UP/DOWN back and forth allocates nothing
        self._units_kept = [None, None, None, None]
        self._checked = None  # the record last scored there, as validate() returned it
        self._holds = None  # the confirm step's (NS, EW): does the team's hold key open its announces?
        self._picker_texts = None  # (team, (choices, rows, title, hold)) of the open picker

    @property
    def name(self):
        if self.meld_team:
            return "entry-meld-list" if self.more else "entry-meld"
        return "entry-" + self.step

    # -- navigation
    def _touch(self):
        """Forget the texts derived from the draft (they are rebuilt at the next draw)."""
        self._ctx = self._stepno_s = self._confirm = self._title = self._checked = self._holds = None
        self._picker_texts = None
        kept = self._units_kept
        kept[0] = kept[1] = kept[2] = kept[3] = None

    def goto(self, step):
        self._touch()
        self.step = step
        if step == E.S_CONFIRM:
            self._evaluate()

    def advance(self):
        steps = self.d.steps()
        i = steps.index(self.step)
        self.goto(steps[min(i + 1, len(steps) - 1)])

    def retreat(self):
        self._touch()
        if self.step == E.S_MELDS_TO:  # asked from the confirm step: back there
            self.d.ask_melds_to = False  # left without a choice
            self.goto(E.S_CONFIRM)
            return
        steps = self.d.steps()
        i = steps.index(self.step)
        if i == 0:
            self.back()
            return
        self.step = steps[i - 1]

    def _evaluate(self, units_only=False):
        """Score the draft as it would be saved; keep any error to show it. units_only:
        only the card points' units changed since the last evaluation: its checked
        record is scored again with the new points (nothing else of a record depends
        on them, and 0..162 is always valid)."""
        a = self.app
        d = self.d
        self.error = None
        self._result = None
        try:
            if units_only and self._checked is not None:
                self._checked["points"] = d.takers_points()
            else:
                self._checked = None
                self._checked = validate(d.rules, d.record())
            self._result = a.trial(self._checked, self.index, True)
        except (RecordError, GameError) as e:
            self.error = e

    # -- keys
    def key(self, ev):
        d = self.d
        a = self.app
        T = a.T
        st = self.step
        if self.meld_team is not None:
            return self._pick_key(ev)
        if _is(ev, BACK):
            self.retreat()
            return
        s = _step(ev)
        if st == E.S_TAKER:
            self._ctx = None
            if _is(ev, UP):
                d.taker = "NS"
                self.advance()
            elif _is(ev, DOWN):
                d.taker = "EW"
                self.advance()
            elif _is(ev, OK):
                self.advance()
        elif st == E.S_BID:
            if s:
                items = d.bid_items()
                i = items.index(d.bid) if d.bid in items else 1
                was = d.bid
                d.bid = items[(i + s) % len(items)]
                if (was == "pass") != (d.bid == "pass"):
                    self._stepno_s = None
                # points follow the bid until the player sets them; a capot or
                # generale bid (or leaving one) brings its own default
                if not d.touched or not isinstance(was, int) or not isinstance(d.bid, int):
                    d.tens = d.default_tens()
                    d.units = 0
                    d.touched = False  # a default again: it follows the bid
            elif _is(ev, OK):
                self.advance()
            elif _is(ev, OK, LONG):
                kinds = d.kinds()
                if len(kinds) > 1:  # the contract type is part of the contract: 100, 100 NT, 100 AT
                    d.kind = kinds[(kinds.index(d.kind) + 1) % len(kinds)]
                    self._ctx = None
            elif _is(ev, BACK, LONG):  # the coinche, as the table says it during the bidding
                if d.bid == "pass":
                    return
                if len(d.coinche_items()) == 1:
                    d.coinche = 0  # a capot bid where the preset forbids its coinche
                    a.flash(T["e_capot_coinche"])
                else:
                    d.coinche = (d.coinche + 1) % 3
        elif st == E.S_TENS and _is(ev, OK, LONG):
            d.touched = True
            d.set_pile("D" if d.pile == "T" else "T")  # count the other pile, same total
            a.flash(T["defence"] if d.pile == "D" else T["takers"])
        elif st == E.S_TENS:
            if s:
                d.touched = True
                items = d.tens_items()
                i = items.index(d.tens) if d.tens in items else 0
                if ev >> 2 == PRESS:
                    i = (i + s) % len(items)
                else:  # held: stop at the ends instead of spinning round
                    i = min(len(items) - 1, max(0, i + s))
                was_num = isinstance(d.tens, int)
                d.tens = items[i]
                if was_num != isinstance(d.tens, int):
                    self._stepno_s = None
                if d.tens == 16 and d.units > 2:
                    d.units = 2
            elif _is(ev, OK):
                self.advance()
        elif st == E.S_MELDS_TO:
            if _is(ev, UP):
                d.melds_to = "NS"
                self.goto(E.S_CONFIRM)
            elif _is(ev, DOWN):
                d.melds_to = "EW"
                self.goto(E.S_CONFIRM)
            elif _is(ev, OK):
                if d.melds_to == "auto":  # nothing chosen yet: OK means nobody
                    d.melds_to = None
                self.goto(E.S_CONFIRM)  # else OK keeps the team already chosen
            elif _is(ev, OK, LONG):
                d.melds_to = None  # nobody, even after a team was chosen
                self.goto(E.S_CONFIRM)
        elif st == E.S_CONFIRM:
            if s:
                if d.has_units():  # the card points' units, wrapping both ways; scored live
                    self._show_units(s)
                elif d.bid != "pass":
                    a.flash(T["e_no_units"])  # capot, defence capot, generale: no card points to set
            elif _is(ev, OK, LONG) or _is(ev, BACK, LONG):
                if d.bid != "pass":  # held OK: NS announce, held BACK: EW (their keys on home)
                    self._open_picker("NS" if _is(ev, OK, LONG) else "EW")
            elif _is(ev, OK):
                if d.melds_unsettled():
                    self.goto(E.S_MELDS_TO)  # equal best melds: the table says whose count
                    return
                if self.error is not None:
                    a.flash(T["e_field"])
                    return
                a.save_deal(d.record(), self.index)

    def _open_picker(self, team):
        d = self.d
        items = d.announce_items(team)
        if not items:  # nothing this team can announce in this contract
            self.app.flash(self.app.T["e_no_belote_nt"] if d.kind == "NT" else self.app.T["e_no_belote"])
            return
        if not d.rules.has_melds() and len(items) == 1:
            d.announce(team, items[0])  # the belote is all there is: the hold toggles it
            self.goto(E.S_CONFIRM)
            return
        self.meld_team = team
        self.more = False  # a fresh picker for every team and every visit
        self.pick = 0

    def _take(self, item):
        """Apply the picked announce and leave the picker."""
        self.d.announce(self.meld_team, item)
        self.meld_team = None
        self.more = False
        self.goto(E.S_MELDS_TO if item == E.BEST else E.S_CONFIRM)

    def _pick_key(self, ev):
        s = _step(ev)
        choices = self._picker(self.meld_team)[0]
        if self.more:  # the list of the other announces
            others = choices[3]
            if s:
                if (ev >> 2) == PRESS:
                    self.pick = (self.pick - s) % len(others)  # list order: UP goes up the list
                else:
                    self.pick = min(len(others) - 1, max(0, self.pick - s))
            elif _is(ev, OK):
                self._take(others[self.pick])
            elif _is(ev, BACK):
                self.more = False  # back to the three-way screen
            return
        item = None
        if _is(ev, UP):
            item = choices[0]
        elif _is(ev, DOWN):
            item = choices[1]
        elif _is(ev, OK, LONG):
            item = choices[2]
        elif _is(ev, OK):
            if choices[3]:
                self.more = True
                self.pick = 0
            return
        elif _is(ev, BACK):
            self.meld_team = None
            self._picker_texts = None  # the confirm step does not need them (they are rebuilt on a hold)
            return
        if item is not None:
            self._take(item)

    # -- drawing
    def _stepno(self):
        if self._stepno_s is None:
            steps = self.d.steps()
            i = steps.index(self.step) if self.step in steps else len(steps) - 1
            self._stepno_s = "%d/%d" % (i + 1, len(steps))
        return self._stepno_s

    def context(self):
        """The contract so far, e.g. 'NS 100 SA'."""
        if self._ctx is None:
            d = self.d
            T = self.app.T
            b = d.bid
            s = self.app.team_name(d.taker) + " " + (str(b) if isinstance(b, int) else T[b])
            if d.kind != "suit":
                s += " " + T["k_" + d.kind]
            self._ctx = s
        return self._ctx

    def _picker(self, team):
        """(choices, rows, title, hold) of team's announce picker, built when it opens and
        kept while it is open: choices as Draft.announce_choices (UP, DOWN, held OK, the
        others), rows the texts of the others."""
        kept = self._picker_texts
        if kept is not None and kept[0] == team:
            return kept[1]
        T = self.app.T
        d = self.d
        items = d.announce_choices(team)
        rows = []
        for it in items[3]:
            if it == E.REMOVE_BELOTE:
                rows.append("- " + T["belote"])
            elif isinstance(it, int):
                rows.append("- " + T[d.melds[team][it]])
            elif it == E.BEST:
                rows.append(T["t_melds_to"])
            else:
                rows.append(T[it])
        title = T["t_pick_meld"] + " " + self.app.team_name(team)
        if len(title) > 16:  # a long team name: "Nordsud add"
            title = self.app.team_name(team) + " " + T["add"]
        hold = "OK+ " + T[items[2]] if items[2] else None  # held OK: "OK+ Quarte"
        p = (items, rows, title, hold)
        self._picker_texts = (team, p)
        return p

    def draw(self, L):
        d = self.d
        T = self.app.T
        st = self.step
        if self.meld_team is not None:
            choices, rows, title, hold = self._picker(self.meld_team)
            if self.more:
                L.listing(title, rows, self.pick, max(0, min(self.pick - 2, len(rows) - L.ROWS)))
                return
            up, down = choices[0], choices[1]  # values 1, 2, 3: none of them is highlighted (0)
            L.choice3(title, None, (T[up] if up else "-", 1), (T["others"] if rows else "-", 2),
                      (T[down] if down else "-", 3), 0, hold)
            return
        if st == E.S_TAKER:
            a = self.app
            L.choice3(T["t_taker"], self._stepno(), (a.team_name("NS"), "NS"), (T["keep"], "keep"),
                      (a.team_name("EW"), "EW"),
                      d.taker, self.context())
        elif st == E.S_BID:
            b = d.bid
            many = len(d.kinds()) > 1
            if self._ctx is None:
                name = self.app.team_name(d.taker)
                ctx = name + " " + T["took"]
                if many:
                    kind = T["k_" + d.kind] if d.kind != "suit" else T["suit"]
                    ctx += " " + kind
                    if len(ctx) > 16:  # a long team name: the contract type matters more
                        ctx = name + " " + kind
                self._ctx = ctx
            ctx = self._ctx
            if b != "pass" and len(d.coinche_items()) > 1:  # held BACK: coinche
                hint = T["hint_bid_kind"] if many else T["hint_bid"]
            else:
                hint = T["hold_ok_kind"] if many else "^v  OK >"
            coinche = d.coinche_level()
            if isinstance(b, int):
                lab = T["k_" + d.kind] if d.kind != "suit" else None
                if coinche:
                    lab = (lab + " " if lab else "") + _COINCHE[coinche]
                L.picker(T["t_bid"], self._stepno(), b, lab, ctx, hint)
            else:
                lab = T[b]
                if coinche:
                    lab = lab + " " + _COINCHE[coinche]
                L.picker(T["t_bid"], self._stepno(), None, lab, ctx, hint)
        elif st == E.S_TENS:
            title = T["t_points"] if d.pile == "T" else T["t_pile_def"]
            if isinstance(d.tens, int):
                v = d.points_entered()
                hint = T["hold_ok_pile"]
                L.picker(title, self._stepno(), v, None, self.context(), hint)
                L.mark_digits(v, False)
            else:
                lab = {E.ALL: T["all_tricks"], E.DEF_ALL: T["def_all"], E.SOLO: T["solo"]}[d.tens]
                L.picker(title, self._stepno(), None, lab, self.context(), "^v  OK >")
        elif st == E.S_MELDS_TO:
            cur = d.melds_to if d.melds_to != "auto" else None
            ns, ew = (self.app.team_name("NS"), "NS"), (self.app.team_name("EW"), "EW")
            if cur is None:
                L.choice3(T["t_melds_to"], self._stepno(), ns, (T["nobody"], None), ew, cur, None)
            else:  # OK keeps the team chosen; held OK: nobody
                L.choice3(T["t_melds_to"], self._stepno(), ns, (T["keep"], None), ew, cur, T["hold_ok_nobody"])
        elif st == E.S_CONFIRM:
            self._draw_confirm(L)

    def _verdict(self):
        """(verdict line, detail line) of the confirm step: made or failed with the card
        points entered (the pile counted: its units are set here, the layout marks
        the last digit) and the reason the scoring core gives
        (coinche.scoring.failure); capot and generale named; then, as far as the
        line holds them, the belote and whose melds score (coinche.melds.credited)."""
        T = self.app.T
        d = self.d
        r = self._result[0]
        if r.made is None:
            return T["passed"], ""
        parts = []
        if r.made:
            if d.tens == E.SOLO or d.tens == E.ALL:  # named: the big scores say it was made
                special = T["generale"] if d.tens == E.SOLO else T["capot"]
                line = _fit(T["made"] + ": " + special, special)
            else:
                line = self._points_line(T["made"])
        else:
            why, _, need = r.failure
            if d.tens == E.DEF_ALL or why == "tricks" or why == "solo":
                special = T["def_all"] if d.tens == E.DEF_ALL else T[d.bid]
                line = _fit(T["failed"] + ": " + special, special)
            else:
                line = self._points_line(T["failed"])
            parts.append(T["r_" + why] + (" " + str(need) if why == "beat" else ""))  # beat: the defence's figure
        if d.melds_unsettled():
            parts.append(T["t_melds_to"])
        bel = _belote_label(self.app, d.belote)
        if bel:
            parts.append(bel)
        team, pts = credited(d.rules, self._checked or d.record())
        if pts:
            parts.append(T["melds_short"] + " " + self.app.team_name(team) + " " + str(pts))
        detail = ""
        for p in parts:  # as many as one line of the 128x64 screen holds, in this order
            if width(detail + " " + p if detail else p) <= 128:
                detail = detail + " " + p if detail else p
        return line, detail

    def _holds_open_announces(self):
        """(NS, EW): can the team announce anything in this deal (its hold key then opens
        its picker)? Kept until the draft changes (the units do not change it)."""
        if self._holds is None:
            d = self.d
            self._holds = (d.bid != "pass" and bool(d.announce_items("NS")),
                           d.bid != "pass" and bool(d.announce_items("EW")))
        return self._holds

    def _points_line(self, verdict):
        """'Made 112', or for the defence's pile 'Made def. 50' ('def. 50' when that is
        too long): the card points as entered, their units digit last."""
        d = self.d
        v = str(d.points_entered())
        if d.pile == "T":
            return verdict + " " + v
        short = self.app.T["def_points"] + " " + v
        return _fit(verdict + " " + short, short)

    def _show_units(self, s):
        """The confirm step's units one up or down (s), scored at once. The value shown
        before is kept (its score and texts, swapped in place in _units_kept), so going
        back and forth between two values allocates nothing; any other change of the
        draft forgets it."""
        d = self.d
        kept = self._units_kept
        shown = d.units if self._confirm is not None else None  # None: its texts were never built
        d.step_units(s)
        back = kept[0] is not None and kept[0] == d.units
        kept[0] = shown
        kept[1], self.error = self.error, kept[1]
        kept[2], self._result = self._result, kept[2]
        kept[3], self._confirm = self._confirm, kept[3]
        if not back:  # a value not kept: scored now, its texts built at the next draw
            self._confirm = None
            self._evaluate(True)
        if shown is None:
            kept[1] = kept[2] = kept[3] = None

    def _draw_confirm(self, L):
        T = self.app.T
        d = self.d
        if self._confirm is None:
            if self._title is None:
                rec = d.record()
                title = contract_text(self.app, rec)
                if self.index is not None:
                    title = str(self.index + 1) + ": " + title
                self._title = _fit(title, contract_text(self.app, rec, compact=True),
                                   contract_text(self.app, rec, False))
            title = self._title
            verdict = detail = ""
            units = d.has_units()
            hint = T["save_units"] if units else T["save"]
            if self.error is None:
                verdict, detail = self._verdict()
                if self._result[2]:
                    hint = T["save_end_units"] if units else T["save_end"]  # this deal ends the game
            # each team's hold key marked where the hold opens its announces
            holds = self._holds_open_announces()
            mark = units and verdict != "" and "0" <= verdict[-1] <= "9"  # the units digit underlined
            self._confirm = (title, verdict, detail, hint, holds, mark)
        title, verdict, detail, hint, holds, mark = self._confirm
        if self.error is not None:
            e = self.error
            L.confirm(title, verdict, "", "", 0, "", 0, 0, 0, "<",
                      (T["e_field"], T.get("f_" + e.field, e.field)))
            return
        r, tot, _ = self._result
        a = self.app
        L.confirm(title, verdict, detail, a.team_name("NS"), r.score["NS"], a.team_name("EW"), r.score["EW"],
                  tot["NS"], tot["EW"], hint, None, r.made, holds, mark)


# -- game over -----------------------------------------------------------------------

class GameOver(Screen):
    name = "gameover"

    def key(self, ev):
        a = self.app
        if _is(ev, OK):
            a.new_game()
        elif _is(ev, DOWN):
            from ui.settings_screens import Settings
            a.go(Settings(a))
        elif _is(ev, UP):
            from ui.history_screens import History
            a.go(History(a))
        elif _is(ev, BACK):
            a.ask_undo(self)
        elif _is(ev, OK, LONG):  # the second action of OK: the game's chart (ui/chart.py)
            from ui.chart import Chart
            a.go(Chart(a, self))

    def draw(self, L):
        a = self.app
        T = a.T
        g = a.game
        line = a.team_name(g.winner) + " " + T["wins"] if g.winner in ("NS", "EW") else T["tie"]
        L.game_over(T["over"], line, a.team_name("NS"), g.total["NS"], a.team_name("EW"), g.total["EW"],
                    (T["over_keys1"], T["over_keys2"]))


__all__ = ("Home", "Menu", "Entry", "GameOver", "Ask", "other")
