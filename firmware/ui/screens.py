"""The screen state machine: each screen turns events into changes and draws itself.

Key map everywhere: UP/DOWN move or choose, OK confirms (held: the screen's
second action), BACK steps back and never loses what was entered.
Home: UP = NS took, DOWN = EW took, OK = menu, BACK = undo the last deal.
"""
from coinche.game import GameError
from coinche.record import RecordError, other
from coinche.rules import OPTIONS, ORDER, PRESET_NAMES, Rules
from ui import entry as E
from ui.inputs import BACK, DOWN, LONG, OK, PRESS, REPEAT, UP


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
    name = "screen"

    def __init__(self, app):
        self.app = app

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
            a.go(History(a))

    def draw(self, L):
        L.home(self.app)


class ListScreen(Screen):
    """A scrolling list; subclasses give rows() and pick()."""

    wrap = True

    def __init__(self, app, sel=0):
        Screen.__init__(self, app)
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

    def back(self):
        self.app.home()

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

    def draw(self, L):
        rows = self.cached_rows()
        if self.sel >= len(rows):
            self.sel = max(0, len(rows) - 1)
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + L.ROWS:
            self.top = self.sel - L.ROWS + 1
        L.listing(self.title(), rows, self.sel, self.top, self.right(), self.hint())


class Menu(ListScreen):
    name = "menu"
    ITEMS = ("m_pass", "m_history", "m_undo", "m_settings", "m_new", "m_games")

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
            a.go(History(a))
        elif k == "m_undo":
            a.ask_undo(self)
        elif k == "m_settings":
            a.go(Settings(a))
        elif k == "m_new":
            a.go(Ask(a, a.T["m_new"], None, a.new_game, self))
        elif k == "m_games":
            a.go(Archive(a))


class Ask(Screen):
    """A yes/no question: OK does it, BACK returns."""

    name = "ask"

    def __init__(self, app, question, detail, action, back_to):
        Screen.__init__(self, app)
        self.q = question
        self.detail = detail
        self.action = action
        self.back_to = back_to

    def key(self, ev):
        if _is(ev, OK):
            self.action()
        elif _is(ev, BACK):
            self.app.go(self.back_to)

    def draw(self, L):
        L.ask(self.q, self.detail, "OK / <")


def contract_text(T, rec, short=False):
    """'NS 100 SA x2' — a deal's contract in a few characters; short: 'EO 100SAx2'
    for a history row (the deal number is in the title)."""
    if rec["bid"] == "pass":
        return T["passed"]
    b = rec["bid"]
    sep = "" if short else " "
    s = T[rec["taker"]] + " " + (str(b) if isinstance(b, int) else T[b][:3] if short else T[b])
    t = rec.get("trump")
    if t in ("NT", "AT"):
        s += sep + T["k_" + t]
    c = rec.get("coinche", 0)
    if c:
        s += sep + "x" + str(2 * c)
    return s


class History(ListScreen):
    name = "history"
    wrap = False

    def __init__(self, app):
        n = len(app.game.deals)
        ListScreen.__init__(self, app, max(0, n - 1))

    def title(self):
        return self.app.T["m_history"]

    def right(self):
        n = len(self.app.game.deals)
        return "%d/%d" % (min(self.sel + 1, n), n)

    def rows(self):
        g = self.app.game
        T = self.app.T
        if not g.deals:
            return [T["no_deals"]]
        out = []
        for i in range(len(g.deals)):
            r = g.results[i]
            out.append((contract_text(T, g.deals[i], True), "%d-%d" % (r.score["NS"], r.score["EW"])))
        return out

    def pick(self, i):
        if self.app.game.deals:
            self.app.go(DealMenu(self.app, i))

    def back(self):
        self.app.home()


class DealMenu(ListScreen):
    name = "deal"

    def __init__(self, app, index):
        ListScreen.__init__(self, app)
        self.index = index

    def title(self):
        return self.app.T["deal"] + " " + str(self.index + 1)

    def rows(self):
        T = self.app.T
        g = self.app.game
        r = g.results[self.index]
        tot = g.totals_after(self.index)
        return [T["edit"], T["delete"], contract_text(T, g.deals[self.index]),
                (T["NS"] + " " + str(r.score["NS"]), T["EW"] + " " + str(r.score["EW"])),
                (T["total"], "%d %d" % (tot["NS"], tot["EW"]))]

    def pick(self, i):
        a = self.app
        if i == 0:
            a.go(Entry(a, E.Draft(a.game.rules, record=a.game.deals[self.index]), self.index, self))
        elif i == 1:
            a.go(Ask(a, a.T["del_q"] + " " + str(self.index + 1) + "?", contract_text(a.T, a.game.deals[self.index]),
                     lambda: a.delete_deal(self.index, History(a)), self))

    def back(self):
        h = History(self.app)
        h.sel = self.index
        self.app.go(h)


