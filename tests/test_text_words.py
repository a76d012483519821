"""The language tables' words, as a player reads them: a key's name never runs into
the word after it ("^vEiner"), and an abbreviation ends with a dot after the start
of its word, never after a stem that is a word of its own ("sich.")."""
import re

import pytest

from render import languages
from screens.settings import LISTED_OPTIONS


# Every abbreviation of the language tables, with the word it shortens: a new one joins
# this list, so a reader of the test sees each cut. The stem before the dot is the word's
# beginning and never a word of its own.
ABBREVIATIONS = {
    "fr": {"ann": "annonces", "bel": "belote", "coinch": "coinches", "gén": "générale", "suppr": "supprimer",
           "surc": "surcoinches", "cap": "capot", "coul": "couleurs", "dern": "dernière", "déf": "défense",
           "enr": "enregistrer", "gagn": "gagnées", "histo": "historique", "nouv": "nouvelle",
           "pren": "preneur", "annul": "annuler", "d": "donnes", "max": "maximum", "éq": "équipe"},
    "de": {"bel": "belote", "farb": "farben", "geg": "gegner", "gen": "generale", "gleichst": "gleichstand",
           "italien": "italienisch", "kap": "kapot", "max": "maximal", "meld": "meldungen", "sieg": "sieger",
           "spie": "spieler", "eig": "eigene", "gew": "gewonnen", "o": "ohne", "sich": "sichern",
           "zur": "zurück", "sp": "spiele", "rück": "rückgängig",
           "rückg": "rückgängig", "min": "minuten"},
    "it": {"ann": "annunci", "bel": "belote", "capp": "cappotto", "gen": "generale", "pross": "prossimo",
           "surc": "surcontrate", "vinc": "vincitore", "agg": "aggiungi", "annul": "annullare", "cap": "cappotto",
           "dif": "difesa", "migl": "migliore", "part": "partita", "ult": "ultima",
           "m": "mani", "sq": "squadra"},
    "en": {"bel": "belote", "def": "defence", "gen": "generale", "surcoin": "surcoinches", "cap": "capot", "d": "deals",
           "meld": "melds", "max": "maximum"},
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


# words cut without the dot that would say so, as a player met them ("Coinch cap", "batre"):
# never again in a table
UNDOTTED_CUTS = {"fr": {"coinch": "coinche", "batre": "battre"}, "de": {"coinch": "coinche", "kap": "kapot"},
                 "it": {"cap": "cappotto"}, "en": {"coinch": "coinche"}}
WORD = re.compile(r"[^\W\d_]+")


def _undotted_cuts(code, strings):
    cuts = UNDOTTED_CUTS[code]
    found = []
    for key, value in strings.items():
        for match in WORD.finditer(value):
            if match.group(0).lower() in cuts and value[match.end():match.end() + 1] != ".":
                found.append("%s = %r: %r (%s)" % (key, value, match.group(0), cuts[match.group(0).lower()]))
    return found


@pytest.mark.parametrize("code", languages.LANGS)
def test_no_word_is_cut_without_a_dot(code):
    found = _undotted_cuts(code, _table_strings(code))
    assert not found, "\n".join(found)


def test_the_undotted_cut_check_sees_the_examples():
    assert _undotted_cuts("fr", {"o_capot_coinche": "Coinch cap", "o_value_beat": "batre"})
    assert _undotted_cuts("de", {"o_capot_coinche": "Coinch Kap"})
    assert not _undotted_cuts("fr", {"st_coinche": "Coinch.gagn.", "o_value_beat": "battre"})


@pytest.mark.parametrize("code", languages.LANGS)
def test_every_option_has_a_help_line_in_words(code):
    """The options' labels share a row with their value, so each option says what it is
    in the hint line when it is highlighted: words, no key names."""
    strings = _table_strings(code)
    for option in LISTED_OPTIONS:
        help_line = strings["o_help_" + option]
        assert help_line and help_line != strings["o_" + option], option
        assert not re.search(r"(^|\s)(OK|<|\^|v)(\s|$|\+|:)", help_line), (option, help_line)


def test_german_says_coinche_and_no_french_word():
    """The German bid screen said 'Kontra' where the details say 'Coinche', and the rules
    screen showed the French 'Générale'."""
    strings = _table_strings("de")
    assert not [key for key, value in strings.items() if re.search(r"\bKontra\b", value)]
    assert not [key for key, value in strings.items() if re.search("[éèêàç]", value)]


SHARP_S = """
import framebuf
from render.text import text
def cell(ch):
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    text(fb, ch, 0, 0, 1)
    return [(x, y) for y in range(8) for x in range(8) if fb.pixel(x, y)]
print(cell("ß") != cell("B"), len(cell("ß")) > len(cell("B")))
"""


def test_the_sharp_s_is_not_drawn_as_a_b():
    """'Meißner' read 'MeiBner': the sharp s is its B with the stem below the line."""
    from conftest import run_mp

    assert run_mp(code=SHARP_S).stdout.split()[-2:] == ["True", "True"]


def test_the_german_undo_question_puts_the_deal_before_its_verb():
    """'Zurück Gabe 3?' read as broken German: 'Gabe 3 zurück?'."""
    texts = languages.read_file("de")
    assert texts["undo_q"] % 3 == "Gabe 3 zurück?" and texts["del_q"] % 3 == "Gabe 3 löschen?"
    assert all("%d" in languages.read_file(code)[key] for code in languages.LANGS for key in ("undo_q", "del_q"))


def test_no_cut_word_where_a_whole_one_fits():
    """German '2000, o. Meldung' and Italian '1o mazziere' (an ordinal that reads 'io')."""
    assert languages.read_file("de")["d_classic2000"].startswith("2000, ohne ")
    assert "1o" not in languages.read_file("it")["s_first"]
