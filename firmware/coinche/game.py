"""A game: rules plus the ordered deal records; everything else is derived.

Totals, the end of the game and the dealer are recomputed from the records on
every change, so editing or removing a past deal can never leave a stale total.
"""

from coinche import scoring
from coinche.fields import FieldError, RecordError

# Seats in dealing order: the deal passes to the right, counter-clockwise
# seen from above (N -> W -> S -> E); tables that deal the other way use
# CLOCKWISE (N -> E -> S -> W).
SEATS = ("N", "W", "S", "E")
CLOCKWISE = ("N", "E", "S", "W")
ORDERS = {"acw": SEATS, "cw": CLOCKWISE}
SEAT_TEAM = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def counts(rules, result):
    """Whether a deal with that result is one of a fixed round's deals: every deal, but an
    all-pass one (result.made None) only when pass_counts says so."""
    return result.made is not None or rules["pass_counts"]


def end_of_game(rules, tot, result, counted=0):
    """(over, winner) after a deal with that result and the new totals; counted: the deals
    of a fixed round (the `deals` option) counted so far, this one included. A round
    ends after its deals whatever the totals, and equal totals are a draw: over with
    winner None (a game to the target never ends that way)."""
    length = rules["deals"]
    if length:
        if counted < length:
            return False, None
        if tot["NS"] == tot["EW"]:
            return True, None
        return True, "NS" if tot["NS"] > tot["EW"] else "EW"
    target = rules["target"]
    q = []
    for t in ("NS", "EW"):
        if tot[t] >= target:
            if rules["bonus_rule"] and tot[t] - result.bonus[t] < target:
                continue  # only there thanks to this deal's melds/belote
            q.append(t)
    if not q:
        return False, None
    if len(q) == 1:
        return True, q[0]
    if tot["NS"] != tot["EW"]:
        return True, "NS" if tot["NS"] > tot["EW"] else "EW"
    if rules["tie"] == "deal" and result.winner is not None:
        return True, result.winner
    return False, None  # exact tie: one more deal


def validate(rules, rec):
    """coinche.record.validate(): the record module imported for the check (on the device
    it is released afterwards, firmware/on_demand.py: its code is not kept on the heap
    between two deals)."""
    from coinche.record import validate as check

    return check(rules, rec)


class GameError(FieldError):
    """An action the game cannot take (a deal after the end, a bad index...)."""


def over_error(winner):
    """The GameError for a deal after the end (a round can end in a draw)."""
    if winner is None:
        return GameError("deal", "the round is over (a draw)")
    return GameError("deal", "the game is over (%s won)" % winner)


class Results:
    """A game's deal results, as a read-only sequence of scoring.DealResult.

    The game keeps only each deal's two scores (two small ints in a flat list,
    `scores`: NS then EW of each deal) and the last deal's result (home shows it
    at every redraw); any other result is scored again from its deal when asked:
    scoring is pure, so it is the same result, and a kept DealResult costs about
    a hundred bytes of the Pico's heap per deal."""

    def __init__(self, rules, deals, scores, last):
        self.rules = rules
        self.deals = deals
        self.scores = scores
        self.last = last

    def __len__(self):
        return len(self.deals)

    def __getitem__(self, index):
        count = len(self.deals)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("no result %d (the game has %d deals)" % (index, count))
        if index == count - 1:
            return self.last
        return scoring.score(self.rules, self.deals[index])

    def __iter__(self):
        for index in range(len(self.deals)):
            yield self[index]