# -- deal entry ----------------------------------------------------------------

_COINCHE_KEYS = ("c0", "c1", "c2")


def _belote_label(T, b):
    """'Belote: NS', 'Belote: NSx2 EW' ... for (NS, EW) counts."""
    if b == (0, 0):
        return T["belote"] + ": " + T["none"]
    s = T["belote"] + ":"
    if b[0]:
        s += " " + T["NS"] + (("x%d" % b[0]) if b[0] > 1 else "")
    if b[1]:
        s += " " + T["EW"] + (("x%d" % b[1]) if b[1] > 1 else "")
    return s


class Entry(Screen):
    """Walks the steps of a Draft. index is None for a new deal, else the deal edited."""

    def __init__(self, app, draft, index=None, back_to=None):
        Screen.__init__(self, app)
        self.d = draft
        self.index = index
        self.back_to = back_to
        self.step = draft.steps()[0]
        self.meld_team = None  # set while the meld picker is open
        self.error = None
        self._result = None
        self._ctx = None  # texts derived from the draft, rebuilt only after a key changes it
        self._stepno_s = None
        self._extras = None
        self._melds = None
        self._confirm = None
        self._meld_rows = None

    @property
    def name(self):
        return "entry-" + (("meld" if self.meld_team else self.step))

    # -- navigation
    def _touch(self):
        """Forget the texts derived from the draft (they are rebuilt at the next draw)."""
        self._ctx = self._stepno_s = self._extras = self._melds = self._confirm = None

    def advance(self):
        self._touch()
        steps = self.d.steps()
        i = steps.index(self.step)
        self.step = steps[min(i + 1, len(steps) - 1)]
        if self.step == E.S_CONFIRM:
            self._evaluate()

    def retreat(self):
        self._touch()
        steps = self.d.steps()
        i = steps.index(self.step) if self.step in steps else 0
        if self.step == E.S_MELDS_TO and self.d.melds_to == "auto":
            self.d.ask_melds_to = False  # opened with a held OK, left without a choice
        if i == 0:
            if self.back_to is not None:
                self.app.go(self.back_to)
            else:
                self.app.home()
            return
        self.step = steps[i - 1]

    def _evaluate(self):
        """Score the draft as it would be saved; keep any error to show it."""
        a = self.app
        rec = self.d.record()
        self.error = None
        self._result = None
        try:
            self._result = a.trial(rec, self.index)
        except (RecordError, GameError) as e:
            self.error = e

    # -- keys
    def key(self, ev):
        d = self.d
        a = self.app
        T = a.T
        st = self.step
        if self.meld_team is not None:
            return self._meld_key(ev)
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
        elif (st == E.S_TENS or st == E.S_UNITS) and _is(ev, OK, LONG):
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
        elif st == E.S_UNITS:
            if s:
                d.touched = True
                d.units = (d.units + s) % len(d.units_items())
            elif _is(ev, OK):
                self.advance()
        elif st == E.S_EXTRAS:
            if _is(ev, UP) or _is(ev, UP, REPEAT):
                opts = d.coinche_items()
                if len(opts) == 1:
                    d.coinche = 0  # clears a coinche left from another bid
                    a.flash(T["e_capot_coinche"])
                else:
                    d.coinche = (d.coinche + 1) % 3
            elif _is(ev, DOWN) or _is(ev, DOWN, REPEAT):
                opts = d.belote_items()
                if len(opts) == 1:
                    d.belote = (0, 0)  # clears a belote left from another contract type
                    a.flash(T["e_no_belote_nt"] if d.kind == "NT" else T["e_no_belote"])
                else:
                    i = opts.index(d.belote) if d.belote in opts else -1
                    d.belote = opts[(i + 1) % len(opts)]
            elif _is(ev, OK):
                self.advance()
        elif st == E.S_MELDS:
            if _is(ev, UP):
                self.meld_team = "NS"
            elif _is(ev, DOWN):
                self.meld_team = "EW"
            elif _is(ev, OK):
                self.advance()
            elif _is(ev, OK, LONG):
                d.ask_melds_to = True
                self._touch()
                self.step = E.S_MELDS_TO
        elif st == E.S_MELDS_TO:
            if _is(ev, UP):
                d.melds_to = "NS"
                self.advance()
            elif _is(ev, DOWN):
                d.melds_to = "EW"
                self.advance()
            elif _is(ev, OK):
                if d.melds_to == "auto":  # nothing chosen yet: OK means nobody
                    d.melds_to = None
                self.advance()  # else OK keeps the team already chosen
            elif _is(ev, OK, LONG):
                d.melds_to = None  # nobody, even after a team was chosen
                self.advance()
        elif st == E.S_CONFIRM:
            if _is(ev, OK):
                if self.error is not None:
                    a.flash(T["e_field"])
                    return
                if self.index is None:
                    a.save_deal(d.record(), None)
                else:
                    a.save_deal(d.record(), self.index)

    def _meld_key(self, ev):
        d = self.d
        n = len(E.MELD_ITEMS)
        s = _step(ev)
        if s:
            d.meld_item = (d.meld_item - s) % n  # list order: UP goes up the list
        elif _is(ev, OK):
            code = E.MELD_ITEMS[d.meld_item]
            lst = d.melds[self.meld_team]
            if code == "clear":
                del lst[:]
            else:
                lst.append(code)
            self.meld_team = None
            self._melds = self._stepno_s = None
        elif _is(ev, BACK):
            self.meld_team = None

    # -- drawing
    def _stepno(self):
        if self._stepno_s is None:
            steps = self.d.steps()
            i = steps.index(self.step) if self.step in steps else 0
            self._stepno_s = "%d/%d" % (i + 1, len(steps))
        return self._stepno_s

    def context(self):
        """The contract so far, e.g. 'NS 100 SA'."""
        if self._ctx is None:
            d = self.d
            T = self.app.T
            b = d.bid
            s = T[d.taker] + " " + (str(b) if isinstance(b, int) else T[b])
            if d.kind != "suit":
                s += " " + T["k_" + d.kind]
            self._ctx = s
        return self._ctx

    def draw(self, L):
        d = self.d
        T = self.app.T
        st = self.step
        if self.meld_team is not None:
            if self._meld_rows is None:
                rows = [T[c] for c in E.MELD_ITEMS]
                rows[-1] = "- " + T["clear"]
                self._meld_rows = (rows, T["t_pick_meld"] + " " + T["NS"], T["t_pick_meld"] + " " + T["EW"])
            rows, t_ns, t_ew = self._meld_rows
            L.listing(t_ns if self.meld_team == "NS" else t_ew, rows, d.meld_item,
                      max(0, min(d.meld_item - 2, len(rows) - L.ROWS)))
            return
        if st == E.S_TAKER:
            L.choice3(T["t_taker"], self._stepno(), (T["NS"], "NS"), (T["keep"], "keep"), (T["EW"], "EW"),
                      d.taker, self.context())
        elif st == E.S_BID:
            b = d.bid
            many = len(d.kinds()) > 1
            if self._ctx is None:
                ctx = T[d.taker] + " " + T["took"]
                if many:
                    ctx += " " + (T["k_" + d.kind] if d.kind != "suit" else T["suit"])
                self._ctx = ctx
            ctx = self._ctx
            hint = T["hold_ok_kind"] if many else "^v  OK >"
            if isinstance(b, int):
                lab = T["k_" + d.kind] if d.kind != "suit" else None
                L.picker(T["t_bid"], self._stepno(), b, lab, ctx, hint)
            else:
                L.picker(T["t_bid"], self._stepno(), None, T[b], ctx, hint)
        elif st in (E.S_TENS, E.S_UNITS):
            title = T["t_points"] if d.pile == "T" else T["t_pile_def"]
            if isinstance(d.tens, int):
                v = min(162, d.tens * 10 + d.units)
                hint = T["hold_ok_pile"]
                L.picker(title, self._stepno(), v, None, self.context(), hint)
                L.mark_digits(v, st == E.S_UNITS)
            else:
                lab = {E.ALL: T["all_tricks"], E.DEF_ALL: T["def_all"], E.SOLO: T["solo"]}[d.tens]
                L.picker(title, self._stepno(), None, lab, self.context(), "^v  OK >")
        elif st == E.S_EXTRAS:
            if self._extras is None:
                # every belote label of this step at once: a key press then only picks one
                opts = d.belote_items()
                self._extras = (opts, [_belote_label(T, b) for b in opts],
                                self.context() + " : " + str(d.takers_points()))
            opts, labels, ctx = self._extras
            b = d.belote
            bel = labels[opts.index(b)] if b in opts else _belote_label(T, b)
            L.extras(T["t_extras"], self._stepno(), T[_COINCHE_KEYS[d.coinche]], bel, ctx, "OK >")
        elif st == E.S_MELDS:
            if self._melds is None:
                self._melds = ([T[c] for c in d.melds["NS"]] or ["-"], [T[c] for c in d.melds["EW"]] or ["-"])
            L.melds(T["t_melds"], self._stepno(), T["NS"], self._melds[0], T["EW"], self._melds[1], T["done"])
        elif st == E.S_MELDS_TO:
            cur = d.melds_to if d.melds_to != "auto" else None
            if cur is None:
                L.choice3(T["t_melds_to"], self._stepno(), (T["NS"], "NS"), (T["nobody"], None), (T["EW"], "EW"),
                          cur, None)
            else:  # OK keeps the team chosen; held OK: nobody
                L.choice3(T["t_melds_to"], self._stepno(), (T["NS"], "NS"), (T["keep"], None), (T["EW"], "EW"),
                          cur, T["hold_ok_nobody"])
        elif st == E.S_CONFIRM:
            self._draw_confirm(L)

    def _draw_confirm(self, L):
        T = self.app.T
        if self._confirm is None:
            title = T["t_confirm"] + (" " + str(self.index + 1) if self.index is not None else "")
            verdict = ""
            if self.error is None:
                made = self._result[0].made
                if made is None:
                    verdict = T["passed"]
                else:  # with the takers' card points, so a changed entry shows before it is saved
                    verdict = (T["made"] if made else T["failed"]) + " (" + str(self.d.takers_points()) + ")"
            self._confirm = (title, contract_text(T, self.d.record()), verdict)
        title, contract, verdict = self._confirm
        if self.error is not None:
            e = self.error
            L.confirm(title, contract, "", "", 0, "", 0, 0, 0, "<",
                      (T["e_field"], T.get("f_" + e.field, e.field)))
            return
        r, tot = self._result
        L.confirm(title, contract, verdict, T["NS"], r.score["NS"], T["EW"], r.score["EW"],
                  tot["NS"], tot["EW"], T["save"], None, r.made)


