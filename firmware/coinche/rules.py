"""A rule set: a preset plus per-option overrides, what a game scores with.

The options, their values and the four presets are in coinche/rule_options.py,
imported only while a Rules is built (on the device loaded for that and released:
firmware/on_demand.py); a Rules keeps every option's value, which is all a game's
scoring reads. docs/rules.md explains each option.
"""

from coinche.fields import RulesError

DEFAULT_PRESET = "classic2000"


class Rules:
    """A preset plus per-option overrides; `opt` holds every option's value."""

    def __init__(self, preset=DEFAULT_PRESET, options=None):
        from coinche.rule_options import resolve

        self.opt, self.overrides = resolve(preset, options)
        self.preset = preset

    def __getitem__(self, name):
        return self.opt[name]

    @property
    def target(self):
        return self.opt["target"]

    @property
    def round_deals(self):
        """The deals of a fixed round (the `deals` option), 0 when the game goes to the target."""
        return self.opt["deals"]

    def spec(self):
        """The JSON-able form stored in the journal and in exports."""
        return {"preset": self.preset, "options": dict(self.overrides)}

    @staticmethod
    def from_spec(spec):
        if not isinstance(spec, dict):
            raise RulesError("rules", "must be an object with a preset")
        return Rules(spec.get("preset", DEFAULT_PRESET), spec.get("options") or None)

    def bids(self):
        """The bid ladder of this rule set, in order."""
        out = [80, 90, 100, 110, 120, 130, 140, 150, 160, "capot"]
        if self.opt["generale"]:
            out.append("generale")
        return out

    def trumps(self):
        if self.opt["contracts"] == "suits":
            return ("S", "H", "D", "C")
        return ("S", "H", "D", "C", "NT", "AT")

    def has_melds(self):
        return self.opt["melds"] != "none"

    def max_belote(self, trump):
        """How many belotes (20 each) a deal can hold in this contract type."""
        if trump == "NT":
            return 0
        if trump == "AT":
            return self.opt["belote_at"]
        return 1

    def __eq__(self, other):
        return isinstance(other, Rules) and self.preset == other.preset and self.opt == other.opt

