"""The guards against the slips that score wrong without anyone noticing, on the real
firmware (MicroPython unix port, tests/mp/guards.py drives the App and reports).

- card points of 162 (or 0) entered as a number ask "Capot?" once on saving;
- no press or hold records an all-pass without its check screen;
- the contract screen never shows a taker under "All passed";
- the check-and-save step says each team's hold in words, whatever the names' length;
- every entry step shows every key's action all the time, on both boards, in four languages;
- a deal deleted in the middle says who deals next (an undo does not need to).
"""
import json
import os

import pytest

from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "guards.py")
LAYOUTS = ("128x64", "240x135")


def run_case(case, layout="128x64", preset="classic2000", *more):
    out = run_mp(script=SCRIPT, args=(layout, case, preset) + more).stdout.splitlines()
    results = [json.loads(line[7:]) for line in out if line.startswith("result ")]
    assert results, out[-20:]
    return results[0]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_162_card_points_ask_capot_and_ok_saves_a_capot(layout):
    r = run_case("capot_yes", layout)
    assert r["confirm"] == "entry-confirm"
    assert r["asked"] == "entry-capot" and r["deals_while_asked"] == 0  # nothing saved before the answer
    assert any("162" in t for t in r["question_later"])  # the hint line turns to BACK: what it keeps
    assert r["after"] == "home"
    assert [(d["points"], d.get("tricks")) for d in r["deals"]] == [(162, 8)]


def test_162_card_points_back_keeps_the_points():
    r = run_case("capot_no")
    assert r["asked"] == "entry-capot" and r["after"] == "home"
    assert [(d["points"], d.get("tricks")) for d in r["deals"]] == [(162, None)]


def test_no_card_points_for_the_takers_ask_the_defence_capot():
    r = run_case("defence_capot")
    assert r["asked"] == "entry-capot"
    assert [(d["points"], d.get("tricks")) for d in r["deals"]] == [(0, 0)]


def test_161_card_points_save_without_a_question():
    r = run_case("no_question")
    assert r["after"] == "home" and [d["points"] for d in r["deals"]] == [161]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_press_or_hold_records_an_all_pass_without_its_check_screen(layout):
    r = run_case("menu_ok_ok", layout)
    assert r["after_ok_ok"] == "entry-confirm" and r["deals_after_ok_ok"] == []
    assert _shown_all(r["save"], r["check_texts"], layout)  # the check screen names its saving key
    assert r["after_back"] == "entry-bid"
    assert r["after_hold"] == "entry-confirm" and r["deals_after_hold"] == []
    assert r["after_save"] == "home" and r["deals"] == [{"bid": "pass"}]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_contract_screen_shows_no_taker_under_all_passed(layout):
    r = run_case("bid_pass", layout)
    assert r["bid"] == "pass" and r["pass"] in r["texts"]
    assert not any(r["took"] in t for t in r["texts"]), r["texts"]
    assert any(r["took"] in t for t in r["texts_80"])  # a number bid names its taker again


@pytest.mark.parametrize("case", ["hold_marks_short_names", "hold_marks_long_names", "hold_marks_no_names"])
def test_check_and_save_says_both_holds_in_words_whatever_the_names(case):
    r = run_case(case, preset="federation")  # melds: both teams may announce
    assert r["screen"] == "entry-confirm"
    assert not any("OK+" in t or "<+" in t for t in r["texts"]), r["texts"]  # no hold marks: words
    assert any(r["holds"] == t for t in r["texts"]) and any(r["save"] == t for t in r["texts"]), r["texts"]


def test_a_deal_deleted_in_the_middle_says_who_deals_next():
    r = run_case("delete_middle")
    assert r["dealer_after"] != r["dealer_before"]
    assert r["toast"] == r["words"] + " " + r["dealer_label"]
    assert r["toast_undo"] == r["deleted"]  # undoing the last deal moves the dealer as expected


KEY_WORDS = ("OK", "v", "^v", "<", "/", ">")


def _pieces(text):
    """The words of a keys' text as the Display Pack draws them: its keys as key caps
    ('OK', '<', '^v' drawn as X, Y, A B), the rest as texts of their own."""
    pieces = []
    for word in text.split():
        if word.startswith("OK/<"):
            word = word[4:]
        elif word.startswith("^v"):
            word = word[2:]
        elif word[:2] == "OK" and word[2:3] in ("+", ":"):
            word = word[2:]
        elif word[:1] in ("<", "^"):
            word = word[1:]
        if word and word not in KEY_WORDS:
            pieces.append(word)
    return pieces


def _shown_all(text, frame, layout):
    """Is text drawn in the frame: whole on the OLED, each of its words on the Display Pack?"""
    if layout == "128x64":
        return text in frame
    return all(any(piece in t for t in frame) for piece in _pieces(text))


@pytest.mark.parametrize("lang", ["fr", "de", "it", "en"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_entry_step_shows_every_action_all_the_time(layout, lang):
    """Waiting on a step changes nothing on it: each frame, 2.1 s apart, is the same and
    shows every key's action there, the holds included (no hint line turns)."""
    r = run_case("in_sight", layout, "federation", lang)
    assert r["capot_screen"] == "entry-capot" and r["pass_screen"] == "entry-confirm"
    for step in ("bid", "tens", "confirm", "capot", "pass"):
        frames = r[step]
        assert all(frame == frames[0] for frame in frames), (step, frames)
        for words in r[step + "_words"]:
            assert all(_shown_all(words, frame, layout) for frame in frames), (step, words, frames[0])


def test_the_in_sight_check_sees_a_turning_line():
    frames = [["80", "^v OK >  <retour"], ["80", "tenir <: coinche"]]
    assert not all(_shown_all("tenir <: coinche", frame, "128x64") for frame in frames)
    assert not all(frame == frames[0] for frame in frames)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_team_names_of_ones_own_letter_by_letter(layout):
    r = run_case("name_picker", layout)
    assert r["teams"] == "teams" and r["picker"] == "name-picker"
    assert "Paul&Mie" in r["picker_texts"]  # the name as picked, shown whole
    assert r["full"]  # a ninth letter is refused, and said
    assert r["after"] == "teams"
    assert r["names"] == {"NS": "Paul&Mie", "EW": "Team 12"} and r["shown"] == ["Paul&Mie", "Team 12"]
    assert r["presses_paul"] <= 60 and r["presses_team"] <= 60, (r["presses_paul"], r["presses_team"])
    # BACK takes letters away, then leaves without saving: the name stays
    assert r["after_back"] == "teams" and r["names_after_back"] == r["names"]


def test_the_letter_picker_offers_accents_digits_and_signs():
    """Every letter it offers is one the font draws (render/text.py), and a club's names are there."""
    import ast

    from screens.name_picker import LETTERS

    with open(os.path.join(ROOT, "firmware", "render", "text.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    accented = [node.value.value for node in tree.body if isinstance(node, ast.Assign)
                and getattr(node.targets[0], "id", "") == "_ACCENTED"][0]  # what the font draws beyond ASCII
    assert all(ord(ch) < 128 or ch in accented for ch in LETTERS)
    assert all(ch in LETTERS for ch in "Paul&Mie Team 12 Zoé Müller")
    assert len(set(LETTERS)) == len(LETTERS)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_past_game_shows_the_names_it_was_played_with(layout):
    r = run_case("past_game_names", layout)
    assert r["screen"] == "history"
    assert "Paul&Mie" in r["texts"] and "Team 12" in r["texts"], r["texts"]
    assert r["today"][0] not in r["texts"]  # not today's names
