"""Statistics per team over one game or many: the same figures on the device and in exports.

A Tally is a pair of small integer lists (one per team) that deals and games are
added to; it keeps no deal, so it can run over the whole archive one game at a
time. What counts as what (a pub table's reading):

* taken / made: contracts the team bid (an all-pass deal is nobody's), and those made;
* coinched / coinche won: the team coinched the other side's contract (coinche 1:
  the defence doubled), and the contract failed;
* surcoinched / surcoinche won: the team, coinched, surcoinched (coinche 2: the
  takers redoubled), and made the contract;
* capots: deals in which the team won all eight tricks (a made capot or generale
  bid, `tricks` 8 or `solo` for the takers, `tricks` 0 for the defence);
* belotes: belotes the team declared; points and deals: for the average per deal;
* games and won: finished games, and those the team won.
"""

TAKEN = 0
MADE = 1
COINCHED = 2
COINCHE_WON = 3
SURCOINCHED = 4
SURCOINCHE_WON = 5
CAPOTS = 6
BELOTES = 7
POINTS = 8
DEALS = 9
GAMES = 10
WON = 11
FIELDS = 12
TEAMS = ("NS", "EW")
NAMES = ("taken", "made", "coinched", "coinche_won", "surcoinched", "surcoinche_won",
         "capots", "belotes", "points", "deals", "games", "won")


def percent(part, whole):
    """part/whole in whole percent, rounded half up; None when whole is 0."""
    if not whole:
        return None
    return (200 * part + whole) // (2 * whole)


class Tally:
    def __init__(self):
        self.counts = {"NS": [0] * FIELDS, "EW": [0] * FIELDS}

    def clear(self):
        for t in TEAMS:
            c = self.counts[t]
            for i in range(FIELDS):
                c[i] = 0

    def add_deal(self, rec, result):
        """One scored deal: its record and its scoring.DealResult."""
        bid = rec.get("bid")
        belote = rec.get("belote") or {}
        for t in TEAMS:
            c = self.counts[t]
            c[DEALS] += 1
            c[POINTS] += result.score[t]
            c[BELOTES] += belote.get(t, 0)
        if bid == "pass":
            return
        taker = rec.get("taker")
        defence = "EW" if taker == "NS" else "NS"
        made = result.made
        tc = self.counts[taker]
        dc = self.counts[defence]
        tc[TAKEN] += 1
        if made:
            tc[MADE] += 1
        coinche = rec.get("coinche", 0)
        if coinche == 1:
            dc[COINCHED] += 1
            if not made:
                dc[COINCHE_WON] += 1
        elif coinche == 2:
            dc[COINCHED] += 1  # the defence coinched first
            tc[SURCOINCHED] += 1
            if made:
                tc[SURCOINCHE_WON] += 1
            else:
                dc[COINCHE_WON] += 1
        tricks = rec.get("tricks")
        if (made and (bid == "capot" or bid == "generale")) or tricks == 8 or rec.get("solo"):
            tc[CAPOTS] += 1
        elif tricks == 0:
            dc[CAPOTS] += 1

    def add_game(self, game):
        """Every deal of a coinche.game.Game; a finished game counts for its winner."""
        deals = game.deals
        results = game.results
        for i in range(len(deals)):
            self.add_deal(deals[i], results[i])
        if game.over:
            for t in TEAMS:
                c = self.counts[t]
                c[GAMES] += 1
                if game.winner == t:
                    c[WON] += 1

    def average(self, team):
        """Points per deal, rounded half up; None before the first deal."""
        c = self.counts[team]
        if not c[DEALS]:
            return None
        return (2 * c[POINTS] + c[DEALS]) // (2 * c[DEALS])

    def as_dict(self, team):
        """The counts of one team by name, with made % and the average (for exports)."""
        c = self.counts[team]
        out = {}
        for i in range(FIELDS):
            out[NAMES[i]] = c[i]
        out["made_percent"] = percent(c[MADE], c[TAKEN])
        out["average"] = self.average(team)
        return out
