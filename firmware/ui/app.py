"""The scoreboard application: owns the game, the journal and the current screen.

Every confirmed action goes to the journal first and changes the game only once
it is durable, so what the screen says is saved is what comes back after a
power cut. Nothing is written for a key press that confirms nothing.
"""
import json

from coinche.compat import const
from coinche.game import Game, GameError
from coinche.record import RecordError
from coinche.rules import DEFAULT_PRESET, Rules, RulesError
from ui import screens as S
from ui.entry import Draft
from ui.inputs import Inputs
from ui.text import forget_run_time_strings
from ui.timing import POLL_MS

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython (unit tests)
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

TOAST_MS = 1500
MAX_NAME = 8  # characters of a team name
# The deal limit of one game. A game ends in 15-40 deals; only deals where all four
# pass (they score nothing) make it longer. At 150 deals, start-up, play and the
# archiving of the game fit the Pico's heap with room to spare (docs/storage.md,
# "Memory"; tests/test_deal_limit.py runs such a game at the heap it has).
MAX_DEALS = const(150)
# Dimming is off unless set (the score stays readable between deals); when set, the
# screen dims to half its contrast, never below what can still be read (on the
# Display Pack the contrast is the backlight: a low level is black).
DIM_DEFAULT = 0
DIM_FLOOR = 64


def _layout(board):
    if getattr(board, "LAYOUT", "128x64") == "240x135":
        from ui.layout_240x135 import Layout
    else:
        from ui.layout_128x64 import Layout
    return Layout(board.display)


def _lang(code):
    from ui.i18n import load
    return load(code)


def _new(rules, dealer, result=None, order="acw", names=None):
    """The journal's "new" action; the first dealer, a clockwise dealing order and
    the team names travel inside the rules spec (the exporter reads them there),
    the final totals of the game it closes (if any) in "result"."""
    spec = rules.spec()
    spec["dealer"] = dealer
    if order != "acw":
        spec["dir"] = order
    if names:
        spec["names"] = names
    act = {"op": "new", "rules": spec}
    if result is not None:
        act["result"] = result
    return act


def _setting_ok(key, value):
    """Can the app use this stored value for this setting? (Unknown keys: kept as they are.)"""
    if key == "lang":
        from ui.i18n import LANGS
        return value in LANGS
    if key == "contrast":
        return type(value) is int and 0 <= value <= 255
    if key == "dim":
        return type(value) is int and 0 <= value <= 3600
    if key == "dealer":
        return value in ("N", "W", "S", "E")
    if key == "dir":
        return value in ("acw", "cw")
    if key == "names":
        if not isinstance(value, dict):
            return False
        for team in value:
            if team not in ("NS", "EW") or not isinstance(value[team], str) or len(value[team]) > MAX_NAME:
                return False
        return True
    if key == "rules":
        try:
            Rules.from_spec(value)
        except (RulesError, TypeError, AttributeError, KeyError, ValueError):
            return False
    return True


def checked_settings(settings):
    """(the settings the app can use, the keys dropped): a value that passed the journal's
    checksum but is not one the app can use (`{"dim": "abc"}`) falls back to its default."""
    usable = {}
    dropped = []
    for key in settings:
        if settings[key] is None:
            continue  # cleared (see App._boot): the default
        if _setting_ok(key, settings[key]):
            usable[key] = settings[key]
        else:
            dropped.append(key)
    return usable, dropped


LEGACY_STORAGE = "/data"  # the journal's one folder before the two copies (read once, kept)


def _journal(board):
    """The journal in the directories the boot's mount found, with what the mount had to
    say (flash_report: filled by the UF2's boot and by the simulator's launcher, which
    then unload the mount code), else in the board's STORAGE directories (the stock
    firmware of `make deploy`, which has no report)."""
    from store.journal import Journal
    try:
        import flash_report
    except ImportError:
        flash_report = None
    # "/data" held the one copy of older versions: on a stock filesystem (the stock
    # firmware, or the UF2 over one: layout "whole") the two copies take it over
    if flash_report is None or flash_report.ROOTS is None:
        return Journal(board.STORAGE, legacy=LEGACY_STORAGE if not isinstance(board.STORAGE, str) else None)
    roots = flash_report.ROOTS
    legacy = None
    if flash_report.LAYOUT == "whole":  # the copies are folders of that filesystem, beside "/data"
        legacy = roots[0][:roots[0].rfind("/")] + LEGACY_STORAGE
    return Journal([root for root in roots if root], notices=flash_report.NOTICES, legacy=legacy)


