"""The guards against the slips that score wrong without anyone noticing, on the real
firmware (MicroPython unix port, tests/mp/guards.py drives the App and reports).

- card points of 162 (or 0) entered as a number ask "Capot?" once on saving;
- OK, OK from home records no all-pass deal (the menu row takes a held OK);
- the contract screen never shows a taker under "All passed";
- the check-and-save step keeps each team's hold mark whatever the names' length;
- a deal deleted in the middle says who deals next (an undo does not need to).
"""
import json
import os

import pytest

from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "guards.py")
LAYOUTS = ("128x64", "240x135")


def run_case(case, layout="128x64", preset="classic2000"):
    out = run_mp(script=SCRIPT, args=(layout, case, preset)).stdout.splitlines()
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
def test_ok_ok_from_home_records_no_all_pass_deal(layout):
    r = run_case("menu_ok_ok", layout)
    assert r["after_ok_ok"] == "menu" and r["deals_after_ok_ok"] == []
    assert r["toast"]  # the plain OK says the row takes a held OK
    assert r["after_hold"] == "home" and r["deals"] == [{"bid": "pass"}]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_contract_screen_shows_no_taker_under_all_passed(layout):
    r = run_case("bid_pass", layout)
    assert r["bid"] == "pass" and r["pass"] in r["texts"]
    assert not any(r["took"] in t for t in r["texts"]), r["texts"]
    assert any(r["took"] in t for t in r["texts_80"])  # a number bid names its taker again


@pytest.mark.parametrize("case", ["hold_marks_short_names", "hold_marks_long_names", "hold_marks_no_names"])
def test_check_and_save_keeps_both_hold_marks_whatever_the_names(case):
    r = run_case(case, preset="federation")  # melds: both teams may announce
    assert r["screen"] == "entry-confirm"
    assert "OK+" in r["texts"] and "<+" in r["texts"], r["texts"]


def test_a_deal_deleted_in_the_middle_says_who_deals_next():
    r = run_case("delete_middle")
    assert r["dealer_after"] != r["dealer_before"]
    assert r["toast"] == r["words"] + " " + r["dealer_label"]
    assert r["toast_undo"] == r["deleted"]  # undoing the last deal moves the dealer as expected


@pytest.mark.parametrize("layout", LAYOUTS)
def test_hint_lines_name_the_held_keys_in_words(layout):
    """Waiting on a step shows, one after the other, what each held key does there."""
    r = run_case("hints_turn", layout, "federation")
    words = r["words"]

    def shown(frames, text):
        # the Display Pack draws a key as a key cap: its words after the key are a text of their own
        tail = text.split(":", 1)[1].strip()
        return any(text in t or tail in t for frame in frames for t in frame)

    assert shown(r["bid"], words["h_hold_kind"]) and shown(r["bid"], words["h_hold_coinche"]), r["bid"]
    assert shown(r["tens"], words["h_pile_def"]), r["tens"]
    assert shown(r["confirm"], words["h_hold_announce"]), r["confirm"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_team_names_of_ones_own_letter_by_letter(layout):
    r = run_case("name_picker", layout)
    assert r["teams"] == "teams" and r["picker"] == "name-picker"
    assert "Paul&Mie" in r["picker_texts"]  # the name as picked, shown whole
    assert r["full"]  # a ninth letter is refused, and said
    assert r["after"] == "teams"
    assert r["names"] == {"NS": "Paul&Mie", "EW": "Team 12"} and r["shown"] == ["Paul&Mie", "Team 12"]
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
