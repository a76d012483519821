"""make bench's document (host_tools/bench/report.py): how each figure is measured is
written in docs/bench.md by hand, and a run of the bench rewrites the figures around it
without touching it."""
import os

from conftest import ROOT
from host_tools.bench.budgets import SECTIONS
from host_tools.bench.report import NOTES_HEADING, document, notes_of, splice

BENCH_MD = os.path.join(ROOT, "docs", "bench.md")


def _run_that_measured_nothing():
    return {"versions": {"micropython": "mp", "mpy-cross": "mc", "python": "py", "valgrind": "vg"},
            "commit": "HEAD", "date": "2026-12-01", "deals_from": "tests/ui_corpus.py",
            "errors": {sec: "stopped" for sec in SECTIONS}}


def _notes_in(text):
    return text[text.index(NOTES_HEADING):]


def test_docs_bench_md_says_how_every_figure_is_measured():
    with open(BENCH_MD, encoding="utf-8") as f:
        notes = _notes_in(f.read())
    for sec in SECTIONS:
        number = sec.split()[0]
        assert "\n%s. **" % number in notes, "docs/bench.md does not say how figure %s is measured" % number


def test_a_whole_document_keeps_the_notes_of_the_one_before():
    with open(BENCH_MD, encoding="utf-8") as f:
        before = f.read()
    table = ["| figure | what | value | budget | verdict |", "| --- | --- | --- | --- | --- |"]
    after = document(_run_that_measured_nothing(), table, notes_of(before))
    assert _notes_in(after) == _notes_in(before)
    assert "- **1 heap** could not be measured" in after


def test_figures_measured_again_keep_the_notes():
    with open(BENCH_MD, encoding="utf-8") as f:
        before = f.read()
    after = splice(before, _run_that_measured_nothing(), ("7 CPU",))
    assert _notes_in(after) == _notes_in(before)
    assert "| 7 CPU | not measured | stopped |" in after


def test_a_document_without_notes_says_where_they_are():
    notes = notes_of("")
    assert notes[0] == NOTES_HEADING and "docs/bench.md" in notes[-1]


def test_the_calculators_figure_gets_its_verdicts():
    """Figure 8 from a run that measured it: the CPython stream within its budget holds,
    the unix port's stream that completes holds, one that fails is named so."""
    from host_tools.bench.table import render

    stream = {"status": 0, "wall": 1.0, "cpu": 1.0, "rss": 20000}
    run = {"errors": {}, "calculator": {"cpython": stream, "micropython": dict(stream, status=1),
                                        "micropython_256k": stream}}
    lines = render(run, ("8 calculator",))[2:]
    assert len(lines) == 3
    assert lines[0].endswith("| holds |") and "**fails** (exit status 1)" in lines[1] and "**BROKEN**" in lines[1]