# -- game over -----------------------------------------------------------------------

class GameOver(Screen):
    name = "gameover"

    def key(self, ev):
        a = self.app
        if _is(ev, OK):
            a.new_game()
        elif _is(ev, DOWN):
            a.go(Settings(a))
        elif _is(ev, UP):
            a.go(History(a))
        elif _is(ev, BACK):
            a.ask_undo(self)

    def draw(self, L):
        a = self.app
        T = a.T
        g = a.game
        line = T[g.winner] + " " + T["wins"]
        L.game_over(T["over"], line, T["NS"], g.total["NS"], T["EW"], g.total["EW"], T["new_same"])


# -- settings ------------------------------------------------------------------------

LANGS = ("fr", "en", "de", "it")
# settings screen key -> (journal setting, default)
SETTINGS = {"s_first": ("dealer", "N"), "s_lang": ("lang", "fr"), "s_contrast": ("contrast", 255),
            "s_dim": ("dim", 120)}
# short names that fit a list row next to their label
PRESET_SHORT = {"classic2000": "cl.2000", "federation": "féd.", "coinche1000": "c.1000", "coinche1001": "c.1001"}
DIMS = (30, 60, 120, 300, 0)
CONTRASTS = (16, 64, 128, 192, 255)
TARGETS = (500, 700, 1000, 1001, 1500, 2000, 2500, 3000)
SEATS = ("N", "W", "S", "E")


