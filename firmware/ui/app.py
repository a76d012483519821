"""The scoreboard application: owns the game, the journal and the current screen.

Every confirmed action goes to the journal first and changes the game only once
it is durable, so what the screen says is saved is what comes back after a
power cut. Nothing is written for a key press that confirms nothing.
"""
import json
import sys

from coinche.compat import const
from coinche.game import Game, GameError
from coinche.record import RecordError
from coinche.rules import Rules, RulesError
from modules_on_demand import release
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
# The screens off the deal-entry path, in modules imported when one of their screens opens
# (ui/screens.py) and released by go() once no open screen comes from them: with make deploy's
# .mpy files their bytecode would otherwise stay on the heap for the whole game
# (modules_on_demand.py). ui.stats brings ui.chart's key and coinche.stats along.
SCREEN_MODULES_ON_DEMAND = ("ui.history_screens", "ui.settings_screens", "ui.past_games_screen", "ui.stats", "ui.chart",
                            "coinche.stats")


def _lang(code):
    """The table of language `code`; ui/i18n.py is released afterwards (modules_on_demand.py)."""
    from ui.i18n import load
    table = load(code)
    release("ui.i18n")
    return table


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


class App:
    def __init__(self, board, defaults=None, journal=None):
        self.board = board
        self.fb = board.display
        self.clock = board.ticks_ms
        # pins with edge interrupts latch every press; boards without them are polled
        self.inputs = Inputs(board.buttons, board.ticks_ms, getattr(board, "button_pins", None))
        # the start (ui/app_start.py) runs once: its module is released afterwards
        from ui import app_start
        self.layout = app_start.layout_for(board)
        self.journal = journal if journal is not None else app_start.open_journal(board)
        self.toast_msg = None
        self.toast_until = 0
        self.dimmed = False
        self.dirty = True
        self.version = 0  # bumped by every confirmed change: screens rebuild cached rows then
        self.settings = {}  # the journal's, checked: set by app_start.start()
        app_start.start(self, defaults or {})
        app_start = None
        release("ui.app_start")
        try:
            board.app = self  # the REPL (and the emulator's tests) read the running app's state
        except AttributeError:
            pass

    # -- helpers used by screens -------------------------------------------
    def go(self, screen):
        self.view = screen
        self.dirty = True
        forget_run_time_strings()  # the new screen builds its own
        self._release_screen_modules()

    def _release_screen_modules(self):
        """Release each module of SCREEN_MODULES_ON_DEMAND that is loaded and that defines
        none of the open screens (the current one, and those BACK returns to): each lists
        its screens in SCREENS (a class it only imports does not keep it loaded)."""
        modules = sys.modules
        for name in SCREEN_MODULES_ON_DEMAND:
            module = modules.get(name)
            if module is None:
                continue
            defined_here = getattr(module, "SCREENS", ())
            screen = self.view
            while screen is not None:
                if type(screen) in defined_here:
                    break
                screen = getattr(screen, "back_to", None)
            else:
                release(name)

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

    # -- settings: their code is in ui/settings_screens.py, loaded while it is used
    def set_team_name(self, team, name):
        """Name a team (None: back to NS/EW): ui/settings_screens.set_team_name()."""
        from ui.settings_screens import set_team_name
        set_team_name(self, team, name)
        self._release_screen_modules()  # called from outside a settings screen: not kept

    def correct_dealer(self, seat):
        """Who deals the next deal, corrected at the table: ui/settings_screens.correct_dealer()."""
        from ui.settings_screens import correct_dealer
        correct_dealer(self, seat)
        self._release_screen_modules()  # called from outside a settings screen: not kept

    def change_setting(self, key, value, option=None):
        """Apply and journal one setting: ui/settings_screens.change_setting()."""
        from ui.settings_screens import change_setting
        change_setting(self, key, value, option)
        self._release_screen_modules()  # called from outside a settings screen: not kept

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
