"""Every text fits, in every language, on both layouts (tests/mp/text_fit.py): the
checks, one per situation, that tests/test_text_fit_128x64.py and
tests/test_text_fit_240x135.py run on their layout (a file per layout: the two tours
run side by side on two test workers).

The layouts draw every string through label() into a region they name; with
their `probe` set, each drawing reports the box it drew and its region. The
script renders every screen state (home before and after deals of every kind,
every dealer, menus and lists at every position, every value of every entry
step and setting, confirm with and without an error, game over for each
winner, past games and a past game's deals, every string of the table as a
toast) in the four languages, and lists each text that leaves its region, is
cut, or overlaps another. Teams are also named with 8 characters, the longest
a name may be.

A tour renders each state of each rule preset on a new device, so a tour of some presets
draws the very states the whole tour draws for them: a run of the suite tours every
other preset (tests/sweep.py), the next run the others, and SWEEP=full all four.
"""
import json
import os

import cached_runs
import sweep
from conftest import ROOT
from test_ui_screens import SCREENS  # every screen the firmware has: a new one must join the tour too
from render import languages

SCRIPT = os.path.join(ROOT, "tests", "mp", "text_fit.py")

# in this order every other preset is one scored as classic2000 and one as the federation
# (the melds, the belote's other rules): each sample draws the screens of both kinds
PRESETS = ("classic2000", "federation", "coinche1001", "coinche1000")
# the long names' tour draws home on a board with WiFi too (its link's mark beside the
# names): the WiFi changes no other screen, so the two boards share one tour
LONG_NAMES = ("--long-names", "--wifi")

OVERLONG_KEYS = ("m_history", "over_keys1", "dealer_verb", "belote")
# each overlong string is 40 times its own letter, so that one tour with every fault at
# once tells apart what each fault made the check report
OVERLONG_LETTERS = dict(zip(OVERLONG_KEYS, "WMHN"))
# the federation's preset draws every screen that draws one of these strings (its melds
# bring the announce picker, where the belote is drawn too): the others would only draw
# the same faults again
FAULTS = ("--marks-above", "--presets", "federation") + tuple(
    word for key in OVERLONG_KEYS for word in ("--overlong", "%s=%s" % (key, OVERLONG_LETTERS[key])))


def sampled(*options):
    """The options of a tour of this run's presets (every other one, all with SWEEP=full)."""
    return options + ("--presets", ",".join(sweep.take(PRESETS, 2)))


def tour(layout, *options):
    """The tour's output lines. A tour is a deterministic program: the same tour (the
    same code, the same arguments) runs once per test process whichever checks read it,
    and once per change of the code whichever run of the suite reads it
    (tests/cached_runs.py). The checks that prove the check is not blind share one tour
    with all their faults (FAULTS)."""
    return cached_runs.output_lines(SCRIPT, (layout,) + options, "16M")


def run_fit(layout, *options, lines=None):
    out = tour(layout, *options)
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


def every_text_fits_its_region(layout, names):
    states, problems, screens = run_fit(layout, *sampled(*(LONG_NAMES if names else ())))
    assert states > 4000  # every screen state of two presets (or four) in four languages
    assert SCREENS <= screens, SCREENS - screens
    langs = {p["lang"] for p in problems}
    assert not problems, "%d texts do not fit on %s (%s):\n  %s" % (len(problems), layout, sorted(langs),
                                                                  _show(problems))


def the_link_mark_fits_on_a_wifi_board(layout):
    """A board with WiFi: home's link mark is drawn, in its own region, beside the longest
    team names, in every language."""
    out = []
    states, problems, _ = run_fit(layout, *sampled(*LONG_NAMES), lines=out)
    marks = [int(line.split()[-1]) for line in out if line.startswith("link marks ")]
    assert marks and marks[0] > 0
    assert not problems, _show(problems)


def no_link_mark_without_wifi(layout):
    out = []
    run_fit(layout, *sampled(), lines=out)
    assert [line for line in out if line.startswith("link marks ")] == ["link marks 0"]


def an_overlong_string_fails(layout, key):
    """The check is not blind: one string of the table made too long is reported, on the
    screens that draw it, in every language."""
    _, problems, _ = run_fit(layout, *FAULTS)
    named = [p for p in problems if OVERLONG_LETTERS[key] * 20 in p["detail"]]
    assert {p["lang"] for p in named} == set(languages.LANGS), _show(problems)
    assert {p["kind"] for p in named} & {"cut", "overlap"}


def a_mark_above_the_cell_fails(layout):
    """The check sees the ink: measured as the font drew accented capitals before (the mark
    two rows above the cell), German "Ändern" under the title bar "Gabe 1" and French
    "Équipes" on a highlighted row are reported."""
    _, problems, _ = run_fit(layout, *FAULTS)
    named = {(p["lang"], p["screen"]) for p in problems if "\\xc4ndern" in p["detail"] or "Ändern" in p["detail"]}
    assert ("de", "deal") in named, _show(problems)
    teams = {p["kind"] for p in problems if p["lang"] == "fr" and ("\\xc9quipes" in p["detail"] or "Équipes" in p["detail"])}
    assert teams & {"half on a bar", "cut"}, _show(problems)


def a_total_against_the_divider_fails():
    """The check sees a big figure that nearly touches a line: home's NS total as the
    128x64 layout drew it before ("444" 2 px from the divider)."""
    _, problems, _ = run_fit("128x64", "--divider-example")
    assert [p for p in problems if p["kind"] == "touches a divider" and "444" in p["detail"]], _show(problems)


def four_digit_totals_clear_the_scroll_bar(layout):
    """A long game whose totals pass 1000 (and a deal score of four digits): every row of its
    deals list selected, as the current game and as a past game, and a deal's details, in
    every language; each total lies in its region, clear of the scroll bar."""
    out = []
    states, problems, _ = run_fit(layout, "--big-totals", lines=out)
    big = [int(line.split()[-1]) for line in out if line.startswith("big totals ")]
    assert big and big[0] >= 4 * 12, out[-5:]  # four-digit totals were drawn beside the scroll bar
    assert not problems, _show(problems)