class Game:
    def __init__(self, rules, deals=(), dealer="N", order="acw", fixes=()):
        """dealer: who deals the first deal; order: "acw" (N W S E, the default) or
        "cw" (N E S W); fixes: dealer corrections [[deal index, seat], ...], each
        saying who deals that deal (the ones after follow the order from there)."""
        if dealer not in SEATS:
            raise GameError("dealer", "must be one of N, W, S, E, got %r" % (dealer,))
        if order not in ORDERS:
            raise GameError("order", "must be acw or cw, got %r" % (order,))
        for fix in fixes:
            if len(fix) != 2 or type(fix[0]) is not int or fix[0] < 0 or fix[1] not in SEATS:
                raise GameError("fixes", "each must be [deal index, seat], got %r" % (fix,))
        self.rules = rules
        self.first_dealer = dealer
        self.order = order
        self.fixes = [list(f) for f in fixes]
        self.deals = []
        self.results = Results(rules, self.deals, [], None)
        self.commit(self._score([validate(rules, d) for d in deals], 0))

    # -- derived state ---------------------------------------------------
    def _score(self, deals, start):
        """(deals, results, total, over, winner) of `deals`, whose first `start`
        records are this game's: their scores are kept, deals[start:] are scored.
        GameError if the game would end before the last deal, so no deal is ever
        silently ignored. (This game never ends before its own last deal.)"""
        scores = self.results.scores[:2 * start]
        ns = ew = 0
        for i in range(0, len(scores), 2):
            ns += scores[i]
            ew += scores[i + 1]
        # room for the new deals' scores at once: appended one by one, the list (kept by
        # Results) would double its size, an allocation as large as the game's scores
        scores += [0] * (2 * (len(deals) - start))
        tot = {"NS": ns, "EW": ew}
        counted = self._counted(deals, start)
        over, winner, end_at = False, None, start
        if start and start == len(self.deals):
            over, winner = self.over, self.winner
        last = None
        for i in range(start, len(deals)):
            if over:
                raise GameError("deal", "the game would already be over after deal %d, before deal %d" % (end_at, i + 1))
            last = scoring.score(self.rules, deals[i])
            scores[2 * i] = last.score["NS"]
            scores[2 * i + 1] = last.score["EW"]
            tot["NS"] += last.score["NS"]
            tot["EW"] += last.score["EW"]
            if counts(self.rules, last):
                counted += 1
            over, winner = end_of_game(self.rules, tot, last, counted)
            end_at = i + 1
        if last is None and deals:  # no deal scored: the last one is kept, or was removed
            last = self.results.last if len(deals) == len(self.deals) else scoring.score(self.rules, deals[-1])
        return deals, Results(self.rules, deals, scores, last), tot, over, winner

    def commit(self, plan):
        """Apply what _score() or a plan_*() call returned (the game must not have
        changed since); returns the game."""
        self.deals, self.results, self.total, self.over, self.winner = plan
        return self

    def _counted(self, deals, stop):
        """How many of deals[:stop] count toward a fixed round."""
        if self.rules["pass_counts"] or not self.rules["deals"]:
            return stop
        passed = 0
        for i in range(stop):
            if deals[i]["bid"] == "pass":
                passed += 1
        return stop - passed

    @property
    def drawn(self):
        """A fixed round over with equal totals."""
        return self.over and self.winner is None

    def round_deal(self):
        """The number (from 1) of the next deal of a fixed round, as home shows it
        ("5/12"): the counted deals so far plus one."""
        return self._counted(self.deals, len(self.deals)) + 1

    # -- actions ---------------------------------------------------------
    # plan_*() compute the game after an action without changing it (GameError,
    # RecordError when it cannot be taken); commit() applies a plan. Only the
    # deals from the changed one on are scored again.
    def _plan(self, i, rec):
        deals = list(self.deals)
        if rec is None:
            del deals[i]
        elif i == len(deals):
            deals.append(rec)
        else:
            deals[i] = rec
        return self._score(deals, i)

    def plan_add(self, rec):
        if self.over:
            raise over_error(self.winner)
        return self._plan(len(self.deals), validate(self.rules, rec))

    def score_next(self, rec, checked=False):
        """(DealResult, totals, over) of the game with rec added after its last deal, as
        plan_add() would give them, without copying the deals (the device's confirm step
        asks once per key press); the game does not change. checked: rec is already
        what validate() returned. GameError once the game is over, as plan_add()."""
        if self.over:
            raise over_error(self.winner)
        r = scoring.score(self.rules, rec if checked else validate(self.rules, rec))
        total = {"NS": self.total["NS"] + r.score["NS"], "EW": self.total["EW"] + r.score["EW"]}
        counted = self._counted(self.deals, len(self.deals)) + (1 if counts(self.rules, r) else 0)
        return r, total, end_of_game(self.rules, total, r, counted)[0]

    def plan_replace(self, i, rec):
        self._index(i)
        return self._plan(i, validate(self.rules, rec))

    def plan_remove(self, i):
        self._index(i)
        return self._plan(i, None)

    def add(self, rec):
        """Validate, score and append a deal; returns its DealResult (GameError once the
        game is over: plan_add)."""
        self.commit(self.plan_add(rec))
        return self.results[-1]

    def replace(self, i, rec):
        self.commit(self.plan_replace(i, rec))

    def remove(self, i):
        self.commit(self.plan_remove(i))

    def undo(self):
        if not self.deals:
            raise GameError("deal", "no deal to undo")
        self.remove(len(self.deals) - 1)

    def _index(self, i):
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self.deals):
            raise GameError("deal", "no deal number %r (the game has %d)" % (i, len(self.deals)))

    # -- table -------------------------------------------------------------
    def dealer(self, i=None):
        """Seat that deals deal i (0-based); by default the next deal. The latest
        correction at or before deal i says who dealt then; the order does the rest."""
        if i is None:
            i = len(self.deals)
        at, seat = 0, self.first_dealer
        for fix in self.fixes:
            if at <= fix[0] <= i:
                at, seat = fix[0], fix[1]
        seats = ORDERS[self.order]
        return seats[(seats.index(seat) + i - at) % 4]

    def with_fix(self, seat):
        """The corrections with "the next deal is dealt by seat" (replacing one for that deal)."""
        at = len(self.deals)
        return [f for f in self.fixes if f[0] != at] + [[at, seat]]

    def same_table(self):
        """A game with no deals yet, these rules and this dealing (for plan_*() commits)."""
        return Game(self.rules, (), self.first_dealer, self.order, self.fixes)

    def totals_after(self, i):
        """Totals after deal i (0-based), for the history screen."""
        scores = self.results.scores
        ns = ew = 0
        for j in range(0, min(2 * (i + 1), len(scores)), 2):
            ns += scores[j]
            ew += scores[j + 1]
        return {"NS": ns, "EW": ew}


class RunningScore:
    """A game scored as its deals arrive, without keeping them: the totals,
    the end and the last deal's result, in constant time and memory per deal.
    Scores exactly as Game does (same checks, same messages, same end rule),
    for a stream of deals that is never edited (the calculator)."""

    def __init__(self, rules):
        self.rules = rules
        self.total = {"NS": 0, "EW": 0}
        self.over = False
        self.winner = None
        self.count = 0  # deals added
        self.counted = 0  # of them, the deals that count toward a fixed round
        self.last = None  # DealResult of the last deal

    def add(self, rec):
        """Validate, score and count a deal; returns its DealResult."""
        if self.over:
            raise over_error(self.winner)
        r = scoring.score(self.rules, validate(self.rules, rec))
        total = self.total
        total["NS"] += r.score["NS"]
        total["EW"] += r.score["EW"]
        if counts(self.rules, r):
            self.counted += 1
        self.over, self.winner = end_of_game(self.rules, total, r, self.counted)
        self.count += 1
        self.last = r
        return r


__all__ = ("Game", "GameError", "RecordError", "Results", "RunningScore", "SEATS", "SEAT_TEAM", "counts", "end_of_game")
