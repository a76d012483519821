"""The guards against silent slips, on the real App in one MicroPython process.

argv: LAYOUT CASE
  LAYOUT  128x64 or 240x135
  CASE    one of CASES below

Each case drives the App with key events (fakeboard, RAM littlefs), records every
text the layout draws (its probe) and prints one `result {json}` line: the
screens passed, the deals stored, the texts of the frames that matter, the
messages shown. tests/test_guards.py asserts on it.
"""
import sys
import json

_ROOT = sys.path[0] + "/../.."  # the unix port puts the script's folder first
sys.path.insert(0, _ROOT + "/firmware")
sys.path[:0] = [_ROOT + "/host_tools/sim/device_side", _ROOT + "/host_tools/bench/device_side", _ROOT + "/host_tools/rigs/device_side"]

from blockdev import RAMBlockDev, mount  # noqa: E402
from fakeboard import Board, ColourBoard  # noqa: E402
from app import App  # noqa: E402
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP  # noqa: E402

LAYOUT = sys.argv[1]
CASE = sys.argv[2]
drawn = []


def probe(s, x, y, w, h, rx, ry, rw, rh):
    if s is not None:
        drawn.append(s)


def fresh_app(preset):
    mount(RAMBlockDev(4096, 352), "/flash")
    board = ColourBoard() if LAYOUT == "240x135" else Board()
    app = App(board, {"rules": preset})
    app.layout.probe = probe
    return app


def key(app, button, kind=PRESS):
    app.handle((kind << 2) | button)


def keys(app, *buttons):
    for b in buttons:
        key(app, b)


def texts_of(app):
    """The texts of the current frame, as the layout drew them."""
    drawn[:] = []
    app.render()
    return [str(s) for s in drawn]


def deals(app):
    return list(app.game.deals)


def to_points(app, tens_steps, units_steps):
    """From home: NS took, the contract 80, the check step (the card points at 80); the
    tens moved by tens_steps there (BACK to the tens, UP when positive, OK), then the card
    points by one, units_steps (UP when positive)."""
    key(app, UP)
    key(app, OK)
    if tens_steps:
        key(app, BACK)
        for _ in range(abs(tens_steps)):
            key(app, UP if tens_steps > 0 else DOWN)
        key(app, OK)
    for _ in range(abs(units_steps)):
        key(app, UP if units_steps > 0 else DOWN)


def case_capot_yes(app, out):
    to_points(app, 8, 2)  # 160, then 162
    out["confirm"] = app.view.name
    key(app, OK)
    out["asked"] = app.view.name
    out["question"] = texts_of(app)
    out["question_later"] = [t for frame in hints_over_time(app, 2) for t in frame]
    out["deals_while_asked"] = len(app.game.deals)
    key(app, OK)
    out["after"] = app.view.name
    out["deals"] = deals(app)


def case_capot_no(app, out):
    to_points(app, 8, 2)
    key(app, OK)
    out["asked"] = app.view.name
    key(app, BACK)
    out["after"] = app.view.name
    out["deals"] = deals(app)


def case_defence_capot(app, out):
    to_points(app, -8, 0)  # 0 card points for the takers
    key(app, OK)
    out["asked"] = app.view.name
    out["question"] = texts_of(app)
    key(app, OK)
    out["deals"] = deals(app)


def case_no_question(app, out):
    to_points(app, 8, 1)  # 161: no question
    key(app, OK)
    out["after"] = app.view.name
    out["deals"] = deals(app)


def case_menu_ok_ok(app, out):
    keys(app, OK)
    out["menu"] = texts_of(app)
    key(app, OK)  # OK, OK from home: the all-pass's check screen, nothing recorded
    out["after_ok_ok"] = app.view.name
    out["deals_after_ok_ok"] = deals(app)
    out["check_texts"] = texts_of(app)
    out["save"] = app.texts["save"]
    key(app, BACK)  # back to the contract: all passed, nothing recorded
    out["after_back"] = app.view.name
    keys(app, BACK, OK)  # home, the menu
    key(app, OK, LONG)  # held on the all-pass row: the same check screen
    out["after_hold"] = app.view.name
    out["deals_after_hold"] = deals(app)
    key(app, OK)  # OK on the check screen saves it
    out["after_save"] = app.view.name
    out["deals"] = deals(app)


def case_bid_pass(app, out):
    keys(app, UP, DOWN)  # NS took, the contract 80 one down: all passed
    out["bid"] = app.view.draft.bid
    out["texts"] = texts_of(app)
    out["took"] = app.texts["took"]
    out["pass"] = app.texts["pass"]
    key(app, UP)  # back to 80: the taker's line is back
    out["texts_80"] = texts_of(app)


def _names_confirm(app, out, names):
    app.table.settings["names"] = names
    app.table.touch()
    to_points(app, 2, 0)  # NS 80, 100 card points: both teams may announce a belote
    out["screen"] = app.view.name
    out["texts"] = texts_of(app)
    out["holds"] = app.texts["h_hold_announce_both"]
    out["save"] = app.texts["save_points"]


def case_hold_marks_short_names(app, out):
    _names_confirm(app, out, {"NS": "Nous", "EW": "Eux"})


def case_hold_marks_long_names(app, out):
    _names_confirm(app, out, {"NS": "Paul&Mie", "EW": "Team 12"})


def case_hold_marks_no_names(app, out):
    _names_confirm(app, out, {})


