"""The cache of deterministic MicroPython runs (tests/cached_runs.py): read back only while
nothing the program reads has changed, and never when turned off."""
import hashlib
import os

import cached_runs


def _digest(folder):
    digest = hashlib.sha256()
    cached_runs.tree_digest(digest, str(folder))
    return digest.hexdigest()


def test_one_byte_or_one_name_changed_in_the_code_changes_the_key(tmp_path):
    (tmp_path / "render").mkdir()
    (tmp_path / "render" / "en.txt").write_text("m_undo = Undo last\n")
    first = _digest(tmp_path)
    (tmp_path / "render" / "en.txt").write_text("m_undo = Undo lasT\n")
    assert _digest(tmp_path) != first
    (tmp_path / "render" / "en.txt").write_text("m_undo = Undo last\n")
    assert _digest(tmp_path) == first
    (tmp_path / "render" / "en.txt").rename(tmp_path / "render" / "de.txt")
    assert _digest(tmp_path) != first


def test_other_arguments_are_another_entry():
    script = os.path.join(cached_runs.SCRIPTS, "text_fit.py")
    assert cached_runs.cache_path(script, ("128x64",), "16M") != cached_runs.cache_path(script, ("240x135",), "16M")
    assert cached_runs.cache_path(script, ("128x64",), "16M") != cached_runs.cache_path(script, ("128x64",), "8M")


def _program(tmp_path):
    script = tmp_path / "hello.py"
    script.write_text("print('ran')\n")
    return str(script)


def test_a_kept_output_is_read_back_instead_of_running(tmp_path, monkeypatch):
    monkeypatch.setattr(cached_runs, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COINCHE_TEST_CACHE", "1")
    script = _program(tmp_path)
    cached_runs.output_lines.cache_clear()
    assert cached_runs.output_lines(script) == ("ran",)
    with open(cached_runs.cache_path(script, (), None), "w") as kept:
        kept.write("kept\n")  # what a run with the same code printed
    cached_runs.output_lines.cache_clear()
    assert cached_runs.output_lines(script) == ("kept",)
    cached_runs.output_lines.cache_clear()


def test_turned_off_every_run_runs(tmp_path, monkeypatch):
    monkeypatch.setattr(cached_runs, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("COINCHE_TEST_CACHE", "0")
    script = _program(tmp_path)
    cached_runs.output_lines.cache_clear()
    assert cached_runs.output_lines(script) == ("ran",)
    assert not (tmp_path / "cache").exists()
    cached_runs.output_lines.cache_clear()
