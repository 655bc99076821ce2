"""A confidence is shown only on enough evidence: at least 5 look-alikes agreeing on the value, or at least 2 of the
listener's own messages speaking for it; below that the value comes with "not enough evidence" and no confidence,
so it is never promoted."""
from __future__ import annotations

import numpy as np
import pytest

from core.ai.demographics import Guess
from core.ai.evidence import enough_evidence
from core.ai.lookalikes import Votes
from core.ai.promote import _refusal


def guess_of(agreeing: int, others: int, tokens: list[str] = ()) -> Guess:
    """A guess of value 0 that `agreeing` look-alikes voted for and `others` voted against."""
    counts = np.array([[agreeing, others]])
    total = max(1, agreeing + others)
    return Guess(0, 0.84, Votes(counts / total, counts, np.array([float(total)])), list(tokens))


@pytest.mark.parametrize("messages, enough", [(1, False), (2, True)])
def test_a_confidence_needs_at_least_two_of_the_listener_s_own_messages(messages, enough):
    assert enough_evidence("location", guess_of(0, 0, ["place:Soweto"] * messages), "Soweto") is enough


@pytest.mark.parametrize("agreeing, enough", [(4, False), (5, True)])
def test_a_confidence_needs_at_least_five_agreeing_look_alikes(agreeing, enough):
    assert enough_evidence("gender", guess_of(agreeing, 45), "female") is enough


def test_two_of_fifty_look_alikes_and_one_message_are_not_enough_for_84_percent():
    assert not enough_evidence("location", guess_of(2, 48, ["place:Soweto"]), "Soweto")


def test_two_messages_naming_the_place_are_enough_without_look_alikes():
    assert enough_evidence("location", guess_of(0, 0, ["place:Soweto", "place:Soweto"]), "Soweto")


def test_messages_naming_another_place_do_not_count_for_this_one():
    assert not enough_evidence("location", guess_of(1, 0, ["place:Durban", "place:Durban"]), "Soweto")


def test_a_value_without_a_confidence_is_never_promoted():
    assert _refusal({"value": "Soweto", "confidence": None}, None) == "there is not enough evidence for a confidence"
