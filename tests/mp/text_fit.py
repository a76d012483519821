"""Every screen state, every language, one layout: does every drawn text fit its region?

argv: LAYOUT [--long-names] [--wifi] [--overlong KEY]
  LAYOUT        128x64 or 240x135
  --long-names  teams named with 8 characters (the longest a name may be)
  --wifi        a board with WiFi: home shows the link's state mark (counted in
                the `link marks N` line)
  --overlong K  the string K of every language table made far too long (the test
                proves the check fails then)

Runs the real App in-process (fakeboard, RAM littlefs) and sets the layout's
probe: every label(), figures() and mark the layout draws reports the box it
drew and the region it was given. After each render the boxes are checked:
  - the region lies on the screen, the drawn box lies in its region (nothing
    cut, nothing outside);
  - no two drawn boxes overlap (a toast's cover() hides what lies under it).
Prints one JSON line per problem ("problem" lines), then `fit done STATES PROBLEMS`.
"""
import sys
import json

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path.insert(0, _ROOT + "/host_tools/mp")

from blockdev import RAMBlockDev, mount  # noqa: E402
from fakeboard import Board, ColourBoard  # noqa: E402
from coinche.game import Game  # noqa: E402
from coinche.rules import Rules  # noqa: E402
from render import languages  # noqa: E402
from screens import history as history_screens, past_games as past_games_screen, settings as settings_screens  # noqa: E402
from screens.base import Ask  # noqa: E402
from screens.deal_entry import Entry  # noqa: E402
from screens.game_over import GameOver  # noqa: E402
from screens.menu import Menu  # noqa: E402
from screens.table_screens import Home, ask_undo  # noqa: E402
from app import App  # noqa: E402
from table.draft import Draft  # noqa: E402
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP  # noqa: E402

LAYOUT = sys.argv[1]
LONG_NAMES = "--long-names" in sys.argv
WIFI = "--wifi" in sys.argv
link_marks = [0]
OVERLONG = sys.argv[sys.argv.index("--overlong") + 1] if "--overlong" in sys.argv else None


records = []
state = {"screen": "", "lang": "", "what": ""}
problems = []
seen = set()
count = [0]
screens_seen = set()


def probe(s, x, y, w, h, rx, ry, rw, rh):
    if s is None:  # covered: what lay under the rectangle is hidden
        records[:] = [r for r in records if not _overlap(r[1:5], (x, y, w, h))]
        return
    if s == "~":
        link_marks[0] += 1
    records.append((s, x, y, w, h, rx, ry, rw, rh))


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def report(kind, detail):
    key = (state["lang"], state["screen"], kind, detail)
    if key in seen:
        return
    seen.add(key)
    problems.append({"lang": state["lang"], "screen": state["screen"], "what": state["what"],
                     "kind": kind, "detail": detail})


def check(layout):
    W, H = layout.W, layout.H
    for s, x, y, w, h, rx, ry, rw, rh in records:
        if rx < 0 or ry < 0 or rx + rw > W or ry + rh > H:
            report("region off screen", "%r region (%d,%d %dx%d)" % (s, rx, ry, rw, rh))
        if x < rx or y < ry or x + w > rx + rw or y + h > ry + rh:
            report("cut", "%r is %dx%d at (%d,%d), region %dx%d at (%d,%d)" % (s, w, h, x, y, rw, rh, rx, ry))
    n = len(records)
    for i in range(n):
        a = records[i]
        for j in range(i + 1, n):
            b = records[j]
            if _overlap(a[1:5], b[1:5]):
                report("overlap", "%r at (%d,%d %dx%d) and %r at (%d,%d %dx%d)" % (
                    a[0], a[1], a[2], a[3], a[4], b[0], b[1], b[2], b[3], b[4]))


def render(app, what=""):
    records[:] = []
    state["screen"] = app.view.name
    state["what"] = what
    screens_seen.add(app.view.name)
    app.render()
    count[0] += 1
    check(app.layout)


def ev(button, kind=PRESS):
    return (kind << 2) | button


def press(app, button, kind=PRESS, what=""):
    app.handle(ev(button, kind))
    render(app, what)


