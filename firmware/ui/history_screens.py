"""The game's deals, one numbered row each (also a finished game's, read-only), and
the menu of one deal (edit, delete).

In their own module for the heap of `make deploy`: with the stock firmware's .mpy
files a module's bytecode is on the heap, and deal entry does not use them. Home,
the menu, the game-over screen and the past games import it when the list opens;
the app releases it once no open screen comes from it (App.go, modules_on_demand.py).
"""
from ui import entry as E
from ui.screens import Ask, Entry, ListScreen, RecordList, contract_text


def record_row(app, number, rec, result, totals):
    """A history row for layout.records(): the deal number; its contract, with a capot
    (all tricks on a number bid) and a belote marked, as alternatives from the longest to
    the shortest ('160 SA x2 capot bel.', '160SAx2 capot bel.', '160SAx2 C B'); made or
    failed; each team's deal score and running total; the taker's side."""
    T = app.T
    flags = []
    if rec["bid"] != "pass":
        if rec.get("tricks") == 8 and isinstance(rec["bid"], int):
            flags.append(T["capot_mark"])
        bel = rec.get("belote")
        if bel and (bel.get("NS") or bel.get("EW")):
            flags.append(T["belote_mark"])
    spaced = contract_text(app, rec, False)
    compact = contract_text(app, rec, False, True)
    words = "".join(" " + f for f in flags)
    letters = "".join(" " + f[0].upper() for f in flags)
    texts = (spaced + words, compact + words, compact + letters) if flags else (spaced, compact)
    if rec["bid"] == "pass":  # nothing scored: the totals only
        return (number, texts, None, (None, totals["NS"]), (None, totals["EW"]), None)
    side = 0 if rec["taker"] == "NS" else 1
    return (number, texts, result.made, (result.score["NS"], totals["NS"]), (result.score["EW"], totals["EW"]),
            side)


class History(RecordList):
    """The deals of the game (or of a finished game, read-only), one numbered row each."""

    name = "history"

    def __init__(self, app, game=None, back_to=None):
        self.game = game  # None: the current game (rows can be edited)
        n = len((game or app.game).deals)
        RecordList.__init__(self, app, back_to, max(0, n - 1))

    def rows(self):
        a = self.app
        g = self.game or a.game
        out = []
        totals = {"NS": 0, "EW": 0}
        for i in range(len(g.deals)):
            r = g.results[i]
            totals = {"NS": totals["NS"] + r.score["NS"], "EW": totals["EW"] + r.score["EW"]}
            out.append(record_row(a, i + 1, g.deals[i], r, totals))
        if not out:
            out.append((None, (a.T["no_deals"],), None, (None, None), (None, None), None))
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
        return self.app.T["deal"] + " " + str(self.index + 1)

    def rows(self):
        T = self.app.T
        g = self.app.game
        r = g.results[self.index]
        tot = g.totals_after(self.index)
        a = self.app
        return [T["edit"], T["delete"], contract_text(a, g.deals[self.index]),
                (a.team_name("NS"), "+" + str(r.score["NS"])), (a.team_name("EW"), "+" + str(r.score["EW"])),
                (T["total"], "%d %d" % (tot["NS"], tot["EW"]))]

    def pick(self, i):
        a = self.app
        if i == 0:
            a.go(Entry(a, E.Draft(a.game.rules, record=a.game.deals[self.index]), self.index, self))
        elif i == 1:
            a.go(Ask(a, a.T["del_q"] + " " + str(self.index + 1) + "?", contract_text(a, a.game.deals[self.index]),
                     lambda: a.delete_deal(self.index, History(a)), self))

    def back(self):
        h = History(self.app)
        h.sel = self.index
        self.app.go(h)


# the screens this module defines: App keeps the module loaded while one of them is open
SCREENS = (History, DealMenu)
