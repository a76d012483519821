"""The game at the table: the game being played, the journal that keeps it, the settings
and the finished games, and every change the players confirm.

Every change goes to the journal first and changes the game only once it is
durable, so what the screen says is saved is what comes back after a power cut.
Nothing is written for a key press that confirms nothing.

The screens never change the game or the journal themselves: they ask a
GameTable and tell the player what it answers. Its public API:

  table.game, .settings, .archive   the game (coinche.game.Game), the settings
                                    (dict), the finished games (the journal's
                                    lazy view): read them, change them through
                                    the methods below
  table.version                     bumped by every confirmed change (and by touch()):
                                    screens rebuild their cached rows then
  save_deal(record, index)          a deal added (index None) or deal `index` replaced
  delete_deal(index)                deal `index` removed (undo: the last one)
  trial(record, index, checked)     what the game would be with that deal (nothing saved)
  at_deal_limit(), next_rules(), record(action), dealer_fixed(fixes)
  settle_end()                      a round ended on time is over after its deals
  concours()                        the concours round the game is ({"round", "table",
                                    "teams"}), None: a game to the target

A change returns (done, message): done True when it was recorded, message the
key in the language table of what to tell the player (None: nothing). The
settings, team names, the dealer correction and the next game (a new game, a
concours round, the other team's confirmation of a round, its end on time)
are in table/settings.py (loaded on demand); the start, which builds a GameTable from the journal, in
table/start.py.
"""
from coinche.compat import const
from coinche.game import Game, GameError
from coinche.fields import RecordError
from coinche.rules import Rules, RulesError
from store.format import rules_after

MAX_NAME = const(8)  # characters of a team name
# The deal limit of one game. A game ends in 15-40 deals; only deals where all four
# pass (they score nothing) make it longer. At 150 deals, start-up, play and the
# archiving of the game fit the Pico's heap with room to spare (docs/storage.md,
# "Memory"; tests/test_deal_limit.py runs such a game at the heap it has).
MAX_DEALS = const(150)
# the messages about the flash and the limit stay up longer than a plain "saved"
LONG_MESSAGES = ("e_full", "e_store", "e_limit")


def new_game_action(rules, dealer, result=None, order="acw", names=None, concours=None):
    """The journal's "new" action; the first dealer, a clockwise dealing order, the
    team names and a concours round's {"round", "table", "teams"} travel inside the
    rules spec (the exporter reads them there), the final totals of the game it
    closes (if any) in "result"."""
    spec = rules.spec()
    spec["dealer"] = dealer
    if order != "acw":
        spec["dir"] = order
    if names:
        spec["names"] = names
    if concours:
        spec["concours"] = concours
    action = {"op": "new", "rules": spec}
    if result is not None:
        action["result"] = result
    return action


