"""What was recorded for a deal is on screen: the check-and-save step's detail line and
the deal's own screen (history > a deal), in every language.

The firmware runs on the MicroPython unix port (fakeboard, RAM littlefs); each test
names one situation a player reported.
"""
import json

import pytest

from conftest import run_mp
from render import languages

CODE = r"""
import json, sys
sys.path[:0] = ["host_tools/sim/device_side", "host_tools/rigs/device_side"]
from blockdev import RAMBlockDev, mount
from fakeboard import Board
from app import App
from screens.deal_entry import Entry
from screens import history
from table.draft import Draft
mount(RAMBlockDev(4096, 352), "/flash")
app = App(Board(), {"rules": PRESET})
app.settings["lang"] = LANG
app.set_language(LANG)
rec = RECORD
entry = Entry(app, Draft(app.game.rules, record=rec), None)
entry.step = "confirm"
entry._evaluate()
from screens import confirm_texts
print("confirm", json.dumps(confirm_texts._verdict(entry)))
app.save_deal(rec, None)
menu = history.DealMenu(app, 0)
print("rows", json.dumps(menu.rows()))
print("history", json.dumps(history.History(app).rows()[0][1]))
"""

FEDERATION_MELDS = {"taker": "NS", "bid": 110, "trump": "H", "points": 92, "belote": {"NS": 1, "EW": 0},
                    "melds": {"NS": ["quarte"], "EW": ["carre_9"]}}
FAILED_WITH_BELOTE = {"taker": "NS", "bid": 100, "trump": "S", "coinche": 1, "points": 70,
                      "belote": {"NS": 1, "EW": 0}}


def _shown(preset, lang, record):
    code = CODE.replace("PRESET", repr(preset)).replace("LANG", repr(lang)).replace("RECORD", repr(record))
    out = run_mp(code=code).stdout.splitlines()
    confirm = json.loads([line for line in out if line.startswith("confirm ")][0][8:])
    rows = json.loads([line for line in out if line.startswith("rows ")][0][5:])
    flat = [row if isinstance(row, str) else " ".join(row) for row in rows]
    listed = json.loads([line for line in out if line.startswith("history ")][0][8:])
    return confirm, flat, languages.read_file(lang), listed


@pytest.mark.parametrize("lang", languages.LANGS)
def test_a_failure_reason_never_hides_the_belote_on_check_and_save(lang):
    (verdict, detail), _, texts, _ = _shown("classic2000", lang, FAILED_WITH_BELOTE)
    assert verdict.startswith(texts["failed"])
    assert detail.startswith(texts["belote"]), detail


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_deal_screen_names_each_teams_melds_and_the_belote(lang):
    (_, detail), rows, texts, listed = _shown("federation", lang, FEDERATION_MELDS)
    # the history's row marks the belote and the melds (its longest form)
    assert listed[0].split()[-2:] == [texts["belote_mark"], texts["melds_short"].lower()], listed
    # the example showed only "Belote NS": now the belote and the melds, each with its team
    words = detail.lower().replace(".", ". ").split()
    assert texts["belote_mark"].lower() in words or texts["belote"].lower() in words, detail
    assert texts["melds_short"].lower() in words and texts["EW"].lower() in words and "200" in words, detail
    joined = "\n".join(rows)
    for row in ("  " + texts["quarte"], "  " + texts["carre_9"], texts["belote"] + " " + texts["NS"],
                texts["d_points"] + " 92 70", texts["suit"]):
        assert row in joined, (row, rows)
    # each team's melds under its own name, NS's first
    ns = rows.index(texts["d_melds"] + " " + texts["NS"])
    ew = rows.index(texts["d_melds"] + " " + texts["EW"])
    assert rows[ns + 1] == "  " + texts["quarte"] and rows[ew + 1] == "  " + texts["carre_9"]
    # the carre of nines beats the cinquante: EW score both sides' melds (federation), 150 + 50
    assert texts["melds_short"] + " " + texts["EW"] + " 200" in rows


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_deal_screen_shows_the_other_sides_melds_going_to_the_best(lang):
    _, rows, texts, _ = _shown("federation", lang, FEDERATION_MELDS)
    scored = rows.index(texts["melds_short"] + " " + texts["EW"] + " 200")
    assert rows[scored + 1] == "  150+" + texts["NS"] + " 50", rows


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_deal_screen_shows_the_reason_and_the_belote_of_a_failed_coinche(lang):
    _, rows, texts, _ = _shown("classic2000", lang, FAILED_WITH_BELOTE)
    assert texts["failed"] in rows and texts["r_bid"] in rows, rows
    assert texts["belote"] + " " + texts["NS"] in rows
    assert texts["f_coinche"] + " x2" in rows
    assert texts["d_points"] + " 70 92" in rows


@pytest.mark.parametrize("lang", languages.LANGS)
def test_the_short_marks_of_the_detail_line_end_with_a_dot(lang):
    """check-and-save glues 'Bel.' and 'Ann.' to a team name when the line is short of room."""
    texts = languages.read_file(lang)
    assert texts["belote_mark"].endswith(".") and texts["melds_short"].endswith(".")
