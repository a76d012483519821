"""make bench's figures of the web page (host_tools/web/measure.py) where no browser
is needed: what the document says around the figures, and that a machine without
what the page needs skips with the reason and keeps the document it had."""
import pytest

from host_tools.web import build as web_build
from host_tools.web import measure
from host_tools.web import serve


def _figures(board, first_frame_ms, press_median_ms):
    return {"board": board, "files": ["index.html", "page.js"], "raw": 123456, "gzipped": 45678,
            "first_frame_ms": first_frame_ms, "first_s": 7.5, "again_frame_ms": 2900.0, "again_s": 3.25,
            "press_median_ms": press_median_ms, "press_max_ms": press_median_ms + 100, "answered": 19,
            "presses": 20, "speed": 0.5, "awake_presses": 0.93, "answers_presses": 1.07,
            "instructions_presses": 0.52, "one_picture": 18, "most_pictures": 2, "still_cpu": 0.043,
            "load": "2.1 to 2.5"}


def test_the_bench_document_says_how_when_and_in_what_it_was_measured():
    results = [_figures("pico_oled", 7012.0, 236.0), _figures("pico_display_pack", 6543.0, 422.0)]
    text = measure.document(results, "Chromium 156.0.1", "2026-12-01", "HEAD", "3.5")
    rows = [line for line in text.splitlines() if line.startswith("| pico_")]
    assert [row.split(" | ")[0] for row in rows] == ["| pico_oled", "| pico_display_pack"]
    assert "7012 ms" in rows[0] and "236 ms / 336 ms (19 of 20 presses)" in rows[0]
    assert "6543 ms" in rows[1] and "422 ms / 522 ms" in rows[1]
    assert "123,456 B (2 files)" in rows[0] and "50% of real time" in rows[0]
    assert "one for 18 of 20 presses (at most 2)" in rows[0] and "4.3% of a core" in rows[0]
    assert "2.1 to 2.5" in rows[0]
    assert "50% of real time while awake (the presses: 93% awake, answers 107%, instructions 52%)" in rows[0]
    assert "Chromium 156.0.1" in text and "2026-12-01" in text and "`HEAD`" in text
    assert "load average 3.5" in text and "20 presses of DOWN" in text


def test_without_chromium_the_bench_says_why_and_keeps_the_document(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(serve, "CHROMIUM", str(tmp_path / "no-chromium"))
    out = tmp_path / "bench_web.md"
    out.write_text("the figures of the last run\n")
    assert measure.main(["--web", str(tmp_path / "web"), "--out", str(out)]) == 0
    assert "skipped: no Chromium at %s" % (tmp_path / "no-chromium") in capsys.readouterr().err
    assert out.read_text() == "the figures of the last run\n"
    assert not (tmp_path / "web").exists()


def test_without_the_uf2s_or_their_source_the_bench_says_why(tmp_path, monkeypatch, capsys):
    if serve.chromium_missing():
        pytest.skip("web page: %s (it is checked before the UF2s)" % serve.chromium_missing())
    monkeypatch.setattr(web_build, "uf2_path", lambda board: str(tmp_path / ("coinche-%s.uf2" % board)))
    bootrom = tmp_path / "rp2040-bootrom-b1.bin"
    bootrom.write_bytes(bytes(16384))
    monkeypatch.setenv("RP2040_BOOTROM", str(bootrom))
    monkeypatch.setenv("MICROPYTHON_SRC", str(tmp_path / "no-such-source.tar.xz"))
    out = tmp_path / "bench_web.md"
    assert measure.main(["--web", str(tmp_path / "web"), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "skipped:" in err and "no-such-source.tar.xz" in err
    assert not out.exists()


def test_the_figures_go_between_the_documents_markers_and_nothing_else_changes():
    doc = "# Try it\n\nbefore\n%s\nold table\n%s\nafter\n" % (measure.FIGURES_BEGIN, measure.FIGURES_END)
    out = measure.with_figures(doc, "| new | table |\n")
    assert out == "# Try it\n\nbefore\n%s\n| new | table |\n%s\nafter\n" % (measure.FIGURES_BEGIN, measure.FIGURES_END)
    assert measure.with_figures(out, "| new | table |\n") == out


def test_a_document_without_the_markers_is_refused_before_measuring(tmp_path, capsys):
    doc = tmp_path / "web.md"
    doc.write_text("no markers here\n")
    assert measure.main(["--web", str(tmp_path / "web"), "--doc", str(doc)]) == 2
    assert "no '<!-- figures" in capsys.readouterr().err
    assert doc.read_text() == "no markers here\n"
