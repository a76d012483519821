"""The start, once per boot: the journal opened where the boot's mount put it, the
stored settings checked, the game rebuilt: the GameTable the app then shows.

Loaded on demand (on_demand.py) for the heap of `make deploy`: with the stock
firmware's .mpy files a module's bytecode is on the heap, and this code runs once
per start. App() loads it and releases it when the app has started.
"""
from coinche.game import Game, GameError
from coinche.fields import RecordError
from coinche.rules import DEFAULT_PRESET, Rules, RulesError
from table.game_table import MAX_NAME, GameTable, new_game_action


def _setting_ok(key, value, languages):
    """Can the app use this stored value for this setting? (Unknown keys: kept as they are.)"""
    if key == "lang":
        return value in languages
    if key == "contrast":
        return type(value) is int and 0 <= value <= 255
    if key == "dim":
        return type(value) is int and 0 <= value <= 3600
    if key == "dealer":
        return value in ("N", "W", "S", "E")
    if key == "dir":
        return value in ("acw", "cw")
    if key == "names":
        if not isinstance(value, dict):
            return False
        for team in value:
            if team not in ("NS", "EW") or not isinstance(value[team], str) or len(value[team]) > MAX_NAME:
                return False
        return True
    if key == "concours":  # the last concours round started: {"round", "table", "teams"}
        try:
            teams = value["teams"]
            return 1 <= value["round"] <= 9 and 1 <= value["table"] <= 49 and \
                1 <= teams["NS"] <= 99 and 1 <= teams["EW"] <= 99
        except (TypeError, KeyError):
            return False
    if key == "rules":
        try:
            Rules.from_spec(value)
        except (RulesError, TypeError, AttributeError, KeyError, ValueError):
            return False
    return True


def checked_settings(settings, languages):
    """(the settings the app can use, the keys dropped): a value that passed the journal's
    checksum but is not one the app can use (`{"dim": "abc"}`) falls back to its default.
    languages: the language codes the app has."""
    usable = {}
    dropped = []
    for key in settings:
        if settings[key] is None:
            continue  # cleared (see start()): the default
        if _setting_ok(key, settings[key], languages):
            usable[key] = settings[key]
        else:
            dropped.append(key)
    return usable, dropped


LEGACY_STORAGE = "/data"  # the journal's one folder before the two copies (read once, kept)


def open_journal(board):
    """The journal in the directories the boot's mount found, with what the mount had to
    say (flash_report: filled by the UF2's boot and by the simulator's launcher, which
    then unload the mount code), else in the board's STORAGE directories (the stock
    firmware of `make deploy`, which has no report)."""
    from store.journal import Journal
    try:
        import flash_report
    except ImportError:
        flash_report = None
    # "/data" held the one copy of older versions: on a stock filesystem (the stock
    # firmware, or the UF2 over one: layout "whole") the two copies take it over
    if flash_report is None or flash_report.ROOTS is None:
        return Journal(board.STORAGE, legacy=LEGACY_STORAGE if not isinstance(board.STORAGE, str) else None)
    roots = flash_report.ROOTS
    legacy = None
    if flash_report.LAYOUT == "whole":  # the copies are folders of that filesystem, beside "/data"
        legacy = roots[0][:roots[0].rfind("/")] + LEGACY_STORAGE
    return Journal([root for root in roots if root], notices=flash_report.NOTICES, legacy=legacy)


def start(journal, defaults, languages):
    """(the GameTable, the message to show or None) from the journal: settings (values
    the app cannot use dropped, and cleared in the journal), the game (a new one at the
    first start), and "recovered" (or "e_store": nothing will be saved) when the journal
    or the mount had something to say. languages: the language codes the app has."""
    found = journal.load()
    settings, dropped = checked_settings(found.get("settings") or {}, languages)
    # a lazy view: each finished game is read from flash only when shown.
    # Kept even when empty (an empty view is falsy): it follows later "new" actions.
    archive = found.get("archive")
    table = GameTable(journal, settings, archive if archive is not None else (), None)
    notice = found.get("notice")
    held = found.get("game")
    game = None
    if held is not None:
        try:
            spec = held["rules"]
            game = Game(Rules.from_spec(spec), held.get("deals", ()), spec.get("dealer", "N"),
                        spec.get("dir", "acw"), spec.get("fix", ()))
            table.journal_rules = held["rules"]
            if not game.deals:
                game = table.empty_game()
        except (RulesError, RecordError, GameError, KeyError, TypeError, AttributeError) as error:
            notice = "game not rebuilt: %s" % error
            game = None
    if game is None:
        spec = settings.get("rules")
        if spec is None:
            options = dict(defaults.get("options") or {})  # the host's --set OPTION=VALUE
            if defaults.get("target"):
                options["target"] = int(defaults["target"])
            spec = {"preset": defaults.get("rules") or DEFAULT_PRESET, "options": options}
        try:
            rules = Rules.from_spec(spec)
        except RulesError:
            rules = Rules()
        game = Game(rules, (), settings.get("dealer", "N"), settings.get("dir", "acw"))
        if held is None:
            # first start: the new game is a confirmed fact from now on
            table.record(new_game_action(rules, game.first_dealer, None, game.order))
    table.game = game
    table.settle_end()  # a round that ended on time is over after its deals
    try:  # the UF2's boot (uf2/_boot.py, store/partitions.py): damaged flash kept, not formatted
        from flash_report import NOTES
    except ImportError:  # the stock firmware (make deploy)
        NOTES = ()
    for key in dropped:  # cleared once: the next start is quiet
        table.record({"op": "set", "k": key, "v": None})
    if notice or NOTES or dropped:
        return table, "e_store" if "unsaved" in NOTES else "recovered"
    return table, None
