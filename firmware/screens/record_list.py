"""The deals lists' common screen (the history, the past games), both loaded on demand:
in its own module, so that with `make deploy` its code is on the heap only while one
of them is (on_demand.py)."""
import on_demand
from screens.base import ListScreen, played_name


class RecordList(ListScreen):
    """A list of two-line records under the team names (records() of the layout's
    off-path drawings, loaded on demand): the deals of a
    game, the past games."""

    wrap = False
    played = None  # a finished game's team names as it was played with ({}: none); None: today's

    def team_label(self, team):
        """The team's name over the columns: the one the game was played with."""
        return played_name(self.app, self.played, team)

    def draw(self, layout):
        rows = self.cached_rows()
        self.scroll(len(rows), layout.RECORD_ROWS)
        on_demand.load(layout.OFF_PATH).records(layout, self.team_label("NS"), self.team_label("EW"), rows, self.sel,
                                                 self.top)
