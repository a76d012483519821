"""No issue numbers or commit hashes in the host tools, the tests, the Makefile and CI:
a reader of the repository has neither the tracker nor the history at hand, so the text
says what it means ("the first deal entry, with separate melds steps"), not where it
was once discussed."""
import os
import re

from conftest import ROOT

ISSUE = re.compile(r"\b[Ii]ssues? ?#?\d+")
# 7 to 40 hex digits with a letter and a digit among them: a commit, not a number or a fill byte
HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
CHECKED = ("host_tools", "tests", "Makefile", ".ci")
SKIPPED_DIRS = {"node_modules", "__pycache__", "golden", "sim_fixtures"}
# npm's integrity hashes; rp2040js's code as fastcore_gen.js writes it at install (not kept in git)
SKIPPED_FILES = {"package-lock.json", "fastcore.js"}


def _texts():
    for top in CHECKED:
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(names):
                if name not in SKIPPED_FILES and not name.endswith((".png", ".img", ".mpy", ".pyc")):
                    yield os.path.join(folder, name)


def findings(paths):
    """'path:line: text' for each issue number or commit hash in the files at `paths`."""
    found = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            if ISSUE.search(line) or HASH.search(line):
                found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, line.strip()[:100]))
    return found


def test_no_issue_number_or_commit_hash_in_host_tools_tests_makefile_and_ci():
    assert findings(_texts()) == []


def test_an_issue_number_and_a_commit_hash_are_found(tmp_path):
    text = tmp_path / "notes.py"
    issue, commit = "iss" + "ue 9", "5bc" + "7324"  # split, so this file holds neither
    text.write_text("# fixed in %s\nx = 1\n# measured at %s\ny = 0x7FFFFFFF  # 1103515245\n" % (issue, commit))
    assert [line.split(":")[1] for line in findings([str(text)])] == ["1", "3"]
