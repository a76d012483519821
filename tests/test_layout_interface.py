"""Both layouts implement the Layout interface (firmware/render/layout.pyi) with the same
parameter names and defaults, the screens call confirm() by keyword, and no function of
the screens or the layouts runs over 70 lines (a long one is split where its steps are)."""
import ast
import os

import pytest

from conftest import ROOT

RENDER = os.path.join(ROOT, "firmware", "render")
SCREENS = os.path.join(ROOT, "firmware", "screens")
LAYOUTS = ("layout_128x64.py", "layout_240x135.py")
LONGEST = 70


def _methods(path, class_name="Layout"):
    tree = ast.parse(open(path, encoding="utf-8").read())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}


def _signature(function):
    args = function.args
    names = [a.arg for a in args.args]
    defaults = [ast.unparse(d) for d in args.defaults]
    return names, defaults


INTERFACE = _methods(os.path.join(RENDER, "layout.pyi"))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("method", sorted(INTERFACE))
def test_the_layout_implements_the_interface_with_its_parameter_names(layout, method):
    methods = _methods(os.path.join(RENDER, layout))
    assert method in methods, "%s has no %s()" % (layout, method)
    assert _signature(methods[method]) == _signature(INTERFACE[method]), (layout, method)


def _python_files(*folders):
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                yield os.path.join(folder, name)


def test_the_screens_call_confirm_by_keyword():
    calls = []
    for path in _python_files(SCREENS):
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "confirm":
                calls.append((os.path.basename(path), node.lineno, len(node.args)))
    assert calls and all(positional == 0 for _, _, positional in calls), calls


def test_no_function_of_the_screens_or_the_layouts_runs_over_70_lines():
    long = []
    for path in _python_files(SCREENS, RENDER):
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > LONGEST:
                    long.append("%s %s: %d lines" % (os.path.relpath(path, ROOT), node.name, lines))
    assert not long, long
