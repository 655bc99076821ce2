"""Keys kept in memory never outlive their destruction: a process that opened a group's key reads nothing sealed in
it once another process destroyed that key, without asking for each group at every read."""
from __future__ import annotations

import pytest

from core.listeners.models import MessageKey
from core.personal.sealed_groups import SealedGroups

pytestmark = pytest.mark.db


def test_a_key_destroyed_by_another_process_opens_nothing_at_once(app):
    here, there = (SealedGroups("messages", MessageKey, size=250) for _ in range(2))  # two processes' memories
    pairs = here.seal_all(1, [b"Play Jerusalema for my gogo", b"Traffic on the N3"]) + here.seal_all(
        1, [b"Load shedding again"])
    group = pairs[0][0]
    assert there.open(pairs) == [b"Play Jerusalema for my gogo", b"Traffic on the N3", b"Load shedding again"]
    here.destroy([group])
    assert there.open(pairs) == [None, None, b"Load shedding again"]


def test_a_group_at_hand_is_sealed_in_without_asking_and_a_destroyed_one_is_refused(app):
    here, there = (SealedGroups("messages", MessageKey, size=250) for _ in range(2))
    [(group, value)] = here.seal_all(1, [b"first"])
    there.open([(group, value)])
    [again] = there.seal_in(group, [b"second"])
    assert here.open([(group, again)]) == [b"second"]
    here.destroy([group])
    there.forget()
    with pytest.raises(LookupError):
        there.seal_in(group, [b"third"])


def test_values_are_sealed_size_to_a_group_and_each_group_is_erased_alone(app):
    here, there = SealedGroups("messages", MessageKey, size=2), SealedGroups("messages", MessageKey, size=2)
    values = [b"one", b"two", b"three", b"four", b"five"]
    pairs = here.seal_all(1, values)
    groups = [group for group, _ in pairs]
    assert groups[0] == groups[1] != groups[2] == groups[3] != groups[4]
    assert there.open(pairs) == values
    here.destroy([groups[2]])
    assert there.open(pairs) == [b"one", b"two", None, None, b"five"]
