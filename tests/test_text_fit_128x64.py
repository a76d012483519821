"""Every text fits, in every language, on the 128x64 layout (the checks:
tests/text_fit_checks.py; the other layout has its file, so both run side by side)."""
import pytest

import text_fit_checks as checks

LAYOUT = "128x64"


@pytest.mark.parametrize("names", ["", "--long-names"])
def test_every_text_fits_its_region(names):
    checks.every_text_fits_its_region(LAYOUT, names)


def test_the_link_mark_fits_on_a_wifi_board():
    checks.the_link_mark_fits_on_a_wifi_board(LAYOUT)


def test_no_link_mark_without_wifi():
    checks.no_link_mark_without_wifi(LAYOUT)


@pytest.mark.parametrize("key", checks.OVERLONG_KEYS)
def test_an_overlong_string_fails(key):
    checks.an_overlong_string_fails(LAYOUT, key)


def test_a_mark_above_the_cell_fails():
    checks.a_mark_above_the_cell_fails(LAYOUT)


def test_a_total_against_the_divider_fails():
    checks.a_total_against_the_divider_fails()


def test_four_digit_totals_clear_the_scroll_bar():
    checks.four_digit_totals_clear_the_scroll_bar(LAYOUT)
