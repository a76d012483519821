"""The pages' words (host_tools/club/words.py): every word in the four languages, with
the same fields in each, and nothing a page asks for missing."""
import os
import re
import string

import pytest

from conftest import ROOT
from host_tools.club.words import LANGS, SCRIPT_WORDS, WORDS, Words

PAGES = os.path.join(ROOT, "host_tools", "club")


def fields(text):
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.mark.parametrize("key", sorted(WORDS))
def test_every_word_in_four_languages_with_the_same_fields(key):
    texts = WORDS[key]
    assert len(texts) == len(LANGS) and all(t.strip() for t in texts), key
    assert all(fields(t) == fields(texts[0]) for t in texts), key


def test_every_word_a_page_or_script_asks_for_exists():
    asked = set(SCRIPT_WORDS)
    for folder in ("templates", "static"):
        for name in os.listdir(os.path.join(PAGES, folder)):
            with open(os.path.join(PAGES, folder, name), encoding="utf-8") as f:
                source = f.read()
            asked |= set(re.findall(r"\bw\.([a-z_]+)", source))
            asked |= {a or b for a, b in re.findall(r'\bW\.([a-z_]+)|say\("([a-z_]+)"', source)}
    asked -= {"format", "lang", "script"}
    assert asked and not asked - set(WORDS), sorted(asked - set(WORDS))
    script = set(SCRIPT_WORDS)
    for name in ("board.js", "projector.js", "phone.js"):
        with open(os.path.join(PAGES, "static", name), encoding="utf-8") as f:
            used = {a or b for a, b in re.findall(r'\bW\.([a-z_]+)|say\("([a-z_]+)"', f.read())}
        assert used <= script, (name, sorted(used - script))


def test_an_unknown_word_is_an_error_not_an_empty_text():
    with pytest.raises(KeyError):
        Words("fr").no_such_word  # noqa: B018


def test_an_unknown_language_falls_back_to_french():
    assert Words("xx").lang == "fr" and Words("xx").standings == "Classement"
