"""Imports go one way: along the data path in firmware/, and without cycles or
borrowed private names anywhere (firmware/, host_tools/, the simulator's
MicroPython runtime in host_tools/mp/)."""
import os
import shutil

import pytest

import import_rules as rules
from conftest import FIRMWARE, ROOT

HOST_TOOLS = os.path.join(ROOT, "host_tools")
HOST_MP = os.path.join(HOST_TOOLS, "mp")

# The firmware's layers along the data path, and what each may import (docs/architecture.md,
# "Layers"). `app` is the application loop: only main.py (no layer) starts it; nothing
# imports it. `on_demand` is the table of the modules loaded on demand, and their loader;
# `flash_report` what the UF2's boot mount found. events and render take only
# `coinche.compat.const` from the scoring core.
FIRMWARE_LAYERS = {
    "coinche": set(),
    "drivers": set(),
    "on_demand": set(),
    "flash_report": set(),
    "link": {"store", "on_demand"},
    "events": {"coinche"},
    "store": {"on_demand"},
    "render": {"coinche"},
    "table": {"coinche", "store", "flash_report"},
    "screens": {"table", "render", "events", "coinche", "on_demand"},
    "app": {"screens", "table", "render", "events", "store", "coinche", "drivers", "on_demand", "link"},
}


def firmware_layer(module):
    """A firmware module's layer: its top-level package (or module), None for main.py."""
    top = module.split(".")[0]
    if top == "main":
        return None
    return top


TREES = {
    "firmware": lambda: rules.read_tree(FIRMWARE),
    "host_tools": lambda: rules.read_tree(HOST_TOOLS, "host_tools"),
    "host_tools/mp": lambda: rules.read_tree(HOST_MP),
}


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_import_cycle_anywhere(tree):
    assert rules.cycles(TREES[tree]()) == []


@pytest.mark.parametrize("tree", sorted(TREES))
def test_no_private_name_used_across_modules(tree):
    assert rules.private_uses(TREES[tree]()) == []


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
