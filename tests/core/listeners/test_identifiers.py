"""The written forms of a listener's identifiers (ingest.md, originators), checked in memory."""
from __future__ import annotations

import pytest

from core.listeners.identifiers import is_originator


@pytest.mark.parametrize("originator", ["27821234567", "+27821234567", "a.b:c@d+e_f-1", "x" * 64, "7", "erased-0a1b"])
def test_an_originator_is_1_to_64_letters_digits_and_plus_dash_underscore_dot_colon_at(originator):
    assert is_originator(originator)


@pytest.mark.parametrize("originator", ["", "x" * 65, "a/b", "a b", "a\tb", "a\x00b", "a\x7fb", "27821234567\n",
                                        "émile", "a%2Fb", "a?b", "a#b", "a\\b"])
def test_anything_else_is_not_an_originator(originator):
    assert not is_originator(originator)


@pytest.mark.parametrize("originator", [".", ".."])
def test_an_originator_of_only_dots_is_refused_because_a_url_path_cannot_hold_it(originator):
    assert not is_originator(originator)
