"""Numbers in words: one place for percentages."""
from __future__ import annotations

import pytest

from core.wording import percent, percentage


@pytest.mark.parametrize("part, whole, expected", [(1, 3, 33.3), (0, 5, 0.0), (5, 5, 100.0), (3, 0, 0.0)])
def test_percentage_of_a_whole_has_one_decimal_and_nothing_of_nothing(part, whole, expected):
    assert percentage(part, whole) == expected


@pytest.mark.parametrize("share, expected", [(0.7, "70%"), (0.696, "70%"), (0.0, "0%"), (1.0, "100%")])
def test_percent_writes_a_share_as_whole_percent(share, expected):
    assert percent(share) == expected
