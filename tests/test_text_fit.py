"""Every text fits, in every language, on both layouts (tests/mp/text_fit.py).

The layouts draw every string through label() into a region they name; with
their `probe` set, each drawing reports the box it drew and its region. The
script renders every screen state (home before and after deals of every kind,
every dealer, menus and lists at every position, every value of every entry
step and setting, confirm with and without an error, game over for each
winner, past games and a past game's deals, every string of the table as a
toast) in the four languages, and lists each text that leaves its region, is
cut, or overlaps another. Teams are also named with 8 characters, the longest
a name may be.
"""
import json
import os
import re

import pytest

from conftest import ROOT, run_mp
from test_ui_screens import SCREENS  # every screen the firmware has: a new one must join the tour too
from render import languages

SCRIPT = os.path.join(ROOT, "tests", "mp", "text_fit.py")
LAYOUTS = ("128x64", "240x135")


def run_fit(layout, *options, lines=None):
    out = run_mp(script=SCRIPT, args=(layout,) + options, heapsize="16M").stdout.splitlines()
    if lines is not None:
        lines.extend(out)
    problems = [json.loads(line[8:]) for line in out if line.startswith("problem ")]
    done = [line for line in out if line.startswith("fit done ")]
    assert done, out[-20:]
    _, _, states, count = done[-1].split()
    screens = [line for line in out if line.startswith("screens ")]
    return int(states), problems, set(json.loads(screens[-1][8:])) if screens else set()


def _show(problems):
    return "\n  ".join("%(lang)s %(screen)s (%(what)s): %(kind)s: %(detail)s" % p for p in problems[:40])


