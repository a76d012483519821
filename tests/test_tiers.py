"""The two test tiers hold what they say (Makefile, tests/conftest.py): every test that boots
the emulated RP2040 or builds a UF2 carries the `device` marker, so `make test` never waits
for the emulator, and the order of the files comes from the last run's durations."""
import ast
import os
import types

import pytest

import durations
from conftest import DEVICE_FIXTURES, ROOT

TESTS = os.path.join(ROOT, "tests")
# Calls that start the emulated RP2040 (or a browser running it) or build a UF2.
DEVICE_CALLS = {("rp2emu", "Pico"), ("deployed_images", "deployed"), ("frozen", "measure"),
                ("emulated", "game"), ("uf2", "build_firmware"), ("web_build", "build")}


def _called(node):
    """(module, attribute) of every `module.attribute(...)` call under node."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
            yield call.func.value.id, call.func.attr


def _names_used(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _marked_device(decorators):
    return any("device" in ast.unparse(d) for d in decorators)


def unmarked_device_tests(source):
    """The test functions of a file that reach a device call (directly, through a helper or
    a fixture of the same file) without the `device` marker on them or on the file, or a
    UF2 fixture (which tests/conftest.py marks)."""
    tree = ast.parse(source)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    file_marked = any(isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in n.targets)
                      and "device" in ast.unparse(n.value) for n in tree.body)
    booting = {name for name, f in functions.items() if DEVICE_CALLS & set(_called(f))}
    booting |= {name for name, f in functions.items() if set(DEVICE_FIXTURES) & {a.arg for a in f.args.args}}
    grew = True
    while grew:
        reached = {name for name, f in functions.items()
                   if name not in booting and (_names_used(f) | {a.arg for a in f.args.args}) & booting}
        booting |= reached
        grew = bool(reached)
    marked_here = {name for name, f in functions.items()  # conftest marks those asking for a UF2
                   if set(DEVICE_FIXTURES) & {a.arg for a in f.args.args}}
    return sorted(name for name in booting if name.startswith("test_") and not file_marked
                  and name not in marked_here and not _marked_device(functions[name].decorator_list))


def test_every_test_that_boots_the_emulated_pico_or_builds_a_uf2_is_in_the_device_tier():
    unmarked = {}
    for name in sorted(os.listdir(TESTS)):
        if name.startswith("test_") and name.endswith(".py") and name != "test_tiers.py":
            with open(os.path.join(TESTS, name), encoding="utf-8") as f:
                found = unmarked_device_tests(f.read())
            if found:
                unmarked[name] = found
    assert unmarked == {}


def test_the_checker_sees_a_boot_through_a_fixture_and_a_helper():
    source = (
        "import pytest\n"
        "@pytest.fixture\ndef image():\n    return deployed_images.deployed('pico_oled')\n"
        "def play(path):\n    return rp2emu.Pico('pico_oled', path)\n"
        "def test_a(image):\n    pass\n"
        "def test_b():\n    play('x')\n"
        "@pytest.mark.device\ndef test_c():\n    play('x')\n"
        "def test_d():\n    pass\n"
        "def test_e(uf2_images):\n    pass\n")
    assert unmarked_device_tests(source) == ["test_a", "test_b"]


def _item(nodeid, device=False):
    return types.SimpleNamespace(nodeid=nodeid, get_closest_marker=lambda name: device if name == "device" else None)


def test_files_go_out_slowest_first_by_the_last_runs_durations():
    items = [_item("tests/test_a.py::one"), _item("tests/test_b.py::one"), _item("tests/test_b.py::two"),
             _item("tests/test_c.py::one")]
    known = {"tests/test_a.py::one": 5.0, "tests/test_b.py::one": 4.0, "tests/test_b.py::two": 3.0,
             "tests/test_c.py::one": 0.5}
    durations.order_slowest_first(items, known, baseline={})
    assert [i.nodeid for i in items] == ["tests/test_b.py::one", "tests/test_b.py::two", "tests/test_a.py::one",
                                         "tests/test_c.py::one"]


def test_a_fresh_clone_orders_by_the_files_seconds_kept_in_the_repository(tmp_path):
    """No record of a last run: the seconds per file of tests/file_seconds.json; a file the
    record knows goes by the record, a file neither knows as without durations."""
    items = [_item("tests/test_a.py::one"), _item("tests/test_b.py::one"), _item("tests/test_c.py::one"),
             _item("tests/test_emu.py::one", device=True), _item("tests/test_d.py::one")]
    durations.order_slowest_first(items, {"tests/test_c.py::one": 9.0},
                                  baseline={"tests/test_a.py": 2, "tests/test_b.py": 30, "tests/test_c.py": 1})
    assert [i.nodeid for i in items] == ["tests/test_emu.py::one", "tests/test_b.py::one", "tests/test_c.py::one",
                                         "tests/test_a.py::one", "tests/test_d.py::one"]
    baseline = tmp_path / "file_seconds.json"
    durations.write_baseline(str(baseline), {"tests/test_a.py::one": 1.4, "tests/test_a.py::two": 2.0})
    assert durations.load(str(baseline)) == {"tests/test_a.py": 3}


def test_the_files_seconds_kept_in_the_repository_name_test_files_that_exist():
    kept = durations.load(durations.BASELINE)
    assert len(kept) > 50
    assert [name for name in kept if not os.path.exists(os.path.join(durations.ROOT, name))] == []


def test_without_durations_the_device_files_go_first_then_the_rest_as_collected():
    items = [_item("tests/test_a.py::one"), _item("tests/test_emu.py::one", device=True), _item("tests/test_b.py::one")]
    durations.order_slowest_first(items, {}, baseline={})
    assert [i.nodeid for i in items] == ["tests/test_emu.py::one", "tests/test_a.py::one", "tests/test_b.py::one"]


def test_a_run_merges_its_durations_into_the_file(tmp_path):
    path = str(tmp_path / "build" / "durations.json")
    first = durations.Run(path)
    for when, seconds in (("setup", 1.0), ("call", 2.0), ("teardown", 0.5)):
        first.add(types.SimpleNamespace(nodeid="tests/test_a.py::one", when=when, duration=seconds))
    first.add(types.SimpleNamespace(nodeid="tests/test_b.py::one", when="call", duration=1.0))
    first.save()
    second = durations.Run(path)
    second.add(types.SimpleNamespace(nodeid="tests/test_b.py::one", when="call", duration=7.0))
    second.save()
    assert durations.load(path) == {"tests/test_a.py::one": 3.5, "tests/test_b.py::one": 7.0}


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]"])
def test_an_unreadable_durations_file_is_no_durations(tmp_path, text):
    path = tmp_path / "durations.json"
    path.write_text(text)
    assert durations.load(str(path)) == {}
