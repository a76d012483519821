"""The game's deals, one numbered row each (also a finished game's, read-only), and
the menu of one deal (edit, delete).

In their own module for the heap of `make deploy`: with the stock firmware's .mpy
files a module's bytecode is on the heap, and deal entry does not use them. Loaded
on demand (on_demand.py) when home, the menu, the game-over screen or the past
games open the list; the app releases it once no open screen comes from it
(App.go).
"""
from screens.base import Ask, ListScreen, RecordList, contract_text
from screens.deal_entry import Entry
from table.draft import Draft


def record_row(app, number, rec, result, totals):
    """A history row for the layout's records(): the deal number; its contract, with a capot
    (all tricks on a number bid) and a belote marked, as alternatives from the longest to
    the shortest ('160 SA x2 capot bel.', '160SAx2 capot bel.', '160SAx2 C B'); made or
    failed; each team's deal score and running total; the taker's side."""
    texts = app.texts
    flags = []
    if rec["bid"] != "pass":
        if rec.get("tricks") == 8 and isinstance(rec["bid"], int):
            flags.append(texts["capot_mark"])
        bel = rec.get("belote")
        if bel and (bel.get("NS") or bel.get("EW")):
            flags.append(texts["belote_mark"])
    spaced = contract_text(app, rec, False)
    compact = contract_text(app, rec, False, True)
    words = "".join(" " + f for f in flags)
    letters = "".join(" " + f[0].upper() for f in flags)
    contracts = (spaced + words, compact + words, compact + letters) if flags else (spaced, compact)
    if rec["bid"] == "pass":  # nothing scored: the totals only
        return (number, contracts, None, (None, totals["NS"]), (None, totals["EW"]), None)
    side = 0 if rec["taker"] == "NS" else 1
    return (number, contracts, result.made, (result.score["NS"], totals["NS"]), (result.score["EW"], totals["EW"]),
            side)


class History(RecordList):
    """The deals of the game (or of a finished game, read-only), one numbered row each."""

    name = "history"

    def __init__(self, app, game=None, back_to=None):
        self.game = game  # None: the current game (rows can be edited)
        n = len((game or app.game).deals)
        RecordList.__init__(self, app, back_to, max(0, n - 1))

    def rows(self):
        app = self.app
        g = self.game or app.game
        out = []
        totals = {"NS": 0, "EW": 0}
        for i in range(len(g.deals)):
            r = g.results[i]
            totals = {"NS": totals["NS"] + r.score["NS"], "EW": totals["EW"] + r.score["EW"]}
            out.append(record_row(app, i + 1, g.deals[i], r, totals))
        if not out:
            out.append((None, (app.texts["no_deals"],), None, (None, None), (None, None), None))
        return out

    def pick(self, i):
        if self.game is None and self.app.game.deals:
            self.app.go(DealMenu(self.app, i))


class DealMenu(ListScreen):
    name = "deal"

    def __init__(self, app, index):
        ListScreen.__init__(self, app)
        self.index = index

    def title(self):
        return self.app.texts["deal"] + " " + str(self.index + 1)

    def rows(self):
        texts = self.app.texts
        g = self.app.game
        r = g.results[self.index]
        tot = g.totals_after(self.index)
        app = self.app
        return [texts["edit"], texts["delete"], contract_text(app, g.deals[self.index]),
                (app.team_name("NS"), "+" + str(r.score["NS"])), (app.team_name("EW"), "+" + str(r.score["EW"])),
                (texts["total"], "%d %d" % (tot["NS"], tot["EW"]))]

    def pick(self, i):
        app = self.app
        if i == 0:
            app.go(Entry(app, Draft(app.game.rules, record=app.game.deals[self.index]), self.index, self))
        elif i == 1:
            app.go(Ask(app, app.texts["del_q"] + " " + str(self.index + 1) + "?", contract_text(app, app.game.deals[self.index]),
                     lambda: app.delete_deal(self.index, History(app)), self))

    def back(self):
        h = History(self.app)
        h.sel = self.index
        self.app.go(h)