@pytest.mark.parametrize("names", ["", "--long-names"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_text_fits_its_region(layout, names):
    states, problems, screens = run_fit(layout, *([names] if names else []))
    assert states > 4000  # every screen state in four languages
    assert SCREENS <= screens, SCREENS - screens
    langs = {p["lang"] for p in problems}
    assert not problems, "%d texts do not fit on %s (%s):\n  %s" % (len(problems), layout, sorted(langs),
                                                                  _show(problems))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_link_mark_fits_on_a_wifi_board(layout):
    """A board with WiFi: home's link mark is drawn, in its own region, beside the longest
    team names, in every language."""
    out = []
    states, problems, _ = run_fit(layout, "--long-names", "--wifi", lines=out)
    marks = [int(line.split()[-1]) for line in out if line.startswith("link marks ")]
    assert marks and marks[0] > 0
    assert not problems, _show(problems)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_no_link_mark_without_wifi(layout):
    out = []
    run_fit(layout, lines=out)
    assert [line for line in out if line.startswith("link marks ")] == ["link marks 0"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("key", ["m_history", "over_keys1", "dealer_verb", "belote"])
def test_an_overlong_string_fails(layout, key):
    """The check is not blind: one string of the table made too long is reported, on the
    screens that draw it, in every language."""
    _, problems, _ = run_fit(layout, "--overlong", key)
    named = [p for p in problems if "WWWWWWWWWWWWWWWWWWWW" in p["detail"]]
    assert {p["lang"] for p in named} == set(languages.LANGS), _show(problems)
    assert {p["kind"] for p in named} & {"cut", "overlap"}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_mark_above_the_cell_fails(layout):
    """The check sees the ink: measured as the font drew accented capitals before (the mark
    two rows above the cell), German "Ändern" under the title bar "Gabe 1" and French
    "Équipes" on a highlighted row are reported."""
    _, problems, _ = run_fit(layout, "--marks-above")
    named = {(p["lang"], p["screen"]) for p in problems if "\\xc4ndern" in p["detail"] or "Ändern" in p["detail"]}
    assert ("de", "deal") in named, _show(problems)
    teams = {p["kind"] for p in problems if p["lang"] == "fr" and ("\\xc9quipes" in p["detail"] or "Équipes" in p["detail"])}
    assert teams & {"half on a bar", "cut"}, _show(problems)


# Every abbreviation of the language tables, with the word it shortens: a new one joins
# this list, so a reader of the test sees each cut. The stem before the dot is the word's
# beginning and never a word of its own.
ABBREVIATIONS = {
    "fr": {"ann": "annonces", "bel": "belote", "coinch": "coinches", "gén": "générale", "suppr": "supprimer",
           "surc": "surcoinches", "cap": "capot", "coul": "couleurs", "dern": "dernière", "déf": "défense",
           "enr": "enregistrer", "gagn": "gagnées", "histo": "historique", "nouv": "nouvelle",
           "pren": "preneur", "annul": "annuler", "d": "donnes"},
    "de": {"bel": "belote", "farb": "farben", "geg": "gegner", "gen": "generale", "gleichst": "gleichstand",
           "italien": "italienisch", "kap": "kapot", "max": "maximal", "meld": "meldungen", "sieg": "sieger",
           "spie": "spieler", "eig": "eigene", "gew": "gewonnen", "o": "ohne", "sich": "sichern",
           "zur": "zurück", "sp": "spiele", "rück": "rückgängig"},
    "it": {"ann": "annunci", "bel": "belote", "capp": "cappotto", "gen": "generale", "pross": "prossimo",
           "surc": "surcontrate", "vinc": "vincitore", "agg": "aggiungi", "annul": "annullare", "cap": "cappotto",
           "dif": "difesa", "migl": "migliore", "part": "partita", "ult": "ultima",
           "m": "mani"},
    "en": {"bel": "belote", "def": "defence", "gen": "generale", "surcoin": "surcoinches", "cap": "capot", "d": "deals",
           "meld": "melds"},
}
# stems that read as another word of the language: "sich." is "oneself", not "save"
WORDS_OF_THEIR_OWN = {"fr": {"pas", "as", "dé"}, "de": {"sich", "zur", "ein", "der"}, "it": {"dà", "per"},
                      "en": {"as", "or"}}
# key names made of letters: the word after them must not touch them ("^vEiner")
LETTER_KEYS = re.compile(r"(\^v|OK)(?=[^\W\d_])")
ABBREVIATED = re.compile(r"([^\W\d_]+)\.(?!\.)")


def _table_strings(code):
    return {key: value for key, value in languages.read_file(code).items() if key != "lang"}


@pytest.mark.parametrize("code", languages.LANGS)
def test_a_key_name_never_runs_into_a_word(code):
    glued = {key: value for key, value in _table_strings(code).items() if LETTER_KEYS.search(value)}
    assert not glued, glued


@pytest.mark.parametrize("code", languages.LANGS)
def test_an_abbreviation_ends_with_a_dot_after_the_start_of_its_word(code):
    known = ABBREVIATIONS[code]
    problems = []
    for key, value in _table_strings(code).items():
        for match in ABBREVIATED.finditer(value):
            if match.start() > 0 and value[match.start() - 1] == ".":
                continue  # the tail of an ellipsis
            stem = match.group(1).lower()
            if match.end() < len(value) and value[match.end()] == ".":
                continue  # "Autres...": a word and an ellipsis, not an abbreviation
            if stem not in known:
                problems.append("%s = %r: %r is not a known abbreviation (add it with its word)" % (key, value, stem))
            elif not known[stem].startswith(stem):
                problems.append("%s = %r: %r does not start %r" % (key, value, stem, known[stem]))
            elif stem in WORDS_OF_THEIR_OWN[code]:
                problems.append("%s = %r: %r. reads as the word %r" % (key, value, stem, stem))
    assert not problems, "\n".join(problems)


def test_the_abbreviation_checks_see_the_examples():
    """The examples a player reported: a key running into a word, a stem that is a word."""
    assert LETTER_KEYS.search("^vEiner OK sich.") and LETTER_KEYS.search("^vunità OK salva")
    assert not LETTER_KEYS.search("^v unità OK salva")
    assert "sich" in WORDS_OF_THEIR_OWN["de"] and ABBREVIATED.findall("^v Einer OK sich.") == ["sich"]
