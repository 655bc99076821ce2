"""Credits as money, without the database: exact hundredths in, the numbers people typed out."""
from __future__ import annotations

import pytest

from core.credits.money import MAX_LOAD, as_credits, hundredths, load_amount, phrase


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), "10", True, MAX_LOAD + 0.01, 1e7, 0.001])
def test_a_load_that_is_not_a_positive_number_with_at_most_2_decimals_within_the_maximum_is_refused(value):
    with pytest.raises(ValueError):
        load_amount(value)


def test_tenths_and_hundredths_add_up_exactly():
    assert as_credits(load_amount(10.5) + load_amount(0.25)) == 10.75
    assert as_credits(sum(load_amount(0.1) for _ in range(3))) == 0.3  # 0.1 + 0.1 + 0.1 is not 0.3 in floats


def test_a_float_a_rounding_error_away_from_2_decimals_counts_as_those_2_decimals():
    assert hundredths(57 * 0.01) == 57  # 0.5700000000000001


def test_the_maximum_itself_may_be_loaded():
    assert as_credits(load_amount(MAX_LOAD)) == MAX_LOAD


def test_whole_credits_read_as_whole_numbers_and_others_with_their_decimals():
    assert (as_credits(1000), type(as_credits(1000))) == (10, int)
    assert as_credits(1050) == 10.5 and as_credits(-150) == -1.5 and as_credits(-200) == -2


def test_sentences_say_credit_for_one_and_credits_otherwise():
    assert [phrase(100), phrase(500), phrase(25), phrase(0), phrase(100_000_000)] == [
        "1 credit", "5 credits", "0.25 credits", "0 credits", "1,000,000 credits"]
