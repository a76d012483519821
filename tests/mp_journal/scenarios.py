"""The action sequences the journal tests replay (on MicroPython)."""
from flash_stats import RULES, sample_deal, sample_game, _Rand

OTHER = {"preset": "coinche1000", "options": {"target": 1000}}


def main_game(deals=24):
    """A game of `deals` deals with edits, undos, two dealer corrections and a settings change, a new
    game, three deals more."""
    acts = [{"op": "set", "k": "lang", "v": "fr"}]
    acts += sample_game(deals, seed=3)
    # a correction of the next dealer in the middle of the game, and a second one
    at = len(acts) // 2
    n = sum(1 for a in acts[:at] if a["op"] == "add") - sum(1 for a in acts[:at] if a["op"] == "del")
    acts.insert(at, {"op": "dealer", "fix": [[n, "E"]]})
    acts.insert(at + 3, {"op": "dealer", "fix": [[n, "E"], [n + 1, "S"]]})
    # the app may hand over the finished game's result with the "new" that archives it
    acts.append({"op": "new", "rules": OTHER, "result": {"NS": 2010, "EW": 1460, "winner": "NS"}})
    r = _Rand(99)
    for _ in range(3):
        acts.append({"op": "add", "deal": sample_deal(r)})
    acts.append({"op": "del", "i": 2})
    acts.append({"op": "set", "k": "lang", "v": "en"})
    return acts


def many_games(n=23):
    """n short games: the archive fills up and the oldest games get dropped."""
    r = _Rand(5)
    acts = []
    for g in range(n):
        acts.append({"op": "new", "rules": RULES if g % 2 else OTHER})
        if g % 3 == 1:
            acts[-1]["result"] = {"NS": g, "EW": 0}
        for _ in range(1 + g % 3):
            acts.append({"op": "add", "deal": sample_deal(r)})
        if g % 4 == 0:
            acts.append({"op": "del", "i": 0})  # a game may end empty
    acts.append({"op": "new", "rules": RULES})
    return acts


SCENARIOS = {
    "main": (main_game, {}),
    # tiny limits: compaction into a new base happens every few actions
    "checkpoints": (lambda: main_game(14), {"max_segments": 2}),
    "archive": (many_games, {}),
}
