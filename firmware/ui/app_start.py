"""What the app does once, when it starts: opens the journal where the boot's mount
put it, checks the stored settings, rebuilds the game and picks the first screen.

Split from ui/app.py for the heap of `make deploy`: with the stock firmware's .mpy
files a module's bytecode is on the heap, and this code runs once per start. App()
imports it and releases it when the app has started (modules_on_demand.py).
"""
from coinche.game import Game, GameError
from coinche.record import RecordError
from coinche.rules import DEFAULT_PRESET, Rules, RulesError
from ui import screens as S
from ui.app import MAX_NAME, _new


def layout_for(board):
    """The screen layout of the board (LAYOUT): only that one is imported."""
    if getattr(board, "LAYOUT", "128x64") == "240x135":
        from ui.layout_240x135 import Layout
    else:
        from ui.layout_128x64 import Layout
    return Layout(board.display)


def _setting_ok(key, value):
    """Can the app use this stored value for this setting? (Unknown keys: kept as they are.)"""
    if key == "lang":
        from ui.i18n import LANGS
        return value in LANGS
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
    if key == "rules":
        try:
            Rules.from_spec(value)
        except (RulesError, TypeError, AttributeError, KeyError, ValueError):
            return False
    return True


def checked_settings(settings):
    """(the settings the app can use, the keys dropped): a value that passed the journal's
    checksum but is not one the app can use (`{"dim": "abc"}`) falls back to its default."""
    usable = {}
    dropped = []
    for key in settings:
        if settings[key] is None:
            continue  # cleared (see start()): the default
        if _setting_ok(key, settings[key]):
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


def start(app, defaults):
    """The app's state from the journal: settings (values it cannot use dropped, and
    cleared in the journal), language, the game (a new one at the first start), the
    first screen, and a notice when something was recovered."""
    st = app.journal.load()
    app.settings, dropped = checked_settings(st.get("settings") or {})
    # a lazy view: each finished game is read from flash only when shown.
    # Kept even when empty (an empty view is falsy): it follows later "new" actions.
    arc = st.get("archive")
    app.archive = arc if arc is not None else ()
    app.set_language(app.settings.get("lang", "fr"))
    notice = st.get("notice")
    g = st.get("game")
    game = None
    app._jgame = None  # rules spec (with dealer) of the game the journal holds
    if g is not None:
        try:
            spec = g["rules"]
            game = Game(Rules.from_spec(spec), g.get("deals", ()), spec.get("dealer", "N"),
                        spec.get("dir", "acw"), spec.get("fix", ()))
            app._jgame = g["rules"]
            if not game.deals:
                game = app._empty_game()
        except (RulesError, RecordError, GameError, KeyError, TypeError, AttributeError) as e:
            notice = "%s: %s" % (app.T["recovered"], e)
            game = None
    if game is None:
        spec = app.settings.get("rules")
        if spec is None:
            opts = {}
            if defaults.get("target"):
                opts["target"] = int(defaults["target"])
            spec = {"preset": defaults.get("rules") or DEFAULT_PRESET, "options": opts}
        try:
            rules = Rules.from_spec(spec)
        except RulesError:
            rules = Rules()
        game = Game(rules, (), app.settings.get("dealer", "N"), app.settings.get("dir", "acw"))
        if g is None:
            # first start: the new game is a confirmed fact from now on
            app._record(_new(rules, game.first_dealer, None, game.order))
    app.game = game
    app.apply_contrast()
    app.view = S.GameOver(app) if game.over else S.Home(app)
    try:  # the UF2's boot (uf2/_boot.py, store/partitions.py): damaged flash kept, not formatted
        from flash_report import NOTES
    except ImportError:  # the stock firmware (make deploy)
        NOTES = ()
    for key in dropped:  # cleared once: the next start is quiet
        app._record({"op": "set", "k": key, "v": None})
    if notice or NOTES or dropped:
        app.flash(app.T["e_store" if "unsaved" in NOTES else "recovered"], 4000)
