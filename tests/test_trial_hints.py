"""What a newcomer's trial of the screens found, on the real App (MicroPython unix
port, fakeboard, RAM littlefs): each test names one screen a player misread.

The texts checked are the ones the screen hands to the layout (the same on both
boards); the text-fit tests see that they fit each board.
"""
import ast
import json

import pytest

from conftest import run_mp
from render import languages

HARNESS = r"""
import json
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from events.inputs import BACK, DOWN, LONG, OK, PRESS, UP, event

mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": PRESET})
app.settings["lang"] = LANG
app.set_language(LANG)
drawn = {}

def recorder(method):
    real = getattr(app.layout, method)
    def record(*args, **named):  # positional arguments by index, named ones by name
        drawn[method] = [a if isinstance(a, (str, int, type(None))) else repr(a) for a in args]
        drawn[method + "_named"] = {k: v if isinstance(v, (str, int, type(None))) else repr(v) for k, v in named.items()}
        return real(*args, **named)
    setattr(app.layout, method, record)

for method in ("picker", "confirm", "ask", "listing", "hint"):
    recorder(method)

def key(button, kind=PRESS):
    app.handle(event(kind, button))
    app.render()

def hints(method, index, turns=4):
    seen = []
    for phase in range(turns):
        app.view.phase = phase
        app.render()
        seen.append(drawn[method + "_named"][index] if isinstance(index, str) else drawn[method][index])
    app.view.phase = 0
    return seen

out = {}
STEPS
print("OUT " + json.dumps(out))
"""


def play(steps, lang="fr", preset="federation"):
    code = HARNESS.replace("PRESET", repr(preset)).replace("LANG", repr(lang)).replace("STEPS", steps)
    lines = run_mp(code=code).stdout.splitlines()
    return json.loads([line for line in lines if line.startswith("OUT ")][-1][4:])


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_bid_screen_says_the_coinche_and_the_contract_type_all_the_time(lang):
    texts = languages.read_file(lang)
    out = play('key(UP)\nout["bid"] = hints("picker", 5)', lang)
    for rows in out["bid"]:  # every phase: the same rows, each hold in words
        assert ast.literal_eval(rows) == (texts["h_step_keys"], texts["h_hold_kind"], texts["h_hold_coinche"]), rows


def _has_a_word_after_each_key(hint):
    """'OK oui   < non': each key ('OK', '<') followed by a word, never a bare row of keys."""
    words = hint.replace("<", " < ").split()
    keys = [i for i, word in enumerate(words) if word in ("OK", "<")]
    return bool(keys) and all(i + 1 < len(words) and words[i + 1] not in ("OK", "<", "/") for i in keys)


def test_the_key_check_sees_the_bare_rows():
    assert not _has_a_word_after_each_key("OK / <") and not _has_a_word_after_each_key("^v  OK  <")
    assert _has_a_word_after_each_key("OK oui   < non")


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_undo_question_says_yes_and_no_in_words(lang):
    out = play('app.save_deal({"taker": "NS", "bid": 100, "trump": "H", "points": 112}, None)\n'
               'app.render()\nkey(BACK)\nout["screen"] = app.screen\nout["keys"] = drawn["ask"][2]', lang)
    assert out["screen"] == "ask"
    assert out["keys"] == languages.read_file(lang)["ask_keys"] and _has_a_word_after_each_key(out["keys"])


@pytest.mark.parametrize("lang", languages.LANGS)
def test_a_setting_picker_says_what_its_keys_do(lang):
    out = play('import on_demand\napp.go(on_demand.screen("Settings")(app))\napp.render()\n'
               'app.view.pick(app.view.ITEMS.index("s_target"))\napp.render()\n'
               'out["screen"] = app.screen\nout["keys"] = drawn["picker"][5]', lang)
    assert out["screen"] == "setting"
    assert out["keys"] == languages.read_file(lang)["value_keys"] and _has_a_word_after_each_key(out["keys"])


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_options_screen_says_the_highlighted_option_in_words(lang):
    texts = languages.read_file(lang)
    out = play('import on_demand\napp.go(on_demand.screen("OptionsScreen")(app, None))\napp.render()\n'
               'out["first"] = drawn["listing"][5]\nout["top"] = drawn["listing"][3]\n'
               'for _ in range(7):\n    key(DOWN)\n'
               'out["eighth"] = drawn["listing"][5]\nout["sel"] = drawn["listing"][2]\nout["top8"] = drawn["listing"][3]',
               lang)
    assert out["first"] == texts["o_help_contracts"]
    assert out["eighth"] == texts["o_help_melds"] and out["sel"] == 7
    assert out["top8"] == 3  # five rows above the hint: the highlight stays in sight


