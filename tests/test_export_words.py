"""The HTML report (host_tools/device/export.py) speaks the table's language: contracts as the
scoreboard shows them ("100 \u2665", "90 SA"), melds by name, belotes and the best-melds choice
with their team, in the language kept with the game (else the scoreboard's), read from the
firmware's own text tables (firmware/render/lang/*.txt) by the firmware's reader."""
import json

import pytest

from host_tools.device import export as exporter
from render.languages import read_file

NAMES = {"NS": "Nous", "EW": "Eux"}
MELD_DEAL = {"taker": "NS", "bid": 100, "trump": "H", "points": 100, "belote": {"NS": 1},
             "melds": {"NS": ["carre_J"], "EW": ["quarte"]}, "melds_to": "NS"}
NT_DEAL = {"taker": "EW", "bid": 90, "trump": "NT", "points": 100, "coinche": 1}
AT_DEAL = {"taker": "NS", "bid": 80, "trump": "AT", "points": 120}
PASS_DEAL = {"bid": "pass"}


def _item(lang, deals, kept_lang=None):
    """One game as the device's journal dump gives it (host_tools/sim/device_side/export_dump.py)."""
    rules = {"preset": "federation", "dealer": "N", "names": NAMES}
    if kept_lang:
        rules["lang"] = kept_lang
    return {"game": 1, "current": False, "rules": rules, "deals": deals, "lang": lang}


def _report(tmp_path, lang, deals=(MELD_DEAL, NT_DEAL, AT_DEAL, PASS_DEAL), kept_lang=None):
    exporter.export([_item(lang, list(deals), kept_lang)], str(tmp_path), "test")
    return (tmp_path / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_contracts_read_as_the_scoreboard_shows_them(tmp_path, lang):
    texts = read_file(lang)
    page = _report(tmp_path, lang)
    assert "<td>Nous 100 \u2665</td>" in page
    assert "<td>Eux 90 %s x2</td>" % texts["k_NT"] in page
    assert "<td>Nous 80 %s</td>" % texts["k_AT"] in page
    assert "<td>%s</td>" % texts["pass"] in page
    assert " suit<" not in page and ">NS 100" not in page and "all passed" not in page


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_melds_belote_and_the_best_melds_choice_are_named(tmp_path, lang):
    texts = read_file(lang)
    page = _report(tmp_path, lang)
    assert "%s Nous" % texts["belote"] in page
    assert "Nous: %s" % texts["carre_J"] in page and "Eux: %s" % texts["quarte"] in page
    assert "%s: Nous" % texts["t_melds_to"].rstrip("?").strip() in page
    assert "carre_J" not in page and "quarte<" not in page and "; quarte" not in page


def test_french_and_german_reports_differ_in_words(tmp_path):
    french = _report(tmp_path / "fr", "fr")
    german = _report(tmp_path / "de", "de")
    assert read_file("fr")["carre_J"] != read_file("de")["carre_J"]
    assert read_file("fr")["carre_J"] in french and read_file("fr")["carre_J"] not in german
    assert read_file("de")["carre_J"] in german
    assert '<html lang="fr">' in french and '<html lang="de">' in german


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_made_failed_and_statistics_are_in_the_language(tmp_path, lang):
    texts = read_file(lang)
    failed = {"taker": "NS", "bid": 160, "trump": "S", "points": 90}
    page = _report(tmp_path, lang, deals=(MELD_DEAL, failed))
    assert "&#10004; %s" % texts["made"] in page and "&#10008; %s" % texts["failed"] in page
    assert "<th>%s</th>" % texts["st_taken"] in page and "<h3>%s</h3>" % texts["m_stats"] in page


def test_the_language_kept_with_the_game_wins_over_the_setting(tmp_path):
    page = _report(tmp_path, "fr", kept_lang="de")
    assert read_file("de")["carre_J"] in page and '<html lang="de">' in page


def test_without_a_language_the_report_is_french_as_the_device(tmp_path):
    page = _report(tmp_path, None)
    assert read_file("fr")["carre_J"] in page and '<html lang="fr">' in page


def test_an_unknown_language_is_french_too(tmp_path):
    assert '<html lang="fr">' in _report(tmp_path, "xx")


def test_the_json_names_the_reports_language(tmp_path):
    _report(tmp_path, "de")

    with open(tmp_path / "games.json", encoding="utf-8") as f:
        assert json.load(f)["games"][0]["language"] == "de"


def test_the_reports_own_words_exist_in_every_scoreboard_language():
    from render.languages import LANGS
    from host_tools.device.report_words import REPORT_WORDS
    assert sorted(REPORT_WORDS) == sorted(LANGS)
    for lang in LANGS:
        assert REPORT_WORDS[lang].keys() == REPORT_WORDS["en"].keys(), lang


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_titles_and_sentences_are_in_the_language_too(tmp_path, lang):
    from host_tools.device.report_words import REPORT_WORDS
    page = _report(tmp_path, lang)
    say = REPORT_WORDS[lang]
    assert "<h1>%s</h1>" % say["title"] in page and "<h2>%s</h2>" % (say["game"] % 1) in page
    assert read_file(lang)["p_federation"] in page
    if lang != "en":
        assert "Game 1" not in page and "Details" not in page and "first dealer" not in page