def fresh_app(preset):
    """A new device: a fresh filesystem, the App on it, the probe set."""
    try:
        import os
        os.umount("/flash")
    except Exception:
        pass
    mount(RAMBlockDev(4096, 352), "/flash")
    board = ColourBoard() if LAYOUT == "240x135" else Board()
    if WIFI:
        board.WIFI = True
    app = App(board, {"rules": preset})
    app.layout.probe = probe
    if LONG_NAMES:
        names = {"NS": "ABCDEFGH", "EW": "MNOPQRST"}
        app.team_name = names.get
    return app


def set_language(app, code):
    app.settings["lang"] = code
    app.set_language(code)
    if OVERLONG:
        app.texts[OVERLONG] = "W" * 40
        from render.text import prepare_table
        prepare_table(app.texts)
    state["lang"] = code


DEALS = {
    "classic2000": [
        {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 112},
        {"taker": "EW", "bid": 80, "trump": "S", "points": 67, "belote": {"NS": 0, "EW": 1}},
        {"bid": "pass"},
        {"taker": "EW", "bid": "capot", "trump": "C", "points": 162, "tricks": 8, "belote": {"NS": 0, "EW": 1}},
        {"taker": "NS", "bid": 160, "trump": "D", "coinche": 1, "points": 162, "tricks": 8},
        {"taker": "NS", "bid": 90, "trump": "D", "points": 70},
    ],
    "federation": [
        {"taker": "NS", "bid": 160, "trump": "NT", "coinche": 2, "points": 40},
        {"taker": "EW", "bid": "generale", "trump": "AT", "points": 162, "tricks": 8, "solo": True, "coinche": 2,
         "belote": {"NS": 0, "EW": 2}, "melds": {"NS": [], "EW": ["carre_J", "quinte", "quinte"]}},
        {"taker": "NS", "bid": "capot", "trump": "S", "points": 162, "tricks": 8, "coinche": 1},
        {"taker": "EW", "bid": 90, "trump": "S", "points": 50, "belote": {"NS": 1, "EW": 0}},
    ],
}
DEALS["coinche1000"] = DEALS["classic2000"]
DEALS["coinche1001"] = DEALS["federation"][:1] + DEALS["federation"][2:]


def saved(app, rec):
    """Save one deal; a record the preset refuses is a mistake in this list, not a state."""
    n = len(app.game.deals)
    play(app, [rec])
    if len(app.game.deals) == n and not app.game.over:
        print("refused", json.dumps(rec))


# one deal per verdict of the check-and-save step: each failure reason, capot and
# generale named, belotes and melds on the detail line, the game's last deal
CONFIRM = {
    "classic2000": [
        {"taker": "NS", "bid": 80, "trump": "suit", "points": 60, "belote": {"NS": 1, "EW": 0}},  # 82
        {"taker": "EW", "bid": 120, "trump": "suit", "coinche": 2, "points": 95},  # under the bid
        {"taker": "NS", "bid": "capot", "trump": "suit", "points": 150},  # not all tricks
        {"taker": "EW", "bid": 80, "trump": "suit", "points": 162, "tricks": 8, "belote": {"NS": 0, "EW": 1}},
        {"taker": "NS", "bid": 90, "trump": "suit", "points": 0, "tricks": 0},  # the defence took all
        {"taker": "NS", "bid": 160, "trump": "suit", "coinche": 2, "points": 162, "tricks": 8},  # ends the game
    ],
    "federation": [
        {"taker": "NS", "bid": 80, "trump": "suit", "points": 81},  # not more than the defence
        {"taker": "EW", "bid": "generale", "trump": "AT", "points": 162, "tricks": 8,
         "belote": {"NS": 2, "EW": 2}},  # not alone; four belotes
        {"taker": "NS", "bid": "generale", "trump": "suit", "coinche": 2, "points": 162, "tricks": 8, "solo": True},
        {"taker": "EW", "bid": 100, "trump": "AT", "points": 95, "belote": {"NS": 1, "EW": 1},
         "melds": {"NS": ["tierce"], "EW": ["tierce"]}},  # best melds not said yet
        {"taker": "NS", "bid": 110, "trump": "suit", "coinche": 1, "points": 120, "belote": {"NS": 0, "EW": 1},
         "melds": {"NS": ["carre_J", "quinte"], "EW": ["tierce"]}},
    ],
}