CHECK_AND_SAVE = """
from screens.deal_entry import Entry
from table.draft import Draft
entry = Entry(app, Draft(app.game.rules, record=RECORD), None)
app.go(entry)
entry.goto("confirm")
out["details"] = hints("confirm", "detail", 2)
"""
# the trial's deal: EW's carre of nines beats NS's cinquante, so EW scores both (federation)
TRIAL_DEAL = {"taker": "NS", "bid": 100, "trump": "H", "coinche": 1, "points": 112, "belote": {"NS": 1, "EW": 0},
              "melds": {"NS": ["quarte"], "EW": ["carre_9"]}}


def _check_and_save(record, lang):
    return play(CHECK_AND_SAVE.replace("RECORD", repr(record)), lang)["details"]


@pytest.mark.parametrize("lang", languages.LANGS)
def test_check_and_save_shows_the_belote_and_whose_melds_the_winner_scores(lang):
    texts = languages.read_file(lang)
    details = _check_and_save(TRIAL_DEAL, lang)
    assert details[0] == details[1]  # nothing turns
    assert details[0].startswith(texts["belote"][:3]) and "200" in details[0], details  # EW's 150 and NS's 50


@pytest.mark.parametrize("lang", languages.LANGS)
def test_check_and_save_without_belote_says_the_sum_on_its_line(lang):
    texts = languages.read_file(lang)
    record = dict(TRIAL_DEAL, belote={"NS": 0, "EW": 0})
    details = _check_and_save(record, lang)
    assert details[0] == details[1] == texts["melds_short"] + " " + texts["EW"] + " 150+" + texts["NS"] + " 50"


def test_check_and_save_keeps_one_line_when_only_one_side_announced():
    record = dict(TRIAL_DEAL, melds={"NS": [], "EW": ["carre_9"]})
    details = _check_and_save(record, "fr")
    assert details[0] == details[1] and "+" not in details[0] and "150" in details[0]


def test_a_three_digit_ns_total_keeps_clear_of_home_divider():
    """pico_oled home: NS's 444 was drawn 2 px from the divider at x 64, beside EW's down
    arrow; the text-fit tour now reports a big figure closer than 3 px to a line."""
    out = play('app.save_deal(RECORD, None)\nboxes = []\n'
               'app.layout.probe = lambda s, x, y, w, h, *region: boxes.append((s, x, w, h))\n'
               'app.render()\napp.layout.probe = None\n'
               'out["screen"] = app.screen\nout["totals"] = [list(b) for b in boxes if b[3] >= 16 and b[0] == app.game.total["NS"]]\n'
               'out["ns"] = app.game.total["NS"]'.replace("RECORD", repr(TRIAL_DEAL)))
    assert out["screen"] == "home" and out["ns"] == 444
    (_, x, width, _), = out["totals"]
    assert 64 - (x + width) >= 3, out["totals"]


@pytest.mark.parametrize("lang", languages.LANGS)
def test_check_and_save_says_each_teams_hold_in_whole_words(lang):
    """'tenir OK <: ann.' read as announce or cancel: the saving key and both teams' holds,
    all the time, the words whole."""
    texts = languages.read_file(lang)
    out = play(CHECK_AND_SAVE.replace("RECORD", repr(dict(TRIAL_DEAL, belote={"NS": 0, "EW": 0})))
               + 'out["hints"] = hints("confirm", "hint", 3)', lang)
    assert [ast.literal_eval(rows) for rows in out["hints"]] == [(texts["save_points"], texts["h_hold_announce_both"])] * 3
    assert not texts["h_hold_announce_both"].rstrip(".").endswith((" ann", ":ann"))



@pytest.mark.parametrize("lang", languages.LANGS)
def test_check_and_save_says_what_back_does_all_the_time(lang):
    """BACK leads to the card points by tens (the defence's pile and the capots are there):
    a new player found them only by chance; after an all-pass it goes back to change it."""
    texts = languages.read_file(lang)
    out = play(CHECK_AND_SAVE.replace("RECORD", repr(TRIAL_DEAL)) + 'out["back"] = hints("confirm", "back", 3)', lang)
    assert out["back"] == [texts["h_back_tens"]] * 3
    out = play(CHECK_AND_SAVE.replace("RECORD", repr({"taker": None, "bid": "pass"}))
               + 'out["back"] = hints("confirm", "back", 3)', lang)
    assert out["back"] == [texts["e_no_points"]] * 3
    for back in (texts["h_back_tens"], texts["e_no_points"]):
        assert back.startswith("< ") and _has_a_word_after_each_key(back), back

