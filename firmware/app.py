"""The application loop: buttons polled, each event to the current screen, the screen
drawn when something changed; and the navigation between screens, the messages
shown over them, the dimming and the language in use.

Only main.py imports this module (run()). The game at the table (the game, the
journal, the settings) is the GameTable's (table/game_table.py); the screens
(screens/) ask it for every change and tell the player what it answers.
"""
import json

import on_demand
from coinche.compat import const, ticks_add, ticks_diff
from events.inputs import Inputs
from events.timing import POLL_MS
from render.text import forget_run_time_strings, prepare_table
from screens.table_screens import Home
from table.game_table import LONG_MESSAGES, MAX_DEALS

TOAST_MS = const(1500)
LONG_TOAST_MS = const(3000)
START_TOAST_MS = const(4000)
HINT_MS = const(2000)  # a turning hint line shows each of its texts this long
_IDLE_MAX_MS = const(1000)  # a still screen's loop looks around at least this often anyway (a name
# of its own, inlined: no global on the heap, which a game at the deal limit fills)
# Dimming is off unless set (the score stays readable between deals); when set, the
# screen dims to half its contrast, never below what can still be read (on the
# Display Pack the contrast is the backlight: a low level is black).
DIM_DEFAULT = 0
DIM_FLOOR = 64


def layout_for(board):
    """The screen layout of the board (LAYOUT): only that one is imported."""
    if getattr(board, "LAYOUT", "128x64") == "240x135":
        from render.layout_240x135 import Layout
    else:
        from render.layout_128x64 import Layout
    return Layout(board.display)