class Settings(ListScreen):
    name = "settings"
    ITEMS = ("s_preset", "s_target", "s_options", "s_first", "s_lang", "s_contrast", "s_dim")

    def title(self):
        return self.app.T["m_settings"]

    def rows(self):
        a = self.app
        T = a.T
        spec = a.next_rules()
        r = Rules.from_spec(spec)
        dim = a.settings.get("dim", 120)
        vals = (PRESET_SHORT[r.preset], str(r["target"]), ">", T["seat_" + a.settings.get("dealer", "N")], T["lang"],
                str(a.settings.get("contrast", 255)), (str(dim) + T["sec"]) if dim else T["never"])
        return [(T[k], v) for k, v in zip(self.ITEMS, vals)]

    def pick(self, i):
        a = self.app
        k = self.ITEMS[i]
        if k == "s_options":
            a.go(OptionsScreen(a, self))
        else:
            a.go(ValuePicker(a, k, self))


def value_label(T, v):
    """An option value as the table shows it: oui/non, a number, or a short word."""
    if v is True:
        return T["on"]
    if v is False:
        return T["off"]
    if isinstance(v, int):
        return str(v)
    return T.get("v_" + v, v)


def _cycle(seq, cur, d):
    i = seq.index(cur) if cur in seq else 0
    return seq[(i + d) % len(seq)]