OPTIONS_IN_A_ROUND = """
import on_demand
app.start_round({"round": 2, "table": 3, "teams": {"NS": 1, "EW": 2}})
app.go(on_demand.screen("OptionsScreen")(app, None))
app.render()
out["rows"] = drawn["listing"][1]
out["hint"] = drawn["listing"][5]
out["deals"] = app.game.rules.round_deals
key(OK)
out["screen"] = app.screen
out["toast"] = app.toast_msg
out["rules"] = app.game.rules.spec()
"""


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_options_of_a_round_show_its_deals_and_say_they_are_fixed(lang):
    """A 12-deal round showed 'target' for its deals, and setting 12 said 'applied'."""
    texts = languages.read_file(lang)
    out = play(OPTIONS_IN_A_ROUND, lang)
    assert out["deals"] > 0
    assert "(%r, %r)" % (texts["o_deals"], str(out["deals"])) in out["rows"], out["rows"]
    assert out["hint"] == texts["o_help_fixed"]
    assert out["screen"] == "options" and out["toast"] == texts["o_help_fixed"]  # nothing opens, nothing changes


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_card_points_subtitle_keeps_the_coinche(lang):
    """'NS 100' under the card points of a coinched contract: now 'NS 100 x2'."""
    out = play('from events.inputs import LONG\nkey(UP)\nkey(UP, LONG)\nkey(BACK, LONG)\nkey(OK)\nkey(BACK)\n'
               'out["screen"] = app.screen\nout["context"] = drawn["picker"][4]', lang)
    assert out["screen"] == "entry-tens" and out["context"].endswith(" x2"), out


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_defences_hold_says_the_belote_is_the_takers(lang):
    """Classic rules, EW took: NS's hold on check-and-save said 'No belote' beside
    'Belote EW', which read as a contradiction; it says whose the belote is."""
    texts = languages.read_file(lang)
    out = play('from events.inputs import LONG\nkey(DOWN)\nkey(OK)\nkey(OK, LONG)\n'
               'out["screen"] = app.screen\nout["toast"] = app.toast_msg\n'
               'app.toast_msg = None\nkey(BACK, LONG)\nout["belote"] = list(app.view.draft.belote)', lang,
               "classic2000")
    assert out["screen"] == "entry-confirm" and out["toast"] == texts["e_belote_takers"], out
    assert out["belote"] == [0, 1]  # the takers' own hold gives them theirs


CONCOURS_QUESTION = """
import on_demand
app.go(on_demand.screen("Concours")(app, None))
app.render()
key(OK)  # the start is highlighted: its question
out["screen"] = app.screen
out["question"] = drawn["ask"][0]
out["detail"] = drawn["ask"][1]
"""


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_concours_question_names_the_round_and_the_table_in_words(lang):
    """'Commencer R1 T1?': a new player could not tell what R and T were."""
    texts = languages.read_file(lang)
    out = play(CONCOURS_QUESTION, lang)
    assert out["screen"] == "ask"
    words = "%s 1, %s 1?" % (texts["c_round"], texts["c_table"])
    assert out["question"] == words, out
    assert out["detail"] == texts["NS"] + " 1 - " + texts["EW"] + " 2"


NEW_GAME_QUESTION = """
import on_demand
from screens.menu import Menu
DEALS
app.go(Menu(app))
app.render()
menu = app.view
menu.sel = Menu.ITEMS.index("m_new")
key(OK)
out["new"] = [app.screen, drawn["ask"][0], drawn["ask"][1], drawn["ask"][3]]
key(BACK)
app.go(on_demand.screen("Concours")(app, None))
app.render()
key(OK)
out["concours"] = [app.screen, drawn["ask"][3]]
"""


@pytest.mark.parametrize("lang", languages.LANGS)
def test_a_new_game_or_round_says_the_game_in_play_is_kept(lang):
    """Starting a round replaced a 270-310 game with no word of it (it was in Past games)."""
    texts = languages.read_file(lang)
    out = play(NEW_GAME_QUESTION.replace("DEALS", "app.save_deal(%r, None)" % TRIAL_DEAL), lang)
    assert out["new"] == ["ask", texts["m_new"], None, texts["q_kept"]]
    assert out["concours"] == ["ask", texts["q_kept"]]
    out = play(NEW_GAME_QUESTION.replace("DEALS", ""), lang)  # nothing played: nothing to keep
    assert out["new"][3] is None and out["concours"][1] is None
