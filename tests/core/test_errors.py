"""Domain errors: what they say about the values they were given."""
from __future__ import annotations

from core.errors import ListenerNotFound


def test_listener_not_found_names_a_short_originator_in_full():
    assert ListenerNotFound.of("27821234567").detail == "Listener 27821234567 not found"


def test_listener_not_found_echoes_at_most_a_short_prefix_of_a_long_originator():
    asked = "27821234567" + "<script>" * 20
    assert ListenerNotFound.of(asked).detail == f"Listener {asked[:12]}… not found"
