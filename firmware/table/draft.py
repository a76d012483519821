"""The deal being entered at the table: its fields, which steps apply, and the record it makes.

Pure data and rules (no drawing, no buttons), so the host key planner and the
tests reason about exactly the same steps and defaults as the device.
"""

from coinche import melds as _melds
from coinche.fields import other

# steps
S_TAKER = "taker"
S_BID = "bid"
S_TENS = "tens"
S_MELDS_TO = "melds_to"
S_CONFIRM = "confirm"



def wrap_or_stop(index, step, count, wrap):
    """index moved by step among count positions: round the ends when wrap (a press),
    else stop at them (a held key: its repeats never spin round). Every list of the
    screens uses it, and the draft's card points by one; here, under the screens."""
    if wrap:
        return (index + step) % count
    return min(count - 1, max(0, index + step))


# special card-point items on the tens picker
ALL = "all"          # the takers won all tricks (capot)
DEF_ALL = "def_all"  # the defence won all tricks
SOLO = "solo"        # the bidder alone won all tricks (generale)

BELOTE = "belote"        # announce picker: one more belote for the team
BEST = "best"            # announce picker: the table says whose melds are best
REMOVE_BELOTE = "-belote"
TIERCE = "tierce"        # the two melds of the three-way picker's own keys
QUARTE = "quarte"
# a removal of the team's meld number i is the int i


def coinche_options(rules, bid):
    if not isinstance(bid, int) and not rules["capot_coinche"]:
        return (0,)
    return (0, 1, 2)


