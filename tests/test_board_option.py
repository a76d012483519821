"""An unknown --board name gets one message listing the boards, with a "did you mean" when a
name is close, and exit status 2 before anything starts: in the simulator, the emulated Pico,
deploy and the UF2 build alike (host_tools/common/boards.py)."""
import subprocess
import sys

import pytest

from conftest import ROOT
from host_tools.common.boards import board_names, board_problem, pico_board_names


def _run(tool, *args):
    return subprocess.run([sys.executable, "-m", "host_tools." + tool] + list(args), input="",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def _refused(tool, *args):
    p = _run(tool, *args)
    assert p.returncode == 2, (tool, args, p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(tool.split(".")[-1] + ": --board: "), p.stderr
    return lines[0]


def test_the_boards_are_the_files_in_boards():
    assert board_names() == ["pico_display_pack", "pico_oled", "pico_w_display_pack", "pico_w_oled", "sim"]
    assert pico_board_names() == ["pico_display_pack", "pico_oled", "pico_w_display_pack", "pico_w_oled"]


def test_a_known_board_has_no_problem():
    assert board_problem("pico_oled", pico_board_names()) is None


def test_a_typo_is_answered_with_the_close_name():
    assert "did you mean 'pico_oled'?" in board_problem("pico_oledd", board_names())


def test_an_empty_name_lists_the_boards_without_a_guess():
    message = board_problem("", board_names())
    assert "did you mean" not in message and "pico_display_pack, pico_oled, pico_w_display_pack, pico_w_oled, sim" in message


@pytest.mark.parametrize("tool", ["sim", "rp2emu"])
def test_a_typo_in_the_board_is_refused_before_the_device_starts(tool):
    message = _refused(tool, "--board", "pico_oledd")
    assert "did you mean 'pico_oled'?" in message and "pico_display_pack" in message


@pytest.mark.parametrize("tool", ["sim", "rp2emu"])
def test_an_empty_board_name_is_refused_with_the_list(tool):
    assert "(boards: pico_display_pack, pico_oled" in _refused(tool, "--board", "")


def test_the_simulator_and_the_emulator_say_the_same():
    sim = _refused("sim", "--board", "pico_displaypack")
    emu = _refused("rp2emu", "--board", "pico_displaypack")
    assert "did you mean 'pico_display_pack'?" in sim
    assert sim[len("sim: "):].split(" (boards:")[0] == emu[len("rp2emu: "):].split(" (boards:")[0]


def test_the_emulator_refuses_the_simulators_board():
    message = _refused("rp2emu", "--board", "sim")
    assert "the simulator's, not a Pico's (boards: pico_display_pack, pico_oled, pico_w_display_pack, pico_w_oled)" in message


def test_deploy_refuses_an_unknown_board():
    message = _refused("device.deploy", "--board", "pico_oledd", "--plan")
    assert "unknown board 'pico_oledd' - did you mean 'pico_oled'?" in message


def test_uf2_build_refuses_an_unknown_board():
    assert "did you mean 'pico_oled'?" in _refused("device.uf2", "--board", "pico_oledd", "--check")
