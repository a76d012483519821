"""The game's deals, one numbered row each (also a finished game's, read-only), and
the menu of one deal (edit, delete).

In their own module for the heap of `make deploy`: with the stock firmware's .mpy
files a module's bytecode is on the heap, and deal entry does not use them. Loaded
on demand (on_demand.py) when home, the menu, the game-over screen or the past
games open the list; the app releases it once no open screen comes from it
(App.go).
"""
import on_demand
from coinche.melds import credited, total
from screens.base import Ask, ListScreen, contract_text, played_name
from screens.record_list import RecordList
from screens.deal_entry import Entry
from table.draft import Draft

_KINDS = {"NT": "NT", "AT": "AT"}  # a trump code -> its text key; any suit is "suit"
_ROW = 17  # characters of a list row of the 128x64 screen (7 px apart), inside its highlight


def _row(*texts):
    """The first of texts (the longest first) that fits a list row; the last one anyway."""
    for text in texts:
        if len(text) <= _ROW:
            return text
    return texts[-1]


def detail_rows(app, rules, rec, result, team_name=None):
    """What was recorded for one deal, one short row each (a list row of the 128x64
    screen): the contract and its type, the coinche, made or failed with capot or
    generale named, why it failed, both sides' card points, the belotes by team, each
    team's melds by name and whose melds scored. Every fact has its own row, so a
    failure reason never takes the place of a belote or a meld. team_name(team): the
    names of the deal's game (app.team_name by default)."""
    texts = app.texts
    team_name = team_name or app.team_name
    rows = [contract_text(app, rec, True, False, team_name)]
    if rec["bid"] == "pass":
        return rows
    rows.append(texts[_KINDS.get(rec.get("trump"), "suit")])
    coinche = rec.get("coinche", 0)
    if coinche:
        rows.append((texts["f_coinche"], "x" + str(2 * coinche)))
    points = rec.get("points", 0)
    special = None
    if rec.get("solo"):
        special = texts["generale"]
    elif rec.get("tricks") == 8:
        special = texts["capot"]
    elif rec.get("tricks") == 0 or (points == 0 and rec["bid"] != "generale"):
        special = texts["def_all"]
    verdict = texts["made"] if result.made else texts["failed"]
    rows.append(verdict + ": " + special if special else verdict)
    if not result.made and result.failure is not None:
        why, _, need = result.failure
        rows.append(texts["r_" + why] + (" " + str(need) if why == "beat" else ""))
    taker = rec["taker"]
    defence = "EW" if taker == "NS" else "NS"
    card = {taker: points, defence: 162 - points}
    rows.append((texts["d_points"], str(card["NS"]) + " " + str(card["EW"])))
    belote = rec.get("belote") or {}
    for team in ("NS", "EW"):
        count = belote.get(team, 0)
        if count:
            times = " x" + str(count) if count > 1 else ""
            name = team_name(team)
            rows.append(_row(texts["belote"] + " " + name + times, texts["belote_mark"] + " " + name + times))
    melds = rec.get("melds") or {}
    for team in ("NS", "EW"):
        codes = melds.get(team) or ()
        if codes:
            name = team_name(team)
            rows.append(_row(texts["d_melds"] + " " + name, texts["melds_short"] + " " + name))
            for code in codes:
                rows.append("  " + texts[code])
    if melds.get("NS") or melds.get("EW"):
        team, scored = credited(rules, rec)
        if scored:
            name = team_name(team)
            rows.append(_row(texts["melds_short"] + " " + name + " " + str(scored),
                             texts["melds_short"].rstrip(".") + "." + name + " " + str(scored)))
            other = "EW" if team == "NS" else "NS"
            theirs = total(melds.get(other) or (), rec["trump"], rules["carre_nt"]) if rules["melds"] == "all" else 0
            if theirs:  # the best side scores both sides' melds: the other side's are seen going over
                rows.append(_row("  " + str(scored - theirs) + "+" + team_name(other) + " " + str(theirs),
                                 "  " + str(scored - theirs) + "+" + str(theirs)))
        else:
            rows.append(texts["melds_short"] + " " + texts["nobody"])
    return rows


def record_row(app, number, rec, result, totals):
    """A history row for the layout's records(): the deal number; its contract, with a capot
    (all tricks on a number bid), a belote and melds marked, as alternatives from the longest to
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
        melds = rec.get("melds")
        if melds and (melds.get("NS") or melds.get("EW")):
            flags.append(texts["melds_short"].lower())  # the deal's screen names them
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

    def __init__(self, app, game=None, back_to=None, names=None):
        self.game = game  # None: the current game (rows can be edited)
        self.played = names  # a finished game's names as it was played ({}: none)
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
        elif self.game is not None:  # a finished game's chart, one row below its last deal
            out.append((None, (app.texts["m_chart"],), None, (None, None), (None, None), None))
        return out

    def pick(self, i):
        app = self.app
        if self.game is None and app.game.deals:
            app.go(DealMenu(app, i))
        elif self.game is not None and i == len(self.game.deals):
            app.go(on_demand.screen("Chart")(app, self, self.game, self.played or {}))
        elif self.game is not None and self.game.deals:  # a finished game's deal: what was recorded
            app.go(DealMenu(app, i, self.game, self, self.played or {}))


class DealMenu(ListScreen):
    """One deal: edit and delete (a deal of the current game), then everything that
    was recorded for it (detail_rows), its score and the totals after it. The rows go
    on below the screen: the hint says UP/DOWN shows them."""

    name = "deal"

    def __init__(self, app, index, game=None, back_to=None, names=None):
        ListScreen.__init__(self, app, back_to)
        self.index = index
        self.game = game  # None: the current game's deal (it can be edited)
        self.played = names  # a finished game's names as it was played ({}: none); None: the table's

    def team_name(self, team):
        """The team's name in this game (see played_name)."""
        return played_name(self.app, self.played, team)

    def title(self):
        return self.app.texts["deal"] + " " + str(self.index + 1)

    def hint(self):
        return self.app.texts["d_keys"] if self.game is None else self.app.texts["d_keys_read"]

    def rows(self):
        texts = self.app.texts
        app = self.app
        g = self.game or app.game
        r = g.results[self.index]
        tot = g.totals_after(self.index)
        actions = [texts["edit"], texts["delete"]] if self.game is None else []
        return actions + detail_rows(app, g.rules, g.deals[self.index], r, self.team_name) + [
            (self.team_name("NS"), "+" + str(r.score["NS"])), (self.team_name("EW"), "+" + str(r.score["EW"])),
            (texts["total"], "%d %d" % (tot["NS"], tot["EW"]))]

    def draw(self, layout):
        rows = self.cached_rows()
        self.scroll(len(rows), layout.HINT_ROWS)  # the hint takes the last rows
        layout.listing(self.title(), rows, self.sel, self.top, None, self.hint())

    def pick(self, i):
        app = self.app
        if self.game is not None:
            return
        if i == 0:
            app.go(Entry(app, Draft(app.game.rules, record=app.game.deals[self.index]), self.index, self))
        elif i == 1:
            app.go(Ask(app, app.texts["del_q"] % (self.index + 1), contract_text(app, app.game.deals[self.index]),
                     lambda: app.delete_deal(self.index, History(app)), self))

    def back(self):
        if self.back_to is not None:
            self.back_to.sel = self.index
            self.app.go(self.back_to)
            return
        h = History(self.app)
        h.sel = self.index
        self.app.go(h)