def play(app, recs):
    for rec in recs:
        if app.game.over:
            break
        app.save_deal(rec, None)
        app.toast_msg = None


def tour_lists(app, screen, what):
    """Every row of a list selected once (so scrolled to every position)."""
    app.go(screen)
    render(app, what)
    n = len(screen.cached_rows())
    for _ in range(n):
        press(app, DOWN, PRESS, what)
    for _ in range(n):
        press(app, UP, PRESS, what)


def tour_entry(app, taker):
    """A deal entered through every step, every value of every step drawn."""
    app.go(Home(app))
    app.handle(ev(UP if taker == "NS" else DOWN))
    render(app, "entry")
    e = app.view
    d = e.draft
    # contract: every bid, at every contract type
    for _ in range(len(d.kinds())):
        for _ in range(len(d.bid_items())):
            press(app, UP, PRESS, "bid")
        press(app, OK, LONG, "kind")
    for _ in range(len(d.bid_items()) - 1):  # back to 80 at a suit ... then 100
        press(app, DOWN, PRESS, "bid")
    while d.bid != 100:
        press(app, UP, PRESS, "bid")
    # the coinche (held BACK): x2, x4 at every bid (a capot where it is forbidden says so), then none
    press(app, BACK, LONG, "coinche")
    press(app, BACK, LONG, "coinche")
    for _ in range(len(d.bid_items())):
        press(app, UP, PRESS, "bid coinched")
        app.toast_msg = None
    press(app, BACK, LONG, "coinche")
    app.toast_msg = None
    press(app, OK, PRESS, "to tens")
    for _ in range(len(d.tens_items())):
        press(app, UP, PRESS, "tens")
    press(app, OK, LONG, "pile")
    app.toast_msg = None
    press(app, OK, LONG, "pile back")
    app.toast_msg = None
    while d.tens != 8:
        press(app, UP, PRESS, "tens")
    press(app, OK, PRESS, "to confirm")
    for _ in range(10):  # the units, on the confirm step
        press(app, UP, PRESS, "units")
    press(app, DOWN, PRESS, "units")
    # the defence's pile: its units on the confirm step too
    press(app, BACK, PRESS, "back to tens")
    press(app, OK, LONG, "pile")
    app.toast_msg = None
    press(app, OK, PRESS, "to confirm")
    for _ in range(10):
        press(app, UP, PRESS, "units, defence pile")
    press(app, BACK, PRESS, "back to tens")
    press(app, OK, LONG, "pile back")
    app.toast_msg = None
    press(app, OK, PRESS, "to confirm")
    for hold_key, team in ((OK, "NS"), (BACK, "EW")):
        # every answer of the team's announce picker taken once: UP, DOWN, held OK, then
        # each row of the list behind OK (an added meld brings its removal row)
        k = 0
        while True:
            press(app, hold_key, LONG, "announce picker")
            if e.meld_team is None:  # the belote toggled, or nothing to announce
                app.toast_msg = None
                break
            others = e._picker(team)[0][3]
            if k >= 3 + len(others):
                press(app, BACK, PRESS, "announce picker closed")
                break
            if k < 3:
                press(app, (UP, DOWN, OK)[k], LONG if k == 2 else PRESS, "announced")
            else:
                press(app, OK, PRESS, "announce list")
                if k == 3:
                    press(app, BACK, PRESS, "announce list left")
                    press(app, OK, PRESS, "announce list")
                for _ in range(k - 3):
                    press(app, DOWN, PRESS, "announce list")
                press(app, OK, PRESS, "announced")
            if e.meld_team is not None:  # a key with nothing to give: the picker stays
                press(app, BACK, PRESS, "announce picker closed")
            if e.step == "melds_to":
                press(app, UP, PRESS, "melds to NS")
            k += 1
    if e.step == "confirm" and e.draft.melds_unsettled():
        press(app, OK, PRESS, "melds to")
        press(app, BACK, PRESS, "melds to left")
    while e.step != "confirm" and app.view is e:
        press(app, OK, PRESS, "next")
    render(app, "confirm")
    # edit: starts at the taker
    app.go(Home(app))