class ValuePicker(Screen):
    """Change one setting with UP/DOWN; OK saves it (one journal write), BACK cancels."""

    name = "setting"

    def __init__(self, app, key, back_to, option=None):
        Screen.__init__(self, app)
        self.key_ = key
        self.back_to = back_to
        self.option = option
        spec = app.next_rules()
        if key in SETTINGS:
            k, default = SETTINGS[key]
            self.value = app.settings.get(k, default)
        elif key == "s_preset":
            self.value = spec["preset"]
        else:
            self.value = Rules.from_spec(spec)["target" if key == "s_target" else option]

    def choices(self):
        k = self.key_
        if k == "s_preset":
            return PRESET_NAMES
        if k == "s_target":
            t = TARGETS if self.value in TARGETS else tuple(sorted(TARGETS + (self.value,)))
            return t
        if k == "s_first":
            return SEATS
        if k == "s_lang":
            return LANGS
        if k == "s_contrast":
            return CONTRASTS
        if k == "s_dim":
            return DIMS
        return OPTIONS[self.option]

    def key(self, ev):
        s = _step(ev)
        if s:
            self.value = _cycle(self.choices(), self.value, s)
            if self.key_ == "s_contrast":
                self.app.board.display.contrast(self.value)  # preview
        elif _is(ev, OK):
            self.app.change_setting(self.key_, self.value, self.option)
            self.app.apply_contrast()  # the saved value, also when the write failed
            self.app.go(self.back_to)
        elif _is(ev, BACK):
            if self.key_ == "s_contrast":
                self.app.apply_contrast()
            self.app.go(self.back_to)

    def label(self):
        T = self.app.T
        v = self.value
        k = self.key_
        if k == "s_lang":
            return v
        if k == "s_first":
            return T["seat_" + v]
        if k == "s_dim":
            return (str(v) + T["sec"]) if v else T["never"]
        if k == "s_option":
            return value_label(T, v)
        return str(v)

    def draw(self, L):
        T = self.app.T
        title = T[self.key_] if self.option is None else T["o_" + self.option]
        v = self.value
        if isinstance(v, int) and not isinstance(v, bool) and self.key_ != "s_dim":
            L.picker(title, None, v, None, None, "^v  OK  <")
        else:
            L.picker(title, None, None, self.label(), None, "^v  OK  <")


class OptionsScreen(ListScreen):
    name = "options"
    wrap = False

    def __init__(self, app, back_to):
        ListScreen.__init__(self, app)
        self.back_to = back_to

    def title(self):
        return self.app.T["s_options"]

    def rows(self):
        T = self.app.T
        r = Rules.from_spec(self.app.next_rules())
        out = []
        for k in ORDER:
            if k == "target":
                continue
            out.append((T["o_" + k], value_label(T, r[k])))
        return out

    def pick(self, i):
        keys = [k for k in ORDER if k != "target"]
        self.app.go(ValuePicker(self.app, "s_option", self, keys[i]))

    def back(self):
        self.app.go(self.back_to)


class Archive(ListScreen):
    """Finished games kept on flash (the last 20), newest first: preset and final totals.

    Rows come from each game's first line (journal summary), so the list never
    holds twenty games of deals in RAM."""

    name = "archive"
    wrap = False

    def title(self):
        return self.app.T["m_games"]

    def rows(self):
        a = self.app
        arc = a.archive
        out = []
        for i in range(len(arc) - 1, -1, -1):
            summ = arc.summary(i) if hasattr(arc, "summary") else arc[i]
            rules = summ.get("rules") or {}
            res = summ.get("result") or summ.get("total")
            score = "%d-%d" % (res["NS"], res["EW"]) if res else "?"
            out.append((PRESET_SHORT.get(rules.get("preset"), "?"), score))
        return out or [a.T["no_deals"]]


__all__ = ("Home", "Menu", "Entry", "History", "GameOver", "Settings", "Ask", "other")