def _enter(app, tens_steps):
    to_points(app, tens_steps, 0)
    key(app, OK)


def case_delete_middle(app, out):
    for steps in (0, 1, 2):
        _enter(app, steps)
    out["dealer_before"] = app.table.game.dealer()
    app.delete_deal(0)
    out["toast"] = app.toast_msg
    out["dealer_after"] = app.table.game.dealer()
    out["dealer_label"] = app.seat_label()
    out["words"] = app.texts.get("dealer_moved")
    app.delete_deal(len(app.game.deals) - 1)  # an undo: expected, not announced
    out["toast_undo"] = app.toast_msg
    out["deleted"] = app.texts["deleted"]


def hints_over_time(app, frames=4):
    """The texts of `frames` frames, each after 2.1 s of waiting (the hint line turns)."""
    out = []
    for _ in range(frames):
        app.board.now += 2100
        app.poll()
        out.append(texts_of(app))
    return out


def case_hints_turn(app, out):
    key(app, UP)  # the contract step
    out["bid"] = hints_over_time(app)
    key(app, OK)  # check and save
    out["confirm"] = hints_over_time(app)
    key(app, BACK)  # the card points by tens
    out["tens"] = hints_over_time(app)
    key(app, OK)
    out["words"] = {k: app.texts[k] for k in ("h_hold_kind", "h_hold_coinche", "h_pile_def", "h_hold_announce")}


def _rows_of_steps(app, out):
    """Each entry step's frames while the player waits (2.1 s apart), and the words of
    every key's action that step must show all the time."""
    t = app.texts
    key(app, UP)  # the contract step
    out["bid"] = hints_over_time(app)
    out["bid_words"] = [t["h_step_keys"], t["h_hold_kind"], t["h_hold_coinche"]]
    key(app, OK)  # check and save: both teams may announce (federation)
    out["confirm"] = hints_over_time(app)
    out["confirm_words"] = [t["save_points"], t["h_back_tens"], t["h_hold_announce_both"]]
    key(app, BACK)  # the card points by tens
    out["tens"] = hints_over_time(app)
    out["tens_words"] = [t["h_step_keys"], t["h_pile_def"]]
    for _ in range(8):
        key(app, UP)
    key(app, OK)  # 160 on the check screen
    keys(app, UP, UP, OK)  # 162, then save: "Capot?"
    out["capot_screen"] = app.view.name
    out["capot"] = hints_over_time(app)
    out["capot_words"] = [app.view.capot_answer_ok, app.view.capot_answer_back]
    key(app, BACK)  # the points kept: saved
    keys(app, OK, OK)  # the menu, its all-pass row: the check screen
    out["pass_screen"] = app.view.name
    out["pass"] = hints_over_time(app)
    out["pass_words"] = [t["save"], t["e_no_points"]]


def case_in_sight(app, out):
    lang = sys.argv[4]
    app.table.settings["lang"] = lang
    app.set_language(lang)
    _rows_of_steps(app, out)


def spell(app, word):
    """In the letter picker: each letter the shortest way round, OK to the next (a fresh name)."""
    from screens.name_picker import spell_keys
    count = 0
    buttons = {"up": UP, "down": DOWN, "ok": OK}
    for name in spell_keys(word):
        key(app, buttons[name])
        count += 1
    return count


def to_teams(app):
    keys(app, OK, DOWN, DOWN, DOWN, OK)  # home > menu > settings
    keys(app, UP, OK)  # the last row: the teams' names
    return app.view.name


def case_name_picker(app, out):
    out["teams"] = to_teams(app)
    out["teams_texts"] = texts_of(app)
    key(app, OK, LONG)  # NS: letter by letter
    out["picker"] = app.view.name
    out["presses_paul"] = spell(app, "Paul&Mie") + 1  # and the hold that saves it
    out["picker_texts"] = texts_of(app)
    key(app, OK)  # a ninth letter: refused, said
    out["full"] = app.toast_msg
    key(app, OK, LONG)
    out["after"] = app.view.name
    keys(app, DOWN)
    key(app, OK, LONG)  # EW
    out["presses_team"] = spell(app, "Team 12") + 1
    key(app, OK, LONG)
    out["names"] = app.settings.get("names")
    out["shown"] = [app.team_name("NS"), app.team_name("EW")]
    key(app, OK, LONG)  # EW again: BACK on every letter, then leave: nothing changes
    for _ in range(7):  # six letters go, the seventh BACK leaves
        key(app, BACK)
    out["after_back"] = app.view.name
    out["names_after_back"] = app.settings.get("names")


def case_past_game_names(app, out):
    app.set_team_name("NS", "Paul&Mie")
    app.set_team_name("EW", "Team 12")
    app.save_deal({"taker": "NS", "bid": 80, "trump": "suit", "points": 100}, None)
    app.new_game()
    app.set_team_name("NS", "Nous")
    app.set_team_name("EW", None)
    import on_demand
    app.go(on_demand.screen("Archive")(app))
    key(app, OK)  # the newest past game's deals
    out["screen"] = app.view.name
    out["texts"] = texts_of(app)
    out["today"] = [app.team_name("NS"), app.team_name("EW")]


CASES = {name[5:]: f for name, f in globals().items() if name.startswith("case_")}

app = fresh_app(sys.argv[3] if len(sys.argv) > 3 else "classic2000")
app.layout.probe = probe
result = {"case": CASE}
CASES[CASE](app, result)
print("result " + json.dumps(result))
