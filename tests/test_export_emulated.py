"""Export through mpremote from the emulated Pico (the stock rp2 UF2).

A short game is typed on the GPIO buttons (the key planner's script), then
`python -m host_tools.device.export --port socket://...` copies the journal off with
mpremote and restarts the device: games.json's totals are the host calculator's,
and after the restart the device shows the same game.  Skipped, with the reason,
where the UF2, the boot ROM, node or rp2040js is missing.
"""
import json
import os
import shutil
import subprocess

import pytest

from conftest import ROOT
from device_games import calculator_totals as _calculator_totals
from device_games import corpus_game as _game
from host_tools.calculator import keys as planner
from host_tools import rp2emu
from host_tools.common.script import parse_script
import deployed_images

REASON = rp2emu.missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="emulated Pico: %s" % REASON)]  # boots the emulated RP2040 (the device tier)


def test_export_through_mpremote_from_the_emulated_pico(tmp_path):
    records = _game(3)
    rules = planner.Rules("classic2000")
    lines, _ = planner.plan(rules, records)
    out = str(tmp_path / "export")
    image = str(tmp_path / "flash.img")
    deployed, _, reboots = deployed_images.deployed("pico_oled")  # make deploy's, once per run
    assert reboots == 1, "make deploy ends with a reset"
    shutil.copy(deployed, image)
    with rp2emu.Pico("pico_oled", image) as pico:
        pico.wait_for_frame()
        pico.play(parse_script(lines), press_ms=30, gap_ms=30)
        before = pico.state()
        proc = subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"), "-m", "host_tools.device.export",
                               "--port", pico.url, "--out", out],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        pico.wait_for_frame()
        assert pico.reboots == 1, "the export restarts the scoreboard"
        after = pico.state()
    assert after == before, "the export changed the device"
    assert before["deals"] == [planner.canonical(rules, r) for r in records]
    with open(os.path.join(out, "games.json")) as f:
        doc = json.load(f)
    assert doc["problems"] == []
    assert len(doc["games"]) == 1
    want = _calculator_totals(records, "classic2000")
    game = doc["games"][0]
    assert game["total"] == want
    assert [d["record"] for d in game["deals"]] == before["deals"]
    assert before["total"] == want
