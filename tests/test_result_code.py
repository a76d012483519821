"""The result code of a concours round (coinche.result_code): layout, round trip, and
the check digit catching every single wrong digit and every neighbour swap, on CPython
and on the MicroPython unix port."""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_mp
from coinche import result_code as rc
from coinche.result_code import CodeError, damm, decode, encode, grouped

TABLE = [[rc.QUASIGROUP[row * 10 + column] - 48 for column in range(10)] for row in range(10)]


def test_the_quasigroup_is_a_latin_square_with_a_zero_diagonal():
    assert all(sorted(row) == list(range(10)) for row in TABLE)
    assert all(sorted(TABLE[row][column] for row in range(10)) == list(range(10)) for column in range(10))
    assert [TABLE[i][i] for i in range(10)] == [0] * 10


def test_the_quasigroup_is_weakly_totally_anti_symmetric():
    # (c*x)*y == (c*y)*x only when x == y: what makes every neighbour swap visible
    assert not [(c, x, y) for c in range(10) for x in range(10) for y in range(10)
                if x != y and TABLE[TABLE[c][x]][y] == TABLE[TABLE[c][y]][x]]


def test_damms_own_example():
    assert damm("572") == 4 and damm("5724") == 0


def test_teams_layout():
    code = encode(2, 7, 1234, 980, 3, 12)
    assert code == "2" "07" "03" "12" "1234" "0980" + code[-1]
    assert grouped(code) == "2070 3121 2340 980" + code[-1]
    assert decode(grouped(code)) == (2, 7, 3, 12, 1234, 980)


def test_wide_layout_for_a_total_over_9999():
    code = encode(9, 32, 154200, 3, 3, 12)
    assert code[:15] == "9" "82" "154200" "000003"
    assert decode(code) == (9, 32, None, None, 154200, 3)


def test_wide_layout_without_team_numbers():
    assert decode(encode(1, 1, 0, 0)) == (1, 1, None, None, 0, 0)


def test_every_code_has_16_digits():
    assert {len(encode(r, t, 9999, 10000, 1, 2)) for r in (1, 9) for t in (1, 49)} == {16}
    assert len(encode(1, 1, 9999, 9999, 99, 99)) == 16


@pytest.mark.parametrize("separator", ["-", ".", "  ", ""])
def test_typed_with_other_separators(separator):
    code = encode(2, 7, 1234, 980, 3, 12)
    text = " " + separator.join(grouped(code).split()) + " "
    assert decode(text) == (2, 7, 3, 12, 1234, 980)


@pytest.mark.parametrize("text,why", [
    ("2070 3121 2340 980", "has 16 digits, got 15"),
    ("2070 3121 2340 98011", "has 16 digits, got 17"),
    ("2070 3121 234O 9801", "digits only"),
    ("", "has 16 digits, got 0"),
])
def test_unreadable_codes(text, why):
    with pytest.raises(CodeError, match=why):
        decode(text)


def _with_check(body):
    return body + str(damm(body))


@pytest.mark.parametrize("body,why", [
    ("000031212340980", "round 0"),
    ("200031212340980", "table field 00"),
    ("250031212340980", "table field 50"),
    ("207000012340980", "team 0"),
])
def test_fields_out_of_range_with_a_good_check_digit(body, why):
    with pytest.raises(CodeError, match=why):
        decode(_with_check(body))


@pytest.mark.parametrize("args", [
    (0, 1, 0, 0), (10, 1, 0, 0), (1, 0, 0, 0), (1, 50, 0, 0), (1, 1, -1, 0), (1, 1, 0, 1000000),
    (1, 1, 0, 0, 0, 5), (1, 1, 0, 0, 100, 5), (True, 1, 0, 0), (1, 1, 1.0, 0),
])
def test_values_a_code_cannot_hold(args):
    with pytest.raises(CodeError):
        encode(*args)


def test_not_text():
    with pytest.raises(CodeError):
        decode(1234)


codes_args = st.tuples(st.integers(1, rc.MAX_ROUND), st.integers(1, rc.MAX_TABLE),
                       st.integers(0, rc.MAX_TOTAL), st.integers(0, rc.MAX_TOTAL),
                       st.one_of(st.none(), st.integers(1, rc.MAX_TEAM)), st.integers(1, rc.MAX_TEAM))


@settings(max_examples=150, deadline=None)
@given(codes_args)
def test_round_trip(args):
    round_number, table, ns, ew, ns_team, ew_team = args
    code = encode(round_number, table, ns, ew, ns_team, ew_team if ns_team else None)
    got = decode(grouped(code))
    assert got[:2] == (round_number, table) and got[4:] == (ns, ew)
    if ns_team and ns <= 9999 and ew <= 9999:
        assert got[2:4] == (ns_team, ew_team)
    else:
        assert got[2:4] == (None, None)


def sample_codes(count=120, seed=20):
    """Codes of both layouts, small and large totals."""
    rnd = random.Random(seed)
    out = []
    for index in range(count):
        high = 9999 if index % 2 else rc.MAX_TOTAL
        out.append(encode(rnd.randint(1, 9), rnd.randint(1, 49), rnd.randint(0, high), rnd.randint(0, high),
                          rnd.randint(1, 99), rnd.randint(1, 99)))
    return out


def mistakes(code):
    """Every single wrong digit and every swap of two different neighbours."""
    for index in range(len(code)):
        for digit in "0123456789":
            if digit != code[index]:
                yield code[:index] + digit + code[index + 1:]
    for index in range(len(code) - 1):
        if code[index] != code[index + 1]:
            yield code[:index] + code[index + 1] + code[index] + code[index + 2:]


def test_every_single_error_and_neighbour_swap_is_caught():
    checked = 0
    for code in sample_codes():
        assert damm(code) == 0
        for wrong in mistakes(code):
            with pytest.raises(CodeError, match="check digit"):
                decode(wrong)
            checked += 1
    assert checked > 120 * 16 * 9


MP_DRIVER = r'''
import json
import sys
from coinche.result_code import CodeError, decode, encode, grouped
cases = json.loads(sys.stdin.readline())
for args, code, wrongs in cases:
    mine = encode(*args)
    caught = 0
    for wrong in wrongs:
        try:
            decode(wrong)
        except CodeError:
            caught += 1
    print(json.dumps([mine, list(decode(grouped(mine))), caught, len(wrongs)]))
'''


def test_the_same_codes_and_catches_on_micropython():
    rnd = random.Random(7)
    cases = []
    for index in range(40):
        high = 9999 if index % 2 else rc.MAX_TOTAL
        args = [rnd.randint(1, 9), rnd.randint(1, 49), rnd.randint(0, high), rnd.randint(0, high),
                rnd.randint(1, 99), rnd.randint(1, 99)]
        code = encode(*args)
        cases.append([args, code, list(mistakes(code))])
    out = run_mp(code=MP_DRIVER, stdin=json.dumps(cases) + "\n").stdout.splitlines()
    assert len(out) == len(cases)
    for (_args, code, wrongs), line in zip(cases, out):
        mine, decoded, caught, total = json.loads(line)
        assert mine == code
        assert tuple(decoded) == decode(code)
        assert caught == total == len(wrongs)
