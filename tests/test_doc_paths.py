"""Every path of the repository that the documentation names exists: the README and every
page of docs/ name files, folders and `python -m` modules that a reader can open or run.
(Paths under build/ and node_modules/, and the files .gitignore names, are made by the
tools, not kept in the repository; a
name with a placeholder, such as boards/<name>.py or boards/NAME.py, or a wildcard must
match at least one file.)"""
import glob
import os
import re

import pytest

from conftest import ROOT

TOPS = ("firmware", "boards", "host_tools", "tests", "docs", "uf2", "typings", ".ci")
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./*<>{},-]*)" % "|".join(re.escape(t) for t in TOPS))
MODULE = re.compile(r"-m (host_tools(?:\.\w+)+)")


def documents():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def named_paths(text):
    """The repository paths a text names (the trailing punctuation of a sentence left off)."""
    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".,;:")
        yield path


def made_by_the_tools():
    """The files .gitignore names by their whole path (fastcore.js, written at install)."""
    with open(os.path.join(ROOT, ".gitignore"), encoding="utf-8") as f:
        return {line.strip().strip("/") for line in f if line.startswith("/") and "*" not in line}


def path_exists(path):
    if "node_modules" in path:  # installed by npm (host_tools/rp2emu/install.py), not kept
        return True
    if path in made_by_the_tools():
        return True
    if os.path.exists(os.path.join(ROOT, path)):
        return True
    if re.search(r"[*<{]|[A-Z]{2,}", path):
        pattern = re.sub(r"<[^>]*>", "*", path)
        pattern = re.sub(r"\{[^}]*\}", "*", pattern)
        pattern = re.sub(r"[A-Z]{2,}", "*", pattern)  # boards/NAME.py
        return bool(glob.glob(os.path.join(ROOT, pattern)))
    return False


def module_exists(module):
    base = os.path.join(ROOT, *module.split("."))
    return os.path.exists(base + ".py") or os.path.exists(os.path.join(base, "__main__.py"))


@pytest.mark.parametrize("document", documents())
def test_every_path_a_document_names_exists(document):
    with open(os.path.join(ROOT, document), encoding="utf-8") as f:
        text = f.read()
    missing = sorted({p for p in named_paths(text) if not path_exists(p)})
    missing += sorted({m for m in MODULE.findall(text) if not module_exists(m)})
    assert missing == [], "%s names what is not in the repository" % document


def test_the_checker_finds_a_stale_path_and_keeps_a_good_one():
    text = ("see host_tools/sim.py, firmware/app.py, boards/<name>.py and boards/NAME.py; run "
            "`python -m host_tools.bench_uf2`.")
    assert list(named_paths(text)) == ["host_tools/sim.py", "firmware/app.py", "boards/<name>.py", "boards/NAME.py"]
    assert [path_exists(p) for p in named_paths(text)] == [False, True, True, True]
    assert [module_exists(m) for m in MODULE.findall(text)] == [False]
