"""The past games screen: the finished games kept on flash, and the deals of one.

In its own module for the heap of `make deploy`: with the stock firmware's .mpy
files a module's bytecode is on the heap, and a game at the table does not look
at past games. Loaded on demand (on_demand.py) when the menu opens it; the app releases it
once no open screen comes from it (App.go).
"""
import on_demand
from coinche.rules import Rules
from screens.record_list import RecordList


class Archive(RecordList):
    """Finished games kept on flash (the last 20), newest first: the rules, the deal count,
    the final totals with the winner marked. OK opens a game's deals (read-only).

    Rows come from each game's first line (journal summary), so the list never
    holds twenty games of deals in RAM."""

    name = "archive"

    def rows(self):
        app = self.app
        texts = app.texts
        arc = app.archive
        out = []
        for i in range(len(arc) - 1, -1, -1):
            summ = arc.summary(i) if hasattr(arc, "summary") else arc[i]
            rules = summ.get("rules") or {}
            res = summ.get("result") or summ.get("total")
            n = summ.get("n")
            if n is None:
                n = len(summ.get("deals") or ())
            count = str(n) + " " + texts["deals_n"]
            preset = texts.get("p_" + str(rules.get("preset")), "?")
            # the preset always, the count as long as it fits: "Classique, 12 donnes" .. "Classique 12"
            lines = (preset + ", " + count, preset + " " + str(n) + " " + texts["deals_short"], preset + " " + str(n))
            if res:  # the winner's final total gets a tick
                winner = res.get("winner")
                out.append((None, lines, None, (winner == "NS" or None, res["NS"]),
                             (winner == "EW" or None, res["EW"]), None))
            else:
                out.append((None, lines, None, (None, None), (None, None), None))
        return out or [(None, (texts["no_games"],), None, (None, None), (None, None), None)]

    def pick(self, i):
        """Browse the deals of the chosen game (newest first in the list)."""
        app = self.app
        arc = app.archive
        if not len(arc):
            return
        from coinche.game import Game
        try:
            game = arc[len(arc) - 1 - i]
            spec = game["rules"]
            past = Game(Rules.from_spec(spec), game["deals"], spec.get("dealer", "N"), spec.get("dir", "acw"),
                        spec.get("fix", ()))
        except Exception:  # a damaged game cannot be browsed: say so, lose nothing
            app.show_message(app.texts["e_store"])
            return
        # the names it was played with: as shown when it ended, else as it started
        result = game.get("result") or {}
        names = result["names"] if "names" in result else spec.get("names")
        app.go(on_demand.screen("History")(app, past, self, names or {}))
