"""No one-letter module aliases in the firmware, the boards, the host tools and the tests:
`import ui_corpus as C` reads as a seat or a card to whoever meets `C.games` forty lines
down (the seats are N, E, S, W); the module's own name says what it is. Checked on the
text, so the MicroPython snippets that tests send to the port as strings count too."""
import os
import re

from conftest import ROOT

CHECKED = ("firmware", "boards", "host_tools", "tests")
SKIPPED_DIRS = {"node_modules", "__pycache__", "golden", "sim_fixtures"}
# `import a.b as X`, `from a import b as X`, also inside a code string (after "\n" or ";")
ALIAS = re.compile(r"(?:^|\\n|;)\s*(?:from\s+[\w.]+\s+)?import\s+[\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*"
                   r"?\s+as\s+([A-Za-z])\b")


def _python_files():
    for top in CHECKED:
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(names):
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


def one_letter_aliases(paths):
    """'path:line: text' for each import that names a module with one letter."""
    found = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            if ALIAS.search(line):
                found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, line.strip()[:100]))
    return found


def test_no_one_letter_module_alias_in_firmware_boards_host_tools_and_tests():
    assert one_letter_aliases(_python_files()) == []


def test_a_one_letter_alias_is_found_in_code_and_in_a_code_string(tmp_path):
    named = " a" + "s "  # split, so this file holds no alias of its own
    module = tmp_path / "sample.py"
    module.write_text(
        "import ui_corpus" + named + "C\n"                          # 1: found
        "from coinche import melds" + named + "M  # noqa: E402\n"  # 2: found
        "import json\n"                                             # 3
        "from events import inputs" + named + "event_inputs\n"     # 4: a name that says what it is
        "CODE = \"import json\\nfrom store import partitions" + named + "P\\n\"\n"  # 5: found, in a string
        "import os, flash_image" + named + "F\n"                    # 6: found, the second of two
        "seat = 'E'  # the seat as the text has it\n")              # 7
    assert [line.split(":")[1] for line in one_letter_aliases([str(module)])] == ["1", "2", "5", "6"]
