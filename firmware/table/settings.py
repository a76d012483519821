"""What the settings change at the table, journaled: one setting (rules, first dealer,
language, contrast, dimming, dealing order), a team name, the next dealer; and the
next game the settings start (a new game, a concours round); and a round's end at
the table (the other team's confirmation, the end on time).

Loaded on demand (on_demand.py): the settings screens import it, and the App's
change_setting(), set_team_name(), correct_dealer(), new_game() and start_round()
(also called from the REPL and the bench) load it for one call, as the round's end
and the menu do for confirm_round() and end_round_now(). Each function takes the GameTable and returns
(done, message) as its methods do (table/game_table.py); the App then applies
what the settings now say to the screen (language, contrast).
"""
from coinche.game import Game
from coinche.rules import Rules, RulesError
from table.game_table import MAX_NAME, new_game_action

# settings screen key -> (journal setting, default)
SETTINGS = {"s_first": ("dealer", "N"), "s_lang": ("lang", "fr"), "s_contrast": ("contrast", 255),
            "s_dim": ("dim", 0), "s_dir": ("dir", "acw")}


def set_team_name(table, team, name):
    """Name a team (None: back to NS/EW): a journaled setting, the names of the next games.

    A game under way takes the new name too (a game action, so it stays with the game
    in the archive and the export); a game that has ended keeps the names it was
    played with, and the name is for the next game."""
    settings = table.settings
    names = dict(settings.get("names") or {})
    if name:
        names[team] = name[:MAX_NAME]
    else:
        names.pop(team, None)
    value = names or None
    if settings.get("names") == value:
        return False, None
    game = table.game
    held = table.journal_rules  # the journal's current game, None: none yet (its "new" will carry them)
    if not game.over and held is not None and held.get("names") != value:
        refused = table.record({"op": "names", "names": value})
        if refused:
            return False, refused
        rules = dict(held)
        if value is None:
            rules.pop("names", None)
        else:
            rules["names"] = value
        table.journal_rules = rules
    refused = table.record({"op": "set", "k": "names", "v": value})
    if refused:
        return False, refused
    if value is None:
        del settings["names"]
    else:
        settings["names"] = value
    return True, "next_game" if game.over else "saved"


def correct_dealer(table, seat):
    """Who deals the next deal, corrected at the table: journaled ({"op": "dealer"}),
    so it survives a power cut; before the first deal it is the first-dealer setting."""
    game = table.game
    if seat == game.dealer():
        return False, None
    if not game.deals:
        return change_setting(table, "s_first", seat)
    fixes = game.with_fix(seat)
    refused = table.record({"op": "dealer", "fix": fixes})
    if refused:
        return False, refused
    table.dealer_fixed(fixes)
    return True, "saved"


def change_setting(table, key, value, option=None):
    """Record one setting (`key` as the settings screens name it). A rules change applies
    to the current game only while it has no deal."""
    settings = table.settings
    spec = table.next_rules()
    spec = {"preset": spec["preset"], "options": dict(spec.get("options") or {})}
    if key in SETTINGS:
        setting = SETTINGS[key][0]
    else:
        if key == "s_preset":
            if value == spec["preset"]:
                return False, None  # the same preset: its options (target...) stay
            spec = {"preset": value, "options": {}}
        else:
            name = "target" if key == "s_target" else option
            spec["options"][name] = value
        try:
            spec = Rules.from_spec(spec).spec()  # drops overrides equal to the preset
        except RulesError:
            return False, "e_field"
        setting, value = "rules", spec
    if settings.get(setting) == value:
        return False, None  # nothing changed: nothing written
    refused = table.record({"op": "set", "k": setting, "v": value})
    if refused:
        return False, refused
    settings[setting] = value
    if setting in ("rules", "dealer", "dir"):
        # a game with no deal takes them at once: one write, the setting (GameTable.empty_game)
        return True, "applied" if table.follow_settings() else "next_game"
    return True, "saved"


def new_game(table, shown_names=None, concours=None, deals=0):
    """Archive the game and start the next one with the settings: (done, message).

    shown_names: the teams' names as the screens show them, kept with the
    finished game's result when the table named its teams. concours: the
    {"round", "table", "teams"} of a concours round the new game plays, of
    `deals` deals (start_round below)."""
    try:
        spec = table.next_rules()
        if concours:
            spec = {"preset": spec["preset"], "options": dict(spec.get("options") or {})}
            spec["options"]["deals"] = deals
        rules = Rules.from_spec(spec)
    except RulesError:
        rules = table.game.rules
    dealer = table.settings.get("dealer", "N")
    order = table.settings.get("dir", "acw")
    old = table.game
    result = {"NS": old.total["NS"], "EW": old.total["EW"], "winner": old.winner} if old.deals else None
    if result is not None and (table.journal_rules or {}).get("names") and shown_names:
        result["names"] = shown_names  # the game's own names, as its screens showed them
    refused = table.record(new_game_action(rules, dealer, result, order, table.settings.get("names"), concours))
    if refused:
        return False, refused
    table.game = Game(rules, (), dealer, order)
    return True, "m_new"


ROUND_DEALS = 12  # a concours round's deals when the rules play to the target (deals 0)


def start_round(table, info, shown_names=None):
    """Start concours round `info` ({"round", "table", "teams": {"NS", "EW"}}): remembered
    in the settings (one journaled setting), then a new game of the rules' `deals`
    deals (ROUND_DEALS when they play to the target) carrying `info` in its "new"."""
    info = {"round": info["round"], "table": info["table"], "teams": dict(info["teams"])}
    if table.settings.get("concours") != info:
        refused = table.record({"op": "set", "k": "concours", "v": info})
        if refused:
            return False, refused
        table.settings["concours"] = info
    try:
        deals = Rules.from_spec(table.next_rules()).round_deals
    except RulesError:
        deals = 0
    return new_game(table, shown_names, info, deals or ROUND_DEALS)


def confirmed(table):
    """Has the other team confirmed the round's result as it is now (its deals)?"""
    held = table.journal_rules
    return bool(held) and held.get("confirmed") == len(table.game.deals)


def confirm_round(table):
    """The other team's confirmation of a round's result, for its deals as they are
    (any change of a deal drops it: store/format.py rules_after): (done, message)."""
    if not table.game.over or confirmed(table):
        return False, None
    refused = table.record({"op": "confirm", "n": len(table.game.deals)})
    return (False, refused) if refused else (True, None)  # the code shows in place of "not confirmed"


def end_round_now(table):
    """End the concours round on time after the deals played ({"op": "end", "end":
    "time"}, the shape the organiser's app takes): (done, message)."""
    if not table.concours():
        return False, "e_no_round"
    if table.game.over:
        return False, "e_over"
    refused = table.record({"op": "end", "end": "time"})
    if refused:
        return False, refused
    table.settle_end()
    return True, None
