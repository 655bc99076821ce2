"""The churn features read interactions by listener, then time: the packed-key sort gives exactly numpy's lexsort
order, ties (one listener, one second) included, and falls back to it where the key cannot hold the values."""
from __future__ import annotations

import numpy as np
import pytest

from core.churn.model import by_listener_then_time


@pytest.mark.parametrize("span", [86_400, 10 * 365 * 86_400, 2 ** 33])
def test_the_order_is_lexsorts_ties_kept_as_given(span):
    rng = np.random.default_rng(span % 1000)
    row = rng.integers(0, 300, 5000)
    ts = 1_700_000_000 + rng.integers(0, span, 5000)
    row[1::2], ts[1::2] = row[::2], ts[::2]  # every other interaction the twin of the one before: ties
    assert np.array_equal(by_listener_then_time(row, ts), np.lexsort((ts, row)))


def test_nothing_to_order_is_an_empty_order():
    assert len(by_listener_then_time(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))) == 0