class App:
    """The running scoreboard on a board: the current screen (view), the message over it,
    the dimming, the language in use (texts) and the game at the table (table)."""

    def __init__(self, board, defaults=None, journal=None):
        self.board = board
        self.fb = board.display
        self.clock = board.ticks_ms
        # pins with edge interrupts latch every press; boards without them are polled
        self.inputs = Inputs(board.buttons, board.ticks_ms, getattr(board, "button_pins", None))
        self.layout = layout_for(board)
        self.toast_msg = None
        self.toast_until = 0
        self.dimmed = False
        self.dirty = True
        self.turn_at = 0  # when the current screen's hint line turns next
        self.language = None
        # the link's state for home's mark, on a board with WiFi (None: no mark)
        self.link = None
        self.link_drawn = -1
        self.club = None  # the link to the organiser (link/table_link.py), with /club.json only
        # the concours round being played is not the organiser's draw (its round, table or
        # teams): home says so before the first deal (set_up_check(), after each link poll)
        self.setup_wrong = False
        if getattr(board, "WIFI", False):
            from link import state as link_state

            self.link = link_state
        # the start runs once: its module (and the language reader's) is released afterwards
        start = on_demand.load("table.start")
        languages = on_demand.load("render.languages").LANGS
        if journal is None:
            journal = start.open_journal(board)
        self.table, message = start.start(journal, defaults or {}, languages)
        start = None
        on_demand.release("table.start")
        on_demand.release("coinche.record")  # the check of the deals replayed, and
        on_demand.release("coinche.rule_options")  # the options the rules were built from
        if self.link is not None and self.link.club_exists(board):
            self.club = on_demand.load("link.table_link").open_link(board, self.table.journal)
            on_demand.release("link.table_link")
        self.set_language(self.table.settings.get("lang", "fr"))
        self.apply_contrast()
        self._numbered = None  # (round info, language, {"NS": "NS 5", "EW": "EO 3"}): team_name()
        self.view = self.end_screen() if self.table.game.over else Home(self)
        self.turn_at = ticks_add(self.clock(), HINT_MS)  # the first screen shows its first hint its full time
        if message is not None:
            self.tell(message, START_TOAST_MS)
        try:
            board.app = self  # the REPL (and the emulator's tests) read the running app's state
        except AttributeError:
            pass

    # -- the game at the table, read by the screens, the layouts and the REPL
    @property
    def game(self):
        return self.table.game

    @property
    def settings(self):
        return self.table.settings

    @property
    def archive(self):
        return self.table.archive

    @property
    def version(self):
        """Bumped by every confirmed change and a new language: screens rebuild cached rows then."""
        return self.table.version

    # -- navigation and messages
    def go(self, screen):
        self.view = screen
        self.dirty = True
        self.turn_at = ticks_add(self.clock(), HINT_MS)
        forget_run_time_strings()  # the new screen builds its own
        on_demand.release_unused(screen)

    def home(self):
        self.go(self.end_screen() if self.table.game.over else Home(self))

    def end_screen(self):
        """What an ended game shows: game over, or a concours round's end (both on demand)."""
        return on_demand.screen("RoundOver" if self.table.concours() else "GameOver")(self)

    def show_message(self, msg, ms=TOAST_MS):
        """Show a message over the current screen for ms."""
        self.toast_msg = msg
        self.toast_until = ticks_add(self.clock(), ms)
        self.dirty = True

    def tell(self, message, ms=None):
        """Show the message the game at the table answered (a key of the language table; None: nothing)."""
        if message is None:
            return
        text = self.texts[message]
        if message == "e_limit":
            text = text % MAX_DEALS
        if ms is None:
            ms = LONG_TOAST_MS if message in LONG_MESSAGES else TOAST_MS
        self.show_message(text, ms)

    def team_name(self, team):
        """How a team ("NS" or "EW") is shown everywhere: the name the table gave it
        (up to 8 characters: a game with deals keeps its own, the settings' are for a
        game not started), else NS/EW in the language in use."""
        table = self.table
        held = table.journal_rules
        names = held.get("names") if held and table.game.deals else table.settings.get("names")
        if names:
            name = names.get(team)
            if name:
                return name
        info = self.table.concours()
        if info:  # a concours round: its team numbers ("NS 5"), built once per round and language
            numbered = self._numbered
            if numbered is None or numbered[0] is not info or numbered[1] != self.language:
                numbered = self._numbered = (info, self.language,
                                             on_demand.load("screens.concours").team_labels(info, self.texts))
            return numbered[2][team]
        return self.texts[team]

    def seat_label(self):
        """Who deals next, as the language in use names the seat."""
        return self.seats[self.table.game.dealer()]

    def dealer_team(self):
        """The team of the next dealer: "NS" or "EW"."""
        return "NS" if self.table.game.dealer() in ("N", "S") else "EW"

    def set_language(self, code):
        """The texts of language `code`; the language file reader is released afterwards."""
        self.texts = on_demand.load("render.languages").load(code)
        on_demand.release("render.languages")
        self.language = code
        # home draws these every time: look them up once, so a redraw allocates nothing
        self.seats = {seat: self.texts["seat_" + seat] for seat in ("N", "W", "S", "E")}
        prepare_table(self.texts, code)
        self.table.touch()

    # -- the changes the screens ask for: the GameTable makes them, the App shows the result
    def save_deal(self, record, index, after=None):
        """Save a deal (index None: a new one); after: what opens once it is saved (an
        edit from the history returns there), else home; a game that ended shows its end."""
        dealer = None if index is None else self.table.game.dealer()  # a new deal moves it on, as expected
        done, message = self.table.save_deal(record, index)
        on_demand.release("coinche.record")  # the record's check, loaded for it (coinche.game.validate)
        if done and after is not None and not self.table.game.over:
            after()
        elif done:
            self.home()
        self.tell_dealer(message, dealer)

    def delete_deal(self, index, back_to=None):
        """Delete deal `index`; back_to: the screen shown after it while deals are left.
        An undo (the last deal) moves the next dealer back as the players expect; a deal
        deleted in the middle does too, and that is said."""
        last = index == len(self.table.game.deals) - 1
        dealer = None if last else self.table.game.dealer()
        done, message = self.table.delete_deal(index)
        if done and back_to is not None and self.table.game.deals:
            self.go(back_to)
        elif done:
            self.home()
        self.tell_dealer(message, dealer)

    def tell_dealer(self, message, dealer):
        """Tell what the table answered; when the change moved the next dealer off `dealer`
        (who dealt next before; None: as expected), say who deals now, a while longer."""
        if dealer is not None and message in ("saved", "deleted") and self.table.game.dealer() != dealer:
            self.show_message(self.texts["dealer_moved"] + " " + self.seat_label(), LONG_TOAST_MS)
            return
        self.tell(message)

    def new_game(self):
        shown = {team: self.team_name(team) for team in ("NS", "EW")}
        done, message = on_demand.load("table.settings").new_game(self.table, shown)
        on_demand.release("table.settings")
        if done:
            self.home()
        self.tell(message)

    def start_round(self, info):
        """Start concours round `info` ({"round", "table", "teams"}): table/settings.py."""
        shown = {team: self.team_name(team) for team in ("NS", "EW")}
        done, message = on_demand.load("table.settings").start_round(self.table, info, shown)
        on_demand.release("table.settings")
        if done:
            self.home()
        self.tell(message)

    # -- settings: their code is in table/settings.py, loaded for the call
    def change_setting(self, key, value, option=None):
        """Record one setting (table/settings.py) and show what it changes."""
        done, message = on_demand.load("table.settings").change_setting(self.table, key, value, option)
        on_demand.release("table.settings")
        if done:
            language = self.table.settings.get("lang", "fr")
            if language != self.language:
                self.set_language(language)
            self.apply_contrast()
        self.tell(message)

    def set_team_name(self, team, name):
        """Name a team (None: back to NS/EW), table/settings.py."""
        done, message = on_demand.load("table.settings").set_team_name(self.table, team, name)
        on_demand.release("table.settings")
        if done:
            prepare_table(self.texts)  # the text cache starts afresh with the new names
        self.tell(message)

    def correct_dealer(self, seat):
        """Who deals the next deal, corrected at the table: table/settings.py."""
        message = on_demand.load("table.settings").correct_dealer(self.table, seat)[1]
        on_demand.release("table.settings")
        self.tell(message)

    def dim_level(self):
        """The contrast of a dimmed screen: half the set one, never below DIM_FLOOR."""
        level = self.table.settings.get("contrast", 255) // 2
        return level if level > DIM_FLOOR else DIM_FLOOR

    def apply_contrast(self):
        try:
            self.fb.contrast(self.table.settings.get("contrast", 255))
        except AttributeError:
            pass

    def state(self):
        """The game, the screen, the settings, the round and the link as one dict (the
        simulator, the tests, `--state-out`): table/state.py, loaded for the call."""
        state = on_demand.load("table.state").state(self)
        on_demand.release("table.state")
        return state

    def round_result(self):
        """The concours object of the current game (coinche/result_code.py round_result:
        round, table, teams, totals, deals, code), None for a game to the target."""
        info = self.table.concours()
        if not info:
            return None
        game = self.table.game
        return on_demand.load("coinche.result_code").round_result(info, game.total, game.rules.round_deals)

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
        try:
            self.view.key(ev)
        except ImportError:
            # on_demand.screen(): the screen's module could not be loaded (the heap too
            # full for it, or its file missing): home, and the player told in words.
            # Nothing is lost: every confirmed action is in the journal before its key returns.
            try:
                self.home()
            except ImportError:  # a game's end screen, on demand too
                self.go(Home(self))
            self.tell("e_open", LONG_TOAST_MS)
        self.dirty = True

    def poll(self):
        inputs = self.inputs
        inputs.poll()
        ev = inputs.pop()
        while ev >= 0:
            self.handle(ev)
            ev = inputs.pop()
        now = self.clock()
        if self.toast_msg is not None and ticks_diff(now, self.toast_until) >= 0:
            self.toast_msg = None
            self.dirty = True
        view = self.view
        if view.turns and not self.dimmed and ticks_diff(now, self.turn_at) >= 0:  # its hint's next text
            # (a dimmed screen is not being read: it keeps its picture and sends the panel nothing)
            self.turn_at = ticks_add(now, HINT_MS)
            view.phase += 1
            self.dirty = True
        dim_in = self._dim_in(now)
        if dim_in is not None and dim_in <= 0 and not inputs.any_down():
            self.dimmed = True
            try:
                self.fb.contrast(self.dim_level())
            except AttributeError:
                pass
        link = self.link
        if link is not None and link.state() != self.link_drawn:
            self.link_drawn = link.state()
            self.dirty = True
        if self.dirty:
            self.render()
        if self.club is not None:  # after the pixels: a press's own picture never waits for the link
            self.club.poll(self)  # a bounded slice of the link's work (a signing, a flash write), never a wait
            self.set_up_check()

    def idle_ms(self):
        """How long the loop may sleep before its next poll is due: POLL_MS while a
        button needs polls (events/inputs.py busy()) or the link works, else until the
        next thing that changes the screen by itself (a message's end, the hint line's
        turn, the dimming), at most _IDLE_MAX_MS. A still screen then costs a few polls a
        second instead of a hundred; a press still wakes the loop at its edge (wait())."""
        if self.dirty or self.link is not None or self.inputs.busy():
            return POLL_MS
        now = self.clock()
        wait = _IDLE_MAX_MS
        if self.toast_msg is not None:
            wait = min(wait, ticks_diff(self.toast_until, now))
        if self.view.turns and not self.dimmed:
            wait = min(wait, ticks_diff(self.turn_at, now))
        dim_in = self._dim_in(now)
        if dim_in is not None:
            wait = min(wait, dim_in)
        return wait if wait > POLL_MS else POLL_MS

    def _dim_in(self, now):
        """Milliseconds until the screen dims, the set time after the last key (0 or less:
        due); None when it will not (dimming off, or dimmed already)."""
        dim = self.table.settings.get("dim", DIM_DEFAULT)
        if not dim or self.dimmed:
            return None
        return ticks_diff(ticks_add(self.inputs.last_activity, dim * 1000), now)

    def wait(self):
        """Sleep until the next poll is due (idle_ms()) or a button's edge comes."""
        self.inputs.wait(self.idle_ms(), self.board.sleep_ms)

    def loop(self):
        """The app's life: poll, then sleep until the next poll is due; never returns (the
        web page's REPL resumes an interrupted app with it)."""
        while True:
            self.poll()
            self.wait()

    def set_up_check(self):
        """setup_wrong again when the draw or the game changed: the link's own code
        (link/table_link.py), on the heap only with /club.json."""
        self.club.set_up_check(self)

    def render(self):
        self.dirty = False
        self.layout.clear()
        self.view.draw(self.layout)
        if self.toast_msg is not None:
            self.layout.toast(self.toast_msg)
        self.fb.show()


def run(board, defaults=None):
    App(board, defaults).loop()