class Draft:
    """Every field of the deal under entry; BACK never clears any of them."""

    def __init__(self, rules, taker="NS", record=None):
        self.rules = rules
        self.editing = record is not None
        self.taker = taker
        self.kind = "suit"
        self.coinche = 0
        self.pile = "T"          # whose card points are entered: T takers, D defence
        self.belote = (0, 0)
        self.melds = {"NS": [], "EW": []}
        self.melds_to = "auto"   # auto (engine decides), NS, EW or None (nobody)
        self.touched = record is not None  # card points entered (or loaded): a bid change keeps them
        self.ask_melds_to = False  # held OK on the melds step: the table says whose melds are best
        self._bids = None
        self._tens = {}
        self.bid = 80  # the lowest bid: one step from any usual contract, whatever came before
        self.tens = None
        self.units = 0
        if record is not None:
            self._load(record)
        else:
            self.tens = self.default_tens()

    def _load(self, rec):
        if rec["bid"] == "pass":
            self.bid = "pass"
            self.tens = self.default_tens()
            return
        self.taker = rec["taker"]
        self.bid = rec["bid"]
        t = rec["trump"]
        self.kind = t if t in ("NT", "AT") else "suit"
        self.coinche = rec.get("coinche", 0)
        p = rec["points"]
        if rec.get("solo"):
            self.tens = SOLO
        elif rec.get("tricks") == 8:
            self.tens = ALL
        elif rec.get("tricks") == 0:
            self.tens = DEF_ALL
        else:
            self.tens = p // 10
            self.units = p % 10
        bel = rec.get("belote")
        if bel:
            self.belote = (bel.get("NS", 0), bel.get("EW", 0))
        m = rec.get("melds")
        if m:
            self.melds = {"NS": list(m.get("NS", [])), "EW": list(m.get("EW", []))}
        if "melds_to" in rec:
            self.melds_to = rec["melds_to"]

    # -- choices --------------------------------------------------------
    # The choice lists are built once per draft: a key press only moves in them.
    def bid_items(self):
        if self._bids is None:
            self._bids = ["pass"] + self.rules.bids()
        return self._bids

    def tens_items(self):
        lists = self._tens
        if self.pile not in lists:
            specials_hi = [ALL] + ([SOLO] if self.rules["generale"] else [])
            nums = list(range(17))
            if self.pile == "T":
                lists["T"] = [DEF_ALL] + nums + specials_hi
            else:
                specials_hi.reverse()
                lists["D"] = specials_hi + nums + [DEF_ALL]
        return lists[self.pile]

    def default_tens(self):
        if self.bid == "capot":
            return ALL
        if self.bid == "generale":
            return SOLO
        b = self.bid if isinstance(self.bid, int) else 80
        return b // 10 if self.pile == "T" else (162 - b) // 10

    def set_pile(self, pile):
        """Switch between counting the takers' pile and the defence's; keeps the total."""
        if pile == self.pile:
            return
        if isinstance(self.tens, int):
            v = 162 - self.points_entered()
            self.tens, self.units = v // 10, v % 10
        self.pile = pile

    def kinds(self):
        """Contract types this preset has; held OK on the contract step cycles them."""
        return ("suit",) if self.rules["contracts"] == "suits" else ("suit", "NT", "AT")

    def trump(self):
        """The contract type as the scoring core names it (any suit is "S")."""
        return "NT" if self.kind == "NT" else ("AT" if self.kind == "AT" else "S")

    def belote_room(self, team):
        """Can this team announce one more belote in this contract?"""
        if self.rules["belote"] == "taker" and team != self.taker:
            return False
        return self.belote[0] + self.belote[1] < self.rules.max_belote(self.trump())

    def announce_items(self, team):
        """What the announce picker of `team` offers, in order: one more belote,
        each meld of the preset, whose melds are best, then one removal per
        belote and per meld the team has (a removal of meld i is the int i)."""
        out = []
        if self.belote_room(team):
            out.append(BELOTE)
        if self.rules.has_melds():
            out += _melds.CODES
            if self.melds["NS"] or self.melds["EW"]:
                out.append(BEST)
        out += [REMOVE_BELOTE] * self.belote[0 if team == "NS" else 1]
        out.extend(range(len(self.melds[team])))
        return out

    def announce_choices(self, team):
        """The three-way announce picker of team: (UP item, DOWN item, held-OK item, the
        list behind OK), from announce_items: UP one more belote, DOWN a tierce, held OK
        a quarte, OK the rest (quinte, carres, whose melds are best, the removals).
        A key with nothing to give is None."""
        items = self.announce_items(team)
        up = BELOTE if BELOTE in items else None
        down = TIERCE if TIERCE in items else None
        hold = QUARTE if QUARTE in items else None
        others = [x for x in items if x != BELOTE and x != TIERCE and x != QUARTE]
        return up, down, hold, others

    def announce(self, team, item):
        """Apply one picker item for team (see announce_items)."""
        i = 0 if team == "NS" else 1
        if item == BELOTE:
            self.belote = (self.belote[0] + 1, self.belote[1]) if i == 0 else (self.belote[0], self.belote[1] + 1)
        elif item == REMOVE_BELOTE:
            self.belote = (self.belote[0] - 1, self.belote[1]) if i == 0 else (self.belote[0], self.belote[1] - 1)
        elif item == BEST:
            self.ask_melds_to = True
        elif isinstance(item, int):
            del self.melds[team][item]
        else:
            self.melds[team].append(item)

    def melds_unsettled(self):
        """Both sides announced melds the codes cannot rank, and the table has not said."""
        return self.melds_to == "auto" and self.needs_melds_to()

    def coinche_items(self):
        return coinche_options(self.rules, self.bid)

    def coinche_level(self):
        """The coinche that applies: 0 for a pass, and for a capot bid the preset forbids
        it on (a coinche set on another bid does not carry over to it)."""
        return self.coinche if self.bid != "pass" and len(self.coinche_items()) > 1 else 0

    # -- steps ---------------------------------------------------------
    def steps(self):
        """The steps a deal goes through: the contract, then the check-and-save step.
        The coinche is set on the contract step (held BACK); the card points, belote
        and melds on the check step itself (UP/DOWN: the card points by one, held OK /
        held BACK: the NS / EW announces), so a deal without them costs no press for
        them. The card points by tens (S_TENS) are the check step's BACK, not a step
        of their own: there the defence's pile and the capots are picked."""
        out = []
        if self.editing:
            out.append(S_TAKER)
        out.append(S_BID)
        out.append(S_CONFIRM)
        return out

    def has_points(self):
        """Are the card points a number the check step sets (not a capot, a defence
        capot or a generale, nor a pass)?"""
        return self.bid != "pass" and isinstance(self.tens, int)

    def step_points(self, direction, wrap=True):
        """The card points entered one up (direction 1) or down (-1), 0..162: a press
        wraps (0 is one UP from 162), a held key stops at the ends. False: nothing
        changed (held at an end)."""
        was = self.points_entered()
        v = wrap_or_stop(was, direction, 163, wrap)
        if v == was:
            return False
        self.tens, self.units = v // 10, v % 10
        self.touched = True
        return True

    def needs_melds_to(self):
        """Ask who has the best melds only when the codes cannot tell (or the table overrode it)."""
        if self.melds_to != "auto" or self.ask_melds_to:
            return True
        if not (self.melds["NS"] and self.melds["EW"]):
            return False
        return _melds.winner(self.melds, self.trump(), self.rules["carre_nt"]) is None

    def takers_points(self):
        if self.tens in (ALL, SOLO):
            return 162
        if self.tens == DEF_ALL:
            return 0
        v = self.points_entered()
        return v if self.pile == "T" else 162 - v

    def points_entered(self):
        """The card points as entered (tens and units, at most 162), of the pile counted."""
        return min(162, self.tens * 10 + self.units)

    def record(self):
        if self.bid == "pass":
            return {"bid": "pass"}
        rec = {"taker": self.taker, "bid": self.bid, "trump": self.kind, "coinche": self.coinche_level(),
               "points": self.takers_points()}
        if self.tens in (ALL, SOLO):
            rec["tricks"] = 8
        elif self.tens == DEF_ALL:
            rec["tricks"] = 0
        if self.tens == SOLO:
            rec["solo"] = True
        if self.belote != (0, 0):
            rec["belote"] = {"NS": self.belote[0], "EW": self.belote[1]}
        if self.melds["NS"] or self.melds["EW"]:
            rec["melds"] = {"NS": list(self.melds["NS"]), "EW": list(self.melds["EW"])}
            if self.melds_to != "auto":
                rec["melds_to"] = self.melds_to
        return rec


__all__ = ("Draft", "coinche_options", "other")