class App:
    def __init__(self, board, defaults=None, journal=None):
        self.board = board
        self.fb = board.display
        self.clock = board.ticks_ms
        # pins with edge interrupts latch every press; boards without them are polled
        self.inputs = Inputs(board.buttons, board.ticks_ms, getattr(board, "button_pins", None))
        self.layout = _layout(board)
        self.journal = journal if journal is not None else _journal(board)
        self.toast_msg = None
        self.toast_until = 0
        self.dimmed = False
        self.dirty = True
        self.version = 0  # bumped by every confirmed change: screens rebuild cached rows then
        self._boot(defaults or {})
        try:
            board.app = self  # the REPL (and the emulator's tests) read the running app's state
        except AttributeError:
            pass

    # -- boot -----------------------------------------------------------
    def _boot(self, defaults):
        st = self.journal.load()
        self.settings, dropped = checked_settings(st.get("settings") or {})
        # a lazy view: each finished game is read from flash only when shown.
        # Kept even when empty (an empty view is falsy): it follows later "new" actions.
        arc = st.get("archive")
        self.archive = arc if arc is not None else ()
        self.set_language(self.settings.get("lang", "fr"))
        notice = st.get("notice")
        g = st.get("game")
        game = None
        self._jgame = None  # rules spec (with dealer) of the game the journal holds
        if g is not None:
            try:
                spec = g["rules"]
                game = Game(Rules.from_spec(spec), g.get("deals", ()), spec.get("dealer", "N"),
                            spec.get("dir", "acw"), spec.get("fix", ()))
                self._jgame = g["rules"]
                if not game.deals:
                    game = self._empty_game()
            except (RulesError, RecordError, GameError, KeyError, TypeError, AttributeError) as e:
                notice = "%s: %s" % (self.T["recovered"], e)
                game = None
        if game is None:
            spec = self.settings.get("rules")
            if spec is None:
                opts = {}
                if defaults.get("target"):
                    opts["target"] = int(defaults["target"])
                spec = {"preset": defaults.get("rules") or DEFAULT_PRESET, "options": opts}
            try:
                rules = Rules.from_spec(spec)
            except RulesError:
                rules = Rules()
            game = Game(rules, (), self.settings.get("dealer", "N"), self.settings.get("dir", "acw"))
            if g is None:
                # first start: the new game is a confirmed fact from now on
                self._record(_new(rules, game.first_dealer, None, game.order))
        self.game = game
        self.apply_contrast()
        self.view = S.GameOver(self) if game.over else S.Home(self)
        try:  # the UF2's boot (uf2/_boot.py, store/partitions.py): damaged flash kept, not formatted
            from flash_report import NOTES
        except ImportError:  # the stock firmware (make deploy)
            NOTES = ()
        for key in dropped:  # cleared once: the next start is quiet
            self._record({"op": "set", "k": key, "v": None})
        if notice or NOTES or dropped:
            self.flash(self.T["e_store" if "unsaved" in NOTES else "recovered"], 4000)

    # -- helpers used by screens -------------------------------------------
    def go(self, screen):
        self.view = screen
        self.dirty = True
        forget_run_time_strings()  # the new screen builds its own

    def home(self):
        self.go(S.GameOver(self) if self.game.over else S.Home(self))

    def flash(self, msg, ms=TOAST_MS):
        self.toast_msg = msg
        self.toast_until = ticks_add(self.clock(), ms)
        self.dirty = True

    def team_name(self, team):
        """How a team ("NS" or "EW") is shown everywhere: the name the table gave it
        (settings "names", up to 8 characters), else NS/EW in the language in use."""
        names = self.settings.get("names")
        if names:
            name = names.get(team)
            if name:
                return name
        return self.T[team]

    def set_team_name(self, team, name):
        """Name a team (None: back to NS/EW); one journaled setting, like any other."""
        names = dict(self.settings.get("names") or {})
        if name:
            names[team] = name[:MAX_NAME]
        else:
            names.pop(team, None)
        value = names or None
        if self.settings.get("names") == value:
            return
        if not self._record({"op": "set", "k": "names", "v": value}):
            return
        if value is None:
            del self.settings["names"]
        else:
            self.settings["names"] = value
        from ui.text import prepare_table
        prepare_table(self.T)  # the text cache starts afresh with the new names
        self.flash(self.T["saved"])

    def seat_label(self):
        return self.seats[self.game.dealer()]

    def set_language(self, code):
        self.T = _lang(code)
        # home draws these every time: look them up once, so a redraw allocates nothing
        self.seats = {s: self.T["seat_" + s] for s in ("N", "W", "S", "E")}
        from ui.text import prepare_table
        prepare_table(self.T, code)
        self.version += 1

    def dealer_team(self):
        d = self.game.dealer()
        return "NS" if d in ("N", "S") else "EW"

    def next_rules(self):
        return self.settings.get("rules") or self.game.rules.spec()

    def at_deal_limit(self):
        """The game holds MAX_DEALS deals: says so, and True."""
        if len(self.game.deals) < MAX_DEALS:
            return False
        self.flash(self.T["e_limit"] % MAX_DEALS, 3000)
        return True

    def start_entry(self, taker):
        if self.game.over:
            self.flash(self.T["e_over"])
            return
        if self.at_deal_limit():
            return
        self.go(S.Entry(self, Draft(self.game.rules, taker)))

    def _plan(self, rec, index):
        """The game's plan (Game.plan_add/plan_replace, which validate rec) of adding rec
        (index None) or of putting it in place of deal index; GameError for a deal added
        after the end."""
        return self.game.plan_add(rec) if index is None else self.game.plan_replace(index, rec)

    def trial(self, rec, index, checked=False):
        """(DealResult, totals, over) the game would have with rec added (or replacing deal
        index); checked: rec is already what coinche.record.validate() returned."""
        if index is None:
            # without a copy of the deals: the confirm step asks per units value
            return self.game.score_next(rec, checked)
        plan = self.game.plan_replace(index, rec)  # an edit: the deals after it are scored again
        return plan[1][index], plan[2], plan[3]

    def _empty_game(self):
        """A game with no deal yet always follows the settings (rules, first dealer).

        So a rules change before the first deal is one write (the setting), the
        same after a reboot; the journal gets its "new" with the first deal."""
        jg = self._jgame or {}
        spec = self.settings.get("rules") or jg
        try:
            rules = Rules.from_spec(spec)
        except RulesError:
            rules = Rules.from_spec(jg)
        return Game(rules, (), self.settings.get("dealer", jg.get("dealer", "N")),
                    self.settings.get("dir", jg.get("dir", "acw")))

    def _journal_matches(self, game):
        """Does the journal's current game have this game's rules and first dealer?"""
        jg = self._jgame
        if not jg:
            return False
        spec = game.rules.spec()
        return jg.get("preset") == spec["preset"] and (jg.get("options") or {}) == spec["options"] \
            and jg.get("dealer", "N") == game.first_dealer and jg.get("dir", "acw") == game.order

    def _record(self, action):
        """Write an action; False (and a message) if the flash refused it."""
        try:
            self.journal.record(action)
            self.version += 1
            if action["op"] == "new":
                self._jgame = action["rules"]
            return True
        except OSError as e:
            self.flash(self.T["e_full"] if e.args and e.args[0] == 28 else self.T["e_store"], 3000)
            return False
        except ValueError:  # the journal refused an impossible action: nothing written
            self.flash(self.T["e_store"], 3000)
            return False

    def _after_change(self, msg):
        self.home()
        self.flash(msg)

    def save_deal(self, rec, index):
        g = self.game
        if index is None and self.at_deal_limit():
            return
        try:
            plan = self._plan(rec, index)
        except (RecordError, GameError) as e:
            self.flash(self.T["e_end_before"] if isinstance(e, GameError) else self.T["e_field"])
            return
        rec = plan[0][-1 if index is None else index]  # the validated record: the journal shares it
        action = {"op": "add", "deal": rec} if index is None else {"op": "edit", "i": index, "deal": rec}
        if not g.deals and not self._journal_matches(g):
            # first deal of a game whose rules changed while it was empty: the journal
            # starts that game now (a cut right after it boots to the same empty game)
            if not self._record(_new(g.rules, g.first_dealer, None, g.order, self.settings.get("names"))):
                return
        if not self._record(action):
            return
        # a new Game object per change, as always, but only the changed deals were scored
        self.game = g.same_table().commit(plan)
        plan = None
        self._after_change(self.T["saved"])

    def delete_deal(self, index, back_to=None):
        g = self.game
        try:
            plan = g.plan_remove(index)
        except GameError:
            self.flash(self.T["e_end_before"])
            return
        if not self._record({"op": "del", "i": index}):
            return
        self.game = new = g.same_table().commit(plan)
        plan = None
        if not new.deals:
            self.game = new = self._empty_game()  # as after a reboot
        if back_to is not None and new.deals:
            self.go(back_to)
            self.flash(self.T["deleted"])
        else:
            self._after_change(self.T["deleted"])

    def ask_undo(self, back_to):
        g = self.game
        if not g.deals:
            self.flash(self.T["e_no_undo"])
            return
        n = len(g.deals)
        self.go(S.Ask(self, self.T["undo_q"] + " " + str(n) + "?", S.contract_text(self, g.deals[-1]),
                      lambda: self.delete_deal(n - 1), back_to))

    def new_game(self):
        spec = self.next_rules()
        try:
            rules = Rules.from_spec(spec)
        except RulesError:
            rules = self.game.rules
        dealer = self.settings.get("dealer", "N")
        order = self.settings.get("dir", "acw")
        old = self.game
        result = {"NS": old.total["NS"], "EW": old.total["EW"], "winner": old.winner} if old.deals else None
        if result is not None and self.settings.get("names"):
            result["names"] = {t: self.team_name(t) for t in ("NS", "EW")}  # as the past games list had them
        if not self._record(_new(rules, dealer, result, order, self.settings.get("names"))):
            return
        self.game = Game(rules, (), dealer, order)
        self._after_change(self.T["m_new"])

    def correct_dealer(self, seat):
        """Who deals the next deal, corrected at the table: journaled ({"op": "dealer"}),
        so it survives a power cut; before the first deal it is the first-dealer setting."""
        g = self.game
        if seat == g.dealer():
            return
        if not g.deals:
            self.change_setting("s_first", seat)
            return
        fixes = g.with_fix(seat)
        if not self._record({"op": "dealer", "fix": fixes}):
            return
        g.fixes = fixes
        if self._jgame is not None:
            self._jgame = dict(self._jgame)
            self._jgame["fix"] = fixes
        self.flash(self.T["saved"])

    def change_setting(self, key, value, option=None):
        """Apply and journal one setting. Rules changes apply to the current game only while it has no deal."""
        spec = self.next_rules()
        spec = {"preset": spec["preset"], "options": dict(spec.get("options") or {})}
        if key in S.SETTINGS:
            k, v = S.SETTINGS[key][0], value
        else:
            if key == "s_preset":
                if value == spec["preset"]:
                    return  # the same preset: its options (target...) stay
                spec = {"preset": value, "options": {}}
            else:
                name = "target" if key == "s_target" else option
                spec["options"][name] = value
            try:
                spec = Rules.from_spec(spec).spec()  # drops overrides equal to the preset
            except RulesError:
                self.flash(self.T["e_field"])
                return
            k, v = "rules", spec
        if self.settings.get(k) == v:
            return  # nothing changed: nothing written
        if not self._record({"op": "set", "k": k, "v": v}):
            return
        self.settings[k] = v
        if k == "lang":
            self.set_language(v)
        elif k == "contrast":
            self.apply_contrast()
        msg = self.T["saved"]
        if k in ("rules", "dealer", "dir"):
            if not self.game.deals:
                self.game = self._empty_game()  # one write: the setting (see _empty_game)
                msg = self.T["applied"]
            else:
                msg = self.T["next_game"]
        self.flash(msg)

    def dim_level(self):
        """The contrast of a dimmed screen: half the set one, never below DIM_FLOOR."""
        level = self.settings.get("contrast", 255) // 2
        return level if level > DIM_FLOOR else DIM_FLOOR

    def apply_contrast(self):
        try:
            self.fb.contrast(self.settings.get("contrast", 255))
        except AttributeError:
            pass

    def state(self):
        g = self.game
        return {"rules": g.rules.spec(), "dealer": g.first_dealer, "next_dealer": g.dealer(), "order": g.order,
                "fixes": g.fixes, "deals": list(g.deals),
                "total": dict(g.total), "over": g.over, "winner": g.winner,
                "screen": self.screen_name(), "settings": self.settings}

    def state_json(self):
        return json.dumps(self.state())

    def write_state(self, stream):
        """state_json() written to stream piece by piece: the document is never whole in RAM."""
        json.dump(self.state(), stream)

    def screen_name(self):
        return self.view.name

    @property
    def screen(self):
        """The current screen's name (the simulator tags frames with it)."""
        return self.view.name

    # -- the loop ------------------------------------------------------------
    def handle(self, ev):
        """One input event (also the entry point of the fuzz tests)."""
        self.inputs.last_activity = self.clock()
        if self.dimmed:  # the key wakes the screen and does what it does
            self.dimmed = False
            self.apply_contrast()
            self.dirty = True
        if self.toast_msg is not None:
            self.toast_msg = None
            self.dirty = True
        self.view.key(ev)
        self.dirty = True

    def poll(self):
        inp = self.inputs
        inp.poll()
        ev = inp.pop()
        while ev >= 0:
            self.handle(ev)
            ev = inp.pop()
        now = self.clock()
        if self.toast_msg is not None and ticks_diff(now, self.toast_until) >= 0:
            self.toast_msg = None
            self.dirty = True
        dim = self.settings.get("dim", DIM_DEFAULT)
        if dim and not self.dimmed and not inp.any_down() and ticks_diff(now, inp.last_activity) >= dim * 1000:
            self.dimmed = True
            try:
                self.fb.contrast(self.dim_level())
            except AttributeError:
                pass
        if self.dirty:
            self.render()

    def render(self):
        self.dirty = False
        self.layout.clear()
        self.view.draw(self.layout)
        if self.toast_msg is not None:
            self.layout.toast(self.toast_msg)
        self.fb.show()


def run(board, defaults=None):
    app = App(board, defaults)
    while True:
        app.poll()
        board.sleep_ms(POLL_MS)
