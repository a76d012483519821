"""No firmware function is longer than 70 lines: a longer one is split where its steps are,
so each step has a name a reader can follow. Lines are counted from the `def` to the last
line of the body, docstring and comments included."""
import ast
import os

from conftest import FIRMWARE

LONGEST = 70


def long_functions(top=FIRMWARE, longest=LONGEST):
    """'path: Class.function' -> lines, for every function of top over `longest` lines."""
    found = {}
    for base, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(n for n in names if n.endswith(".py")):
            path = os.path.join(base, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            rel = os.path.relpath(path, top).replace(os.sep, "/")
            _visit(tree, rel, "", longest, found)
    return found


def _visit(node, rel, prefix, longest, found):
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = child.end_lineno - child.lineno + 1
            if lines > longest:
                found["%s: %s%s" % (rel, prefix, child.name)] = lines
            _visit(child, rel, prefix + child.name + ".", longest, found)
        elif isinstance(child, ast.ClassDef):
            _visit(child, rel, prefix + child.name + ".", longest, found)


def test_no_firmware_function_is_longer_than_70_lines():
    assert sorted(long_functions()) == []


def test_the_count_sees_a_long_method(tmp_path):
    (tmp_path / "long.py").write_text("class A:\n    def f(self):\n" + "        x = 1\n" * 70 + "    def g(self):\n        pass\n")
    assert long_functions(str(tmp_path)) == {"long.py: A.f": 71}
