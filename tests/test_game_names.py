"""The names kept with each game (tests/mp/game_names.py drives the real App on the
MicroPython unix port): a game named A/B and renamed C/D once it has ended keeps A/B
on its deals list, a deal's details, its chart and its statistics, in the journal
after a power cut and in the export; the next game is C/D. A game under way takes
a new name at once (a game action in the journal), and keeps it at a power cut."""
import html
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, run_mp

SCRIPT = os.path.join(ROOT, "tests", "mp", "game_names.py")
LAYOUTS = ("128x64", "240x135")
OLD = ("Paul&Mie", "Team 12")
NEW = ("Nous", "Eux")


def run_case(case, layout="128x64"):
    out = run_mp(script=SCRIPT, args=(layout, case)).stdout.splitlines()
    results = [json.loads(line[7:]) for line in out if line.startswith("result ")]
    assert results, out[-20:]
    return results[0]


@pytest.fixture(scope="module", params=LAYOUTS)
def renamed(request):
    return run_case("renamed_at_the_end", request.param)


def _has(texts, names):
    return all(any(name in t for t in texts) for name in names)


def test_a_rename_at_the_end_is_for_the_next_game(renamed):
    assert _has(renamed["game_over"], OLD) and not _has(renamed["game_over"], NEW[:1])
    assert renamed["rename_said"] in ("Partie suivante",)  # settings' "next game" message


def test_the_past_games_deals_and_details_keep_its_names(renamed):
    assert _has(renamed["past_history"], OLD)
    assert _has(renamed["past_deal"], OLD) and not _has(renamed["past_deal"], NEW[:1])


def test_the_past_games_chart_names_its_teams(renamed):
    chart = renamed["past_chart"]
    assert renamed["past_chart_screen"] == "chart"
    assert _has(chart, OLD) and not _has(chart, NEW[:1])
    assert "NS" not in chart and "EO" not in chart  # the codes only when the game had no names


def test_the_past_games_statistics_name_its_teams(renamed):
    assert renamed["past_stats_screen"] == "stats"
    assert any(t.startswith(OLD[0]) for t in renamed["past_stats"])
    assert any(t.startswith(OLD[1]) for t in renamed["past_stats_ew"])


def test_the_new_games_screens_have_the_new_names(renamed):
    assert _has(renamed["chart"], NEW) and not _has(renamed["chart"], OLD)
    assert any(t.startswith(NEW[0]) for t in renamed["stats"])
    assert any(t.startswith(NEW[1]) for t in renamed["stats_ew"])


def test_the_journal_keeps_the_names_with_the_game(renamed):
    old = {"NS": OLD[0], "EW": OLD[1]}
    assert renamed["kept_result"] == old and renamed["kept_rules"] == old
    assert renamed["current_after_boot"] == list(NEW)


def test_a_game_under_way_takes_a_new_name_and_keeps_it():
    r = run_case("renamed_under_way")
    assert r["shown"] == ["Nous", "EO"] and r["shown_after_boot"] == ["Nous", "EO"]
    assert r["game_rules"] == {"NS": "Nous"}
    assert r["kept_result"] == {"NS": "Nous", "EW": "EO"}


def test_the_export_names_each_game_as_it_was_played(tmp_path):
    """The same evening in a simulator flash image: the export's JSON, CSV and report say
    A/B for the old game and C/D for the new one."""
    image = str(tmp_path / "flash.img")
    run_mp(script=SCRIPT, args=("128x64", "renamed_at_the_end", image))
    out = str(tmp_path / "out")
    proc = subprocess.run([sys.executable, "-m", "host_tools.device.export", "--flash", image, "--out", out],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    with open(os.path.join(out, "games.json"), encoding="utf-8") as f:
        games = json.load(f)["games"]
    assert [g["teams"] for g in games] == [{"NS": OLD[0], "EW": OLD[1]}, {"NS": NEW[0], "EW": NEW[1]}]
    with open(os.path.join(out, "deals.csv"), encoding="utf-8") as f:
        rows = f.read().splitlines()[1:]
    assert rows[0].split(",")[2:4] == list(OLD) and rows[-1].split(",")[2:4] == list(NEW)
    with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
        page = f.read()
    old_game = page.split('<section class="game" id="game-1">')[1].split("</section>")[0]
    new_game = page.split('<section class="game" id="game-2">')[1].split("</section>")[0]
    assert html.escape(OLD[0]) in old_game and OLD[1] in old_game and NEW[0] not in old_game
    assert NEW[0] in new_game and NEW[1] in new_game and html.escape(OLD[0]) not in new_game


@pytest.mark.parametrize("lang", ["fr", "de", "it", "en"])
def test_the_names_offered_are_in_the_language_in_use_only(lang):
    """Voi, Noi, Ihr, Wir, Them, Us, Eux, Nous were offered in every language."""
    from screens.settings import NAME_CHOICES, name_choices

    offered = name_choices(lang, None)
    assert offered[0] is None and offered[1:] == list(NAME_CHOICES[lang]) and len(offered) >= 5
    assert all(len(name) <= 8 for name in offered[1:])  # what a name may hold
    others = {name for code, names in NAME_CHOICES.items() if code != lang for name in names}
    assert not others & set(offered[1:]), others & set(offered[1:])
