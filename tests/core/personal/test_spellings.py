"""Erasure finds a listener in free text in every spelling a person writes (issue 48, item 6), and nothing else:
never a longer run of digits, another number, or a word of a name alone. No database."""
from __future__ import annotations

import pytest

from core.personal.keyed import interaction_keys, is_keyed
from core.personal.spellings import spellings_of

ZANELE = spellings_of(["+27829990001"], ["Zanele Qwertyuiop"], ["zq.probe77@example.org", "8001015009087"])


@pytest.mark.parametrize("written", ["+27829990001", "27829990001", "0829990001", "082 999 0001", "082-999-0001",
                                     "+27 82 999 0001", "+27 (0)82 999 0001", "0027 82 999 0001", "082.999.0001",
                                     "Zanele Qwertyuiop", "zanele   QWERTYUIOP", "ZQ.Probe77@Example.org",
                                     "8001015009087"])
def test_every_spelling_of_the_listener_is_replaced(written):
    assert ZANELE.scrub(f"Reach {written}, today", "[erased]") == ("Reach [erased], today", 1)


@pytest.mark.parametrize("written", ["0829990002", "10829990001", "08299900011", "Zanele", "Qwertyuiop",
                                     "zq.probe77@example.org.za", "x.zq.probe77@example.org"])
def test_another_number_a_longer_one_or_a_word_of_the_name_alone_is_left(written):
    assert ZANELE.scrub(f"Reach {written}", "[erased]") == (f"Reach {written}", 0)


def test_a_name_shorter_than_four_letters_is_no_spelling():
    assert spellings_of([], ["Al"]).scrub("Al Green fans", "[erased]") == ("Al Green fans", 0)


def test_an_interaction_key_is_keyed_stable_of_its_station_and_never_the_id():
    [key] = interaction_keys(1, ["id:27780000006-49"])
    assert is_keyed(key) and "27780000006" not in key
    assert interaction_keys(1, ["id:27780000006-49"]) == [key] != interaction_keys(2, ["id:27780000006-49"])
    assert interaction_keys(1, [key]) == [key]  # a key already keyed is kept as it is
