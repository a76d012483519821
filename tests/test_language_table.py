"""The language table the app reads (render/language_table.py): the same answers as the
dict of the file, on CPython and on MicroPython, in less of MicroPython's heap."""
import json

import pytest
from conftest import run_mp

from render import languages
from render.language_table import LanguageTable


@pytest.mark.parametrize("code", languages.LANGS)
def test_every_key_of_the_file_gives_its_text(code):
    expected = languages.read_file(code, skip=languages.OPTION_PREFIX)
    table = languages.load(code)
    assert isinstance(table, LanguageTable)
    assert len(table) == len(expected)
    assert list(table) == list(expected)
    for key in expected:
        assert key in table
        assert table[key] is expected[key] or table[key] == expected[key]
        assert table.get(key) == expected[key]


@pytest.mark.parametrize("code", languages.LANGS)
def test_the_settings_texts_are_read_only_by_their_screens(code):
    """The options' names, values and help lines stay out of the table in use (the heap
    of make deploy) and come whole from the file when the settings screens ask for them."""
    whole = languages.read_file(code)
    helps = languages.read_file(code, only=languages.OPTION_PREFIX)
    table = languages.load(code)
    for prefix in ("o_contracts", "o_help_contracts", "o_value_suits"):
        assert prefix in helps, prefix
    assert all(key.startswith(languages.OPTION_PREFIX) for key in helps)
    assert not [key for key in helps if key in table]
    assert {**dict(zip(table, (table[key] for key in table))), **helps} == whole


def test_a_key_the_file_lacks_is_missing():
    table = languages.load("fr")
    assert "no_such_key" not in table
    assert table.get("no_such_key", "fallback") == "fallback"
    assert table.get("no_such_key") is None
    with pytest.raises(KeyError):
        table["no_such_key"]
    # a key that is the start or the end of a real one is not found either
    assert "seat_" not in table and "eat_N" not in table


def test_an_empty_and_a_tiny_table():
    empty = languages.compact({})
    assert len(empty) == 0 and "a" not in empty and list(empty) == []
    tiny = languages.compact({"a": "1", "ab": "2", "b": "3"})
    assert (tiny["a"], tiny["ab"], tiny["b"]) == ("1", "2", "3")
    assert "abc" not in tiny


MP_CODE = """
import gc, json
from render import languages
out = {}
for code in languages.LANGS:
    expected = languages.read_file(code)
    table = languages.compact(expected)
    wrong = [key for key in expected if table[key] != expected[key] or key not in table]
    out[code] = {"keys": len(table), "wrong": wrong, "missing": "no_such_key" in table}
def cost(make):
    gc.collect()
    before = gc.mem_alloc()
    kept = make("fr")
    gc.collect()
    return gc.mem_alloc() - before, len(kept)
out["bytes"] = {"dict": cost(languages.read_file)[0], "table": cost(languages.load)[0]}
print(json.dumps(out))
"""


def test_on_micropython_the_same_texts_in_less_heap():
    """On the unix port: every key found with its text; the table the app loads costs less
    of the heap than the dict of the file."""
    out = json.loads(run_mp(code=MP_CODE).stdout.strip().splitlines()[-1])
    sizes = out.pop("bytes")
    for code, row in out.items():
        assert row["keys"] > 200 and not row["wrong"] and not row["missing"], (code, row)
    assert sizes["table"] < sizes["dict"] * 3 // 4, sizes
