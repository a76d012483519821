"""Option values are read strictly and the same everywhere (host_tools/common/rules_help.py
parse_value): booleans only `true`/`false`, numbers only the digits 0-9 without a sign, a
space or a leading zero, words exactly as listed; each refusal says what is accepted. The
calculator answers byte for byte the same on CPython and the MicroPython unix port, and the
key planner, the simulator, the emulator and the club refuse the same texts."""
import subprocess
import sys

import pytest

from coinche.rules import RulesError
from conftest import ROOT
from host_tools.common.rules_help import parse_value
from test_calculator_hostile import _cpython, _micropython

PASS = b'{"bid": "pass"}\n'

REFUSED = [
    ("rounding", "1"), ("rounding", "0"), ("rounding", "yes"), ("rounding", "no"), ("rounding", "on"),
    ("rounding", "True"), ("rounding", "TRUE"), ("rounding", " true"), ("rounding", ""),
    ("target", "+700"), ("target", " 700"), ("target", "700 "), ("target", "7 00"), ("target", "1e3"),
    ("target", "0700"), ("target", "700.0"), ("target", "1_000"), ("target", "\u0667\u0660\u0660"),
    ("target", "-700"), ("target", ""),
    ("belote_at", "04"), ("belote_at", "3"), ("fail_base", "+160"),
    ("contracts", "Suits"), ("contracts", "suits "), ("contracts", '"suits"'), ("melds", "ALL"),
    ("deals", "012"), ("pass_counts", "1"),
]

ACCEPTED = [
    ("rounding", "true", True), ("rounding", "false", False), ("target", "700", 700),
    ("target", "99990", 99990), ("deals", "0", 0), ("deals", "12", 12), ("belote_at", "0", 0),
    ("belote_at", "4", 4), ("fail_base", "162", 162), ("contracts", "all", "all"),
    ("contract_test", "82+melds", "82+melds"), ("solo", "500", "500"),
]


@pytest.mark.parametrize("name,text,value", ACCEPTED, ids=["%s=%s" % c[:2] for c in ACCEPTED])
def test_the_value_as_listed_is_read(name, text, value):
    got = parse_value(name, text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("name,text", REFUSED, ids=["%s=%r" % c for c in REFUSED])
def test_a_loose_value_is_refused_saying_what_is_accepted(name, text):
    with pytest.raises(RulesError) as caught:
        parse_value(name, text)
    message = str(caught.value)
    assert repr(text) in message
    assert ("one of" in message and "written exactly so" in message) or "digits 0-9" in message


def test_a_boolean_refusal_names_true_and_false():
    with pytest.raises(RulesError, match="one of true, false, written exactly so, got '1'"):
        parse_value("rounding", "1")


def test_an_enumerated_number_refusal_lists_the_numbers():
    with pytest.raises(RulesError, match="one of 0, 4, written exactly so, got '3'"):
        parse_value("belote_at", "3")


@pytest.mark.parametrize("setting", ["rounding=1", "rounding=yes", "rounding=no", "rounding=0",
                                     "target=+700", "target=1e3", "target=0700", "contracts=Suits",
                                     "rounding= true"])
def test_the_calculator_refuses_it_the_same_on_both_interpreters(setting):
    args = ["--rules", "classic2000", "--set", setting]
    cpython = _cpython(PASS, args)
    assert cpython == _micropython(PASS, args)
    code, out, err = cpython
    assert code == 2 and out == b"" and b"Traceback" not in err
    assert err.startswith(b"score.py: " + setting.split("=")[0].encode() + b": must be ") or \
        err.startswith(b"score.py: --set: ") or b"must be" in err, err


def test_the_calculator_reads_true_and_false_the_same_on_both_interpreters():
    args = ["--rules", "classic2000", "--set", "rounding=false", "--target", "700"]
    cpython = _cpython(PASS, args)
    assert cpython == _micropython(PASS, args) and cpython[0] == 0


def _message(cmd):
    p = subprocess.run([sys.executable, "-m"] + cmd, input="", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr, (cmd, p.stderr)
    return p.stderr


@pytest.mark.parametrize("text", ["0700", "yes", "+700", " 700", "1e3"])
def test_every_tool_refuses_the_same_target_text(text):
    """The calculator, the key planner, the simulator, the emulator and the club give the
    same reason for the same --target text."""
    reason = "must be %s, got %r" % ("a whole number written in the digits 0-9 (no sign, no spaces, no leading zero)",
                                     text)
    for cmd in (["host_tools.score", "--rules", "classic2000", "--target", text],
                ["host_tools.calculator.keys", "--rules", "classic2000", "--target", text],
                ["host_tools.sim", "--target", text],
                ["host_tools.rp2emu", "--target", text]):
        assert reason in _message(cmd), cmd


def test_the_club_refuses_a_loose_boolean(tmp_path):
    db = str(tmp_path / "club.sqlite")
    message = _message(["host_tools.club", "--db", db, "new", "--name", "Test", "--rounds", "3", "--deals", "12",
                        "--rules", "classic2000", "--set", "rounding=yes"])
    assert not (tmp_path / "club.sqlite").exists()
    assert "rounding: must be one of true, false, written exactly so, got 'yes'" in message
