"""Channels by the names people write them (core.stations.channels): pure rules, no database."""
from __future__ import annotations

import pytest

from core.stations import defaults
from core.stations.channels import ChannelNames

STATION = ChannelNames({**defaults.CHANNELS, 8: "Facebook", 2: "WhatsApp Line"})


@pytest.mark.parametrize("written, number", [
    ("WhatsApp", 2), ("sms", 1), ("SMS", 1), (" Whats App ", 2), ("whats-app", 2), ("W/A", 2), ("wa", 2),
    ("Text message", 1), ("USSD", 3), ("website", 4), ("Mobile App", 5), ("phone call", 6), ("2", 2), (3, 3),
    ("whatsapp line", 2),
])
def test_a_channel_is_read_by_its_name_a_spelling_or_its_number_whatever_case_and_spacing(written, number):
    assert STATION.number(written) == number


def test_the_stations_own_name_wins_over_a_spelling_of_a_default_channel():
    assert STATION.number("facebook") == 8
    assert ChannelNames(defaults.CHANNELS).number("facebook") == 7


def test_an_unknown_name_is_none_and_its_closest_known_name_is_proposed():
    assert STATION.number("Telegram") is None
    assert STATION.closest("Whatsap Lne") == "WhatsApp Line"
    assert STATION.closest("Facebok") == "Facebook"
    assert STATION.closest("zzzz") is None


def test_the_names_stored_for_a_station_are_read_over_the_defaults():
    stored = ChannelNames.of({"2": "WA Business"})
    assert stored.number("wa business") == 2 and stored.number("WhatsApp") == 2
    assert stored.listed().startswith("SMS, WA Business, USSD")
