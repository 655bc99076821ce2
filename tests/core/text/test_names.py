"""Names compared as people see them: what reads the same on a screen is the same name."""
from __future__ import annotations

import pytest

from core.text.names import name_key


@pytest.mark.parametrize("lookalike", [
    "gospel fans",
    "  GOSPEL   FANS ",
    "Gos\u200bpel fans",  # a zero-width space
    "Gospel fans\u200d",  # a zero-width joiner
    "G\u043espel fans",  # a Cyrillic о
    "\u0047\u03bfspel fans",  # a Greek ο
    "\uff27\uff4f\uff53\uff50\uff45\uff4c fans",  # full-width letters
    "Gospel\u00a0fans",  # a no-break space
    "Gospel\u2003fans",  # an em space
    "Gospel fans\ufe0f",  # a variation selector
])
def test_names_that_read_the_same_have_one_key(lookalike):
    assert name_key(lookalike) == name_key("Gospel fans")


@pytest.mark.parametrize("other", ["Gospel fan", "Gospel fans 2", "Gospel ﬁans", "Jazz fans"])
def test_names_that_read_differently_keep_different_keys(other):
    assert name_key(other) != name_key("Gospel fans")


def test_letters_of_other_scripts_keep_their_marks():
    assert name_key("नमस्ते") != name_key("नमसत")  # Devanagari vowel signs and virama are combining marks
    assert name_key("Café") == name_key("Cafe\u0301") != name_key("Cafe")
