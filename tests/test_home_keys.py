"""Home says every key in words, as time passes (tests/mp/home_keys.py drives the real App
on the MicroPython unix port, both boards, four languages): OK and BACK, then what the
arrows do (enter a deal taken by the team beside them), then what held OK does (the
deals list), and round again; the keys do what the words say. The announce picker's
held-OK line says the key and the meld in words ("hold OK: Quarte"), never "OK+"."""
import json
import os

import pytest

from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "home_keys.py")
LAYOUTS = ("128x64", "240x135")
LANGS = ("fr", "en", "de", "it")


@pytest.fixture(scope="module", params=[(layout, lang) for layout in LAYOUTS for lang in LANGS],
                ids=lambda p: "%s-%s" % p)
def home(request):
    layout, lang = request.param
    out = run_mp(script=SCRIPT, args=(layout, lang)).stdout.splitlines()
    results = [json.loads(line[7:]) for line in out if line.startswith("result ")]
    assert results, out[-20:]
    return layout, results[0]


def test_home_turns_through_its_keys_in_words(home):
    layout, r = home
    texts, frames = r["texts"], r["home"]
    assert texts["home_ok"] in frames[0] and texts["home_back"] in frames[0]
    if layout == "128x64":  # two rows beside the dealer: the arrows drawn, then their words
        assert texts["home_arrows"] in frames[1] and texts["home_arrows_2"] in frames[1]
        assert texts["home_hold"] in frames[2] and texts["deals_n"] in frames[2]  # the deals list
    else:  # the bar: the keys as printed on the pack (A B, X), then the words
        assert frames[1][-5:-2] == ["A", "B", texts["home_arrows_2"]]
        assert [texts["home_hold"].split(" OK")[0], "X", texts["deals_n"]] == frames[2][-5:-2]
    assert texts["home_ok"] not in frames[1] + frames[2]
    assert frames[3] == frames[0]  # and round again


def test_home_after_a_boot_shows_its_first_rows_their_full_time(home):
    _layout, r = home
    assert r["boot"] == {"phase_before": 0, "phase_at": 1}


def test_a_dimmed_home_stops_turning(home):
    _layout, r = home
    d = r["dimmed"]
    assert d["dimmed"] and d["phase_later"] == d["phase"]


def test_the_keys_do_what_home_says(home):
    _layout, r = home
    assert r["held_ok"] == "history"  # held OK: the deals list
    assert r["up"] == "entry-bid"  # an arrow: a deal taken by the team beside it


def test_the_announce_pickers_held_ok_is_in_words(home):
    layout, r = home
    texts = r["texts"]
    assert r["confirm"] == "entry-confirm" and r["picker"] == "NS"
    shown = r["picker_texts"]
    assert not any("OK+" in t for t in shown), shown
    verb = texts["home_hold"].split(" OK")[0]
    if layout == "128x64":
        assert shown[-1] in (texts["home_hold"] + " " + texts["quarte"], texts["home_hold"] + texts["quarte"])
    else:  # "hold", the key X, then the meld
        assert shown[-3:] == [verb, "X", ":" + texts["quarte"]] or shown[-4:] == [verb, "X", ":", texts["quarte"]], shown
