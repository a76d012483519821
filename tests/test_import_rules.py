"""Imports go one way: along the data path in firmware/, and without cycles or
borrowed private names anywhere (firmware/, host_tools/, the simulator's
MicroPython scripts in host_tools/*/device_side/)."""
import ast
import os
import shutil

import pytest

import import_rules as rules
from conftest import FIRMWARE, ROOT
from host_tools.common.paths import DEVICE_SIDE

HOST_TOOLS = os.path.join(ROOT, "host_tools")


def device_side_tree():
    """The MicroPython scripts of host_tools/{sim,bench,rigs}/device_side/, one tree: they
    import one another by bare name (the three folders share one sys.path)."""
    modules = {}
    for folder in DEVICE_SIDE:
        modules.update(rules.read_tree(folder))
    return modules


# The firmware's layers along the data path, and what each may import (docs/architecture.md,
# "Layers"). `app` is the application loop: only main.py (no layer) starts it; nothing
# imports it. `on_demand` is the table of the modules loaded on demand, and their loader;
# `flash_report` what the UF2's boot mount found. `compat` (coinche/compat.py: `const` and
# the `time.ticks_*` fallbacks for CPython) is a layer of its own that every layer may take.
FIRMWARE_LAYERS = {
    "compat": set(),
    "coinche": set(),
    "drivers": set(),
    "on_demand": set(),
    "flash_report": set(),
    "link": {"store", "on_demand"},
    "events": set(),
    "store": {"on_demand"},
    "render": set(),
    "table": {"coinche", "store", "flash_report"},
    "screens": {"table", "render", "events", "coinche", "on_demand"},
    "app": {"screens", "table", "render", "events", "store", "coinche", "drivers", "on_demand", "link"},
}
for _allowed in FIRMWARE_LAYERS.values():
    _allowed.add("compat")
COMPAT = "coinche.compat"


def firmware_layer(module):
    """A firmware module's layer: its top-level package (or module), None for main.py;
    coinche.compat is the layer `compat`."""
    if module == COMPAT:
        return "compat"
    top = module.split(".")[0]
    if top == "main":
        return None
    return top


TREES = {
    "firmware": lambda: rules.read_tree(FIRMWARE),
    "host_tools": lambda: rules.read_tree(HOST_TOOLS, "host_tools"),
    "host_tools/*/device_side": device_side_tree,
}


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_import_cycle_anywhere(tree):
    assert rules.cycles(TREES[tree]()) == []


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_private_name_used_across_modules(tree):
    assert rules.private_uses(TREES[tree]()) == []


def test_const_and_the_ticks_fallbacks_come_from_one_module():
    """No firmware module but coinche/compat.py imports `const` from micropython or the
    `ticks_*` from time with a fallback of its own (screens/ and render/ excepted while
    their layouts are reworked: render/layout_240x135.py still takes const from micropython)."""
    allowed = {"render.layout_240x135"}
    found = []
    for name, (_path, tree) in sorted(rules.read_tree(FIRMWARE).items()):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ("micropython", "time") and name != COMPAT:
                taken = {alias.name for alias in node.names}
                if taken & {"const", "ticks_diff", "ticks_add"} and name not in allowed:
                    found.append("%s: from %s import %s" % (name, node.module, ", ".join(sorted(taken))))
    assert found == []


def test_every_firmware_module_is_in_a_layer():
    unknown = sorted({firmware_layer(m) for m in rules.read_tree(FIRMWARE)} - set(FIRMWARE_LAYERS) - {None})
    assert unknown == []


def test_firmware_layers_import_one_way():
    assert rules.layer_violations(rules.read_tree(FIRMWARE), FIRMWARE_LAYERS, firmware_layer) == []


def test_nothing_imports_the_application_loop():
    graph = rules.edges(rules.read_tree(FIRMWARE))
    importers = sorted(m for m, targets in graph.items()
                       if m != "main" and firmware_layer(m) != "app"
                       and any(firmware_layer(t) == "app" for t in targets))
    assert importers == []


def _copy_firmware(tmp_path):
    copy = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_an_injected_cycle_is_found(tmp_path):
    copy = _copy_firmware(tmp_path)
    record_file = copy / "coinche" / "record.py"
    record_file.write_text(record_file.read_text() + "\n\ndef late():\n    from coinche import game\n    return game\n")
    assert any("coinche.record" in cycle and "coinche.game" in cycle for cycle in rules.cycles(rules.read_tree(str(copy))))


def test_an_injected_private_import_is_found(tmp_path):
    copy = _copy_firmware(tmp_path)
    (copy / "coinche" / "borrower.py").write_text("from coinche.scoring import _hidden\n")
    (copy / "coinche" / "scoring.py").write_text((copy / "coinche" / "scoring.py").read_text() + "\n_hidden = 1\n")
    found = rules.private_uses(rules.read_tree(str(copy)))
    assert any("borrower.py" in line and "_hidden" in line for line in found)


def test_an_injected_private_assignment_is_found(tmp_path):
    copy = _copy_firmware(tmp_path)
    (copy / "coinche" / "meddler.py").write_text("def meddle(game):\n    game._deals = []\n")
    assert any("meddler.py" in line for line in rules.private_uses(rules.read_tree(str(copy))))


def test_an_injected_layer_breach_is_found(tmp_path):
    copy = _copy_firmware(tmp_path)
    (copy / "coinche" / "peek.py").write_text("import drivers\n")
    found = rules.layer_violations(rules.read_tree(str(copy)), FIRMWARE_LAYERS, firmware_layer)
    assert any("coinche.peek" in line for line in found)
