"""Press-to-pixels counts the press's own picture: the first display transfer after the
app took the key, not a later one the clock caused before the next key."""
from host_tools.bench.emulated import TICKS_MASK, pixels_after

EDGE = 1_000_000
NEXT_KEY = EDGE + 600_000


def test_the_press_picture_ends_at_its_last_transfer():
    marks = [(EDGE + 6_000, -1), (EDGE + 7_000, EDGE + 30_000)]
    transfers = [EDGE + 10_000, EDGE + 20_000, EDGE + 29_000]
    assert pixels_after([(EDGE, NEXT_KEY)], marks, transfers) == [29.0]


def test_the_hint_turning_later_is_not_the_press():
    marks = [(EDGE + 6_000, -1), (EDGE + 7_000, EDGE + 30_000), (EDGE + 250_000, EDGE + 270_000)]
    transfers = [EDGE + 29_000, EDGE + 260_000, EDGE + 269_000]
    assert pixels_after([(EDGE, NEXT_KEY)], marks, transfers) == [29.0]


def test_a_picture_drawn_before_the_key_was_taken_is_not_the_press():
    marks = [(EDGE - 5_000, EDGE + 3_000), (EDGE + 8_000, -1), (EDGE + 9_000, EDGE + 40_000)]
    transfers = [EDGE + 2_000, EDGE + 39_000]
    assert pixels_after([(EDGE, NEXT_KEY)], marks, transfers) == [39.0]


def test_a_press_that_changes_nothing_has_no_figure():
    marks = [(EDGE + 6_000, -1), (EDGE + 7_000, EDGE + 8_000)]
    assert pixels_after([(EDGE, NEXT_KEY)], marks, [EDGE - 50_000]) == []


def test_the_device_ticks_wrap_at_30_bits():
    period = TICKS_MASK + 1
    edge = 3 * period - 2_000  # the key is taken just before the wrap, the picture after it
    marks = [((edge + 1_000) & TICKS_MASK, -1), ((edge + 3_000) & TICKS_MASK, (edge + 20_000) & TICKS_MASK)]
    transfers = [edge - 100_000, edge + 19_000]
    assert pixels_after([(edge, edge + 600_000)], marks, transfers) == [19.0]


def test_a_transfer_the_wrap_cuts_in_two_still_counts():
    period = TICKS_MASK + 1
    edge = 3 * period - 20_000  # the picture starts before the wrap and ends after it
    marks = [((edge + 1_000) & TICKS_MASK, -1), ((edge + 3_000) & TICKS_MASK, (edge + 30_000) & TICKS_MASK)]
    transfers = [edge - 100_000, edge + 29_000]
    assert pixels_after([(edge, edge + 600_000)], marks, transfers) == [29.0]