def tour_settings(app):
    # the next dealer, corrected from the menu: every seat
    picker = settings_screens.ValuePicker(app, "m_dealer", Menu(app))
    app.go(picker)
    render(app, "next dealer")
    for _ in range(4):
        press(app, UP, PRESS, "next dealer")
    # the team names: the list, then every name offered for each team
    teams = settings_screens.TeamsScreen(app, settings_screens.Settings(app))
    tour_lists(app, teams, "teams")
    for team in ("NS", "EW"):
        picker = settings_screens.ValuePicker(app, "s_name", teams, team)
        app.go(picker)
        render(app, "team name")
        for _ in range(len(picker.choices())):
            press(app, UP, PRESS, "team name")
    settings = settings_screens.Settings(app)
    tour_lists(app, settings, "settings")
    for key in settings_screens.Settings.ITEMS:
        if key == "s_options":
            opts = settings_screens.OptionsScreen(app, settings)
            tour_lists(app, opts, "options")
            for option in settings_screens.LISTED_OPTIONS:
                picker = settings_screens.ValuePicker(app, "s_option", opts, option)
                app.go(picker)
                render(app, option)
                for _ in range(len(picker.choices())):
                    press(app, UP, PRESS, option)
            continue
        if key == "s_names":
            continue  # the teams screen and its pickers: toured above
        picker = settings_screens.ValuePicker(app, key, settings)
        app.go(picker)
        render(app, key)
        for _ in range(len(picker.choices())):
            press(app, UP, PRESS, key)


def tour_language(app, code):
    set_language(app, code)
    T = app.texts
    # home: before the first deal, then after each deal of the list
    app.go(Home(app))
    render(app, "home fresh")
    for seat in ("N", "W", "S", "E"):
        app.settings["dealer"] = seat
        app.table.game = app.table.empty_game()
        app.table.touch()
        app.go(Home(app))
        render(app, "home dealer " + seat)
    del app.settings["dealer"]
    app.table.game = app.table.empty_game()
    for rec in DEALS[app.game.rules.preset]:
        saved(app, rec)
        app.go(GameOver(app) if app.game.over else Home(app))
        render(app, "after %r" % (rec,))
    tour_chart_stats(app, "during a game")
    # the menu, the history, a deal's menu, the questions
    tour_lists(app, Menu(app), "menu")
    tour_lists(app, history_screens.History(app), "history")
    if app.game.deals:
        tour_lists(app, history_screens.DealMenu(app, 0), "deal menu")
        ask_undo(app, Home(app))
        render(app, "undo?")
    app.go(Ask(app, T["m_new"], None, lambda: None, Home(app)))
    render(app, "new game?")
    # every string of the table as a toast, over home
    app.go(Home(app))
    for k in T:
        app.flash(T[k])
        render(app, "toast " + k)
    app.toast_msg = None
    tour_settings(app)


def tour_entries(app):
    if app.game.over:
        app.table.game = app.table.empty_game()
    for taker in ("NS", "EW"):
        tour_entry(app, taker)
    # an entry that cannot be saved: belote at no trump
    draft = Draft(app.game.rules, "NS", None)
    draft.bid = 80
    draft.kind = "NT" if "NT" in draft.kinds() else draft.kind
    draft.belote = (1, 0)
    entry = Entry(app, draft)
    entry.step = "confirm"
    entry._evaluate()
    app.go(entry)
    render(app, "confirm error")
    # the check-and-save step for every verdict and reason, new and edited
    for rec in CONFIRM.get(app.game.rules.preset, CONFIRM["federation"]):
        for index in (None, 0) if app.game.deals else (None,):
            entry = Entry(app, Draft(app.game.rules, record=rec), index, Home(app))
            entry.step = "confirm"
            entry._evaluate()
            app.go(entry)
            render(app, "confirm %r" % (rec,))
            if entry.draft.has_units():  # the same deal counted on the defence's pile
                entry.draft.set_pile("D")
                entry.goto("confirm")
                render(app, "confirm, defence pile %r" % (rec,))
    # editing a saved deal starts at the taker step
    if app.game.deals:
        app.go(Entry(app, Draft(app.game.rules, record=app.game.deals[0]), 0, Home(app)))
        render(app, "edit taker")