class GameTable:
    """The game at the table (see the module docstring)."""

    def __init__(self, journal, settings, archive, journal_rules):
        self.journal = journal
        self.settings = settings
        self.archive = archive
        # the rules spec (with the first dealer) of the game the journal holds, None: none
        self.journal_rules = journal_rules
        self.version = 0
        self.game = None  # set by the start (table/start.py)

    def touch(self):
        """Something every screen shows changed (a confirmed change, the language)."""
        self.version += 1

    def next_rules(self):
        """The rules spec of the next game: the setting, else the current game's (a
        concours round's without its deals: they were the round's, not the table's)."""
        spec = self.settings.get("rules")
        if spec:
            return spec
        spec = self.game.rules.spec()
        if self.concours():
            spec["options"].pop("deals", None)
        return spec

    def concours(self):
        """The concours round ({"round", "table", "teams": {"NS", "EW"}}) the current
        game plays, kept in its journaled "new"; None for a game to the target."""
        held = self.journal_rules
        return held.get("concours") if held else None

    def at_deal_limit(self):
        """Does the game hold MAX_DEALS deals?"""
        return len(self.game.deals) >= MAX_DEALS

    def trial(self, record, index, checked=False):
        """(DealResult, totals, over) the game would have with the record added (index
        None) or in place of deal `index`; checked: the record is already what
        coinche.record.validate() returned."""
        if index is None:
            # without a copy of the deals: the confirm step asks per units value
            return self.game.score_next(record, checked)
        plan = self.game.plan_replace(index, record)  # an edit: the deals after it are scored again
        return plan[1][index], plan[2], plan[3]

    def empty_game(self):
        """A game with no deal yet always follows the settings (rules, first dealer).

        So a rules change before the first deal is one write (the setting), the
        same after a reboot; the journal gets its "new" with the first deal."""
        held = self.journal_rules or {}
        # a concours round keeps its rules (its deals) when its last deal is undone
        spec = held if held.get("concours") else (self.settings.get("rules") or held)
        try:
            rules = Rules.from_spec(spec)
        except RulesError:
            rules = Rules.from_spec(held)
        return Game(rules, (), self.settings.get("dealer", held.get("dealer", "N")),
                    self.settings.get("dir", held.get("dir", "acw")))

    def follow_settings(self):
        """A game with no deal yet takes the settings again (True); a game under way
        keeps its rules and dealers (False)."""
        if self.game.deals:
            return False
        self.game = self.empty_game()
        return True

    def journal_matches(self, game):
        """Does the journal's current game have this game's rules and first dealer?"""
        held = self.journal_rules
        if not held:
            return False
        spec = game.rules.spec()
        return held.get("preset") == spec["preset"] and (held.get("options") or {}) == spec["options"] \
            and held.get("dealer", "N") == game.first_dealer and held.get("dir", "acw") == game.order

    def record(self, action):
        """Write an action to the journal: None, or the message saying why the flash refused it."""
        try:
            self.journal.record(action)
        except OSError as error:
            return "e_full" if error.args and error.args[0] == 28 else "e_store"
        except ValueError:  # the journal refused an impossible action: nothing written
            return "e_store"
        self.version += 1
        op = action["op"]
        if op == "new":
            self.journal_rules = action["rules"]
        elif op != "set" and self.journal_rules is not None:  # a game action: as the journal keeps it
            self.journal_rules = rules_after(self.journal_rules, action)
        return None

    def settle_end(self):
        """A round ended on time ("end": "time" in its rules) is over after the deals played,
        whatever their number: the higher total wins, equal totals are a draw."""
        game = self.game
        if not game.over and (self.journal_rules or {}).get("end"):
            total = game.total
            game.over = True
            game.winner = None if total["NS"] == total["EW"] else ("NS" if total["NS"] > total["EW"] else "EW")

    def save_deal(self, record, index):
        """Add a deal (index None) or put it in place of deal `index`: (done, message)."""
        game = self.game
        if index is None and (self.journal_rules or {}).get("end"):  # none after a round's end on time
            return False, "e_over"
        if index is None and self.at_deal_limit():
            return False, "e_limit"
        try:
            plan = game.plan_add(record) if index is None else game.plan_replace(index, record)
        except (RecordError, GameError) as error:
            return False, "e_end_before" if isinstance(error, GameError) else "e_field"
        record = plan[0][-1 if index is None else index]  # the validated record: the journal shares it
        action = {"op": "add", "deal": record} if index is None else {"op": "edit", "i": index, "deal": record}
        if not game.deals and not self.journal_matches(game):
            # first deal of a game whose rules changed while it was empty: the journal
            # starts that game now (a cut right after it boots to the same empty game)
            refused = self.record(new_game_action(game.rules, game.first_dealer, None, game.order,
                                                  self.settings.get("names")))
            if refused:
                return False, refused
        refused = self.record(action)
        if refused:
            return False, refused
        # a new Game object per change, as always, but only the changed deals were scored
        self.game = game.same_table().commit(plan)
        plan = None
        self.settle_end()
        return True, "saved"

    def delete_deal(self, index):
        """Remove deal `index` (undo: the last one): (done, message)."""
        game = self.game
        try:
            plan = game.plan_remove(index)
        except GameError:
            return False, "e_end_before"
        refused = self.record({"op": "del", "i": index})
        if refused:
            return False, refused
        self.game = game.same_table().commit(plan)
        plan = None
        if not self.game.deals:
            self.game = self.empty_game()  # as after a reboot
        self.settle_end()
        return True, "deleted"

    def dealer_fixed(self, fixes):
        """The game's dealer corrections, once journaled (table/settings.py)."""
        self.game.fixes = fixes
        if self.journal_rules is not None:
            self.journal_rules = dict(self.journal_rules)
            self.journal_rules["fix"] = fixes
