"""A concours round on the emulated Pico (host_tools/rp2emu, stock rp2 MicroPython with
`make deploy`'s files, the suite's one deploy): the rules of the round given with
`--rules/--set` to the emulator's command, which records them on the deployed game as
the Settings screen does; the round started
through Menu > Concours and its deals entered from the key planner's script, both
pressed on the board's GPIO pins. At the round's end the device's state (what its
round-over screen shows) holds the result code; it must be the code made from the
calculator's totals for the same deals, and the organiser's decoder must read the
round, the table, the teams and the totals back from it.

One round of a few deals, once: the emulator is slow."""
import json
import random
import shutil
import subprocess
import sys

import pytest

import deployed_images
from conftest import ROOT
from coinche.result_code import decode, encode, grouped
from coinche.rules import Rules
from host_tools import rp2emu
from host_tools.calculator.keys import plan
from host_tools.sim.concours import round_presses
from test_concours_calculator import calculator_totals
from vectors import gen_valid

REASON = rp2emu.missing()
pytestmark = [pytest.mark.device, pytest.mark.skipif(REASON is not None, reason="emulated Pico: %s" % REASON)]  # boots the emulated RP2040 (the device tier)

PRESET = "federation"
DEALS = 4
ROUND, TABLE, NS_TEAM, EW_TEAM = 2, 7, 5, 11
RULE_ARGS = ["--rules", PRESET, "--set", "deals=%d" % DEALS]


def test_a_concours_round_on_the_emulated_pico_ends_with_the_calculators_code(tmp_path):
    source = random.Random(20261202)
    rules = Rules(PRESET, {"deals": DEALS})
    records = [gen_valid(rules, source) for _ in range(DEALS)]
    # a fresh device: Menu > Concours offers round 1, table 1, teams 1 and 2
    # (a pause after each OK: on the Pico an OK here opens a screen loaded from flash, or
    # starts the round with a journal write)
    script = ["wait 3000"]  # the app up and drawing home first
    for button in round_presses("home", {}, (ROUND, TABLE, NS_TEAM, EW_TEAM)):
        script.append(button.lower())
        if button == "OK":
            script.append("wait 400")
    script.append("wait 1500")
    script += plan(rules, records)[0]
    script.append("wait 1500")
    script_path = tmp_path / "round.keys"
    script_path.write_text("\n".join(script) + "\n")
    state_path = tmp_path / "state.json"
    image = tmp_path / "flash.img"
    shutil.copy(deployed_images.deployed("pico_oled")[0], image)  # a new game with no deal yet
    proc = subprocess.run([sys.executable, "-m", "host_tools.rp2emu", "--board", "pico_oled", "--timeout", "1200",
                           "--flash", str(image), "--script", str(script_path), "--state-out", str(state_path)]
                          + RULE_ARGS,
                          cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    state = json.loads(state_path.read_text())
    summary = {key: state.get(key) for key in ("screen", "over", "total", "concours", "rules")}
    summary["deals"] = len(state["deals"])
    summary["settings"] = state["settings"].get("concours")
    assert state["screen"] == "roundover" and state["over"], summary
    assert len(state["deals"]) == DEALS

    totals = calculator_totals(records, RULE_ARGS)
    result = state["concours"]
    assert result["totals"] == totals == state["total"]
    assert (result["round"], result["table"], result["teams"], result["deals"]) == \
        (ROUND, TABLE, {"NS": NS_TEAM, "EW": EW_TEAM}, DEALS)
    assert result["code"] == encode(ROUND, TABLE, totals["NS"], totals["EW"], NS_TEAM, EW_TEAM)
    # the organiser types it as the screen groups it
    assert decode(grouped(result["code"])) == (ROUND, TABLE, NS_TEAM, EW_TEAM, totals["NS"], totals["EW"])