def tour_chart_stats(app, what):
    """The chart, then every page of the statistics, scrolled to the end and back."""
    from screens.chart import Chart
    from screens.stats import LABELS

    back = GameOver(app) if app.game.over else Home(app)
    app.go(Chart(app, back))
    render(app, "chart " + what)
    press(app, OK, PRESS, "stats " + what)
    for _ in range(4):
        for _ in range(len(LABELS)):
            press(app, DOWN, PRESS, "stats scrolled " + what)
        for _ in range(len(LABELS)):
            press(app, UP, PRESS, "stats scrolled " + what)
        press(app, OK, PRESS, "stats next page " + what)
    app.go(back)


def tour_game_over(app, code):
    """A game played to its end (each winner), game over, then the past games."""
    for winner in ("NS", "EW"):
        app.table.game = Game(app.game.rules, (), "N")
        app.table.touch()
        loser = "EW" if winner == "NS" else "NS"
        while not app.game.over:
            play(app, [{"taker": winner, "bid": 160, "trump": "H", "coinche": 1, "points": 162, "tricks": 8}])
        app.go(GameOver(app))
        render(app, "game over " + winner)
        tour_chart_stats(app, "game over " + winner)
        app.new_game()
        app.toast_msg = None
        play(app, [{"taker": loser, "bid": 80, "trump": "S", "points": 90}])
    arc = past_games_screen.Archive(app)
    tour_lists(app, arc, "past games")
    app.go(arc)
    arc.sel = 0
    arc.pick(0)
    render(app, "past game")
    if app.view.name == "history":
        tour_lists(app, app.view, "past game deals")


def tour_concours(app, code):
    """Menu > Concours with its pickers at their highest numbers, a round at the
    highest table with four-digit totals (each winner) and a drawn round, home during
    it and the round's end."""
    from screens import concours

    screen = concours.Concours(app, Menu(app))
    tour_lists(app, screen, "concours")
    for field in concours.FIELDS:
        picker = concours.NumberPicker(app, field, screen)
        app.go(picker)
        for _ in range(2):
            press(app, DOWN, PRESS, field)  # 1 -> the highest and the one before
    games = {"NS": {"taker": "NS", "bid": 160, "trump": "H", "coinche": 1, "points": 162, "tricks": 8},
             "EW": {"taker": "EW", "bid": 160, "trump": "H", "coinche": 1, "points": 162, "tricks": 8},
             "draw": {"bid": "pass"}}
    for outcome in ("NS", "EW", "draw"):
        app.start_round({"round": 9, "table": 49, "teams": {"NS": 98, "EW": 99}})
        app.toast_msg = None
        render(app, "concours home " + outcome)
        for _ in range(app.game.rules.round_deals):
            play(app, [games[outcome]])
            app.home()
            render(app, "concours %s deal %d" % (outcome, len(app.game.deals)))
        assert app.game.over, (outcome, app.game.deals)
        app.home()
        render(app, "round over " + outcome)
        press(app, OK, PRESS, "next round " + outcome)
    app.new_game()
    app.toast_msg = None


def main():
    for preset in ("classic2000", "federation", "coinche1000", "coinche1001"):
        app = fresh_app(preset)
        for code in languages.LANGS:
            set_language(app, code)
            app.table.game = Game(Rules.from_spec({"preset": preset, "options": {}}), (), "N")
            app.table.touch()
            tour_language(app, code)
            tour_entries(app)
            tour_game_over(app, code)
            tour_concours(app, code)
    for p in problems:
        print("problem", json.dumps(p))
    print("screens", json.dumps(sorted(screens_seen)))
    print("link marks", link_marks[0])
    print("fit done", count[0], len(problems))


main()
