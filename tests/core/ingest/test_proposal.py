"""The proposed mapping (core.ingest.proposal): each value detector, headers against values, one column per field."""
from __future__ import annotations

import pytest

from core.ingest.dates import DAY_FIRST
from core.ingest.proposal import detect, mapping_of, propose
from core.stations.channels import ChannelNames

CHANNELS = ChannelNames({1: "SMS", 2: "WhatsApp"})


def proposed(kind: str, columns: dict[str, list]) -> dict:
    """The proposal for columns given as {header: values}."""
    rows = [{header: values[i] for header, values in columns.items() if i < len(values)}
            for i in range(max(map(len, columns.values())))]
    return mapping_of(propose(kind, list(columns), rows, "ZA", CHANNELS, DAY_FIRST))


@pytest.mark.parametrize("values, seen", [
    (["082 123 4567", "0831234567", "+27 72 555 0101"], "phone"),
    (["thandi@example.com", "sipho@mail.co.za"], "email"),
    (["M", "F", "Vrou", "male"], "gender"),
    (["34", "51", "27"], "age"),
    (["9001015009086", "8505055800080"], "sa_id"),
    (["isiZulu", "English", "Afrikaans"], "language"),
    (["2026/11/20 07:15", "20-11-2026"], "moment"),
    (["07:15", "18h30"], "clock"),
    (["WhatsApp", "SMS"], "channel"),
    (["Competition", "Song request", "shoutout"], "campaign"),
    (["Mon-Fri", "Sat & Sun"], "days"),
    (["yes", "no", "ja"], "flag"),
    (["Please play some gqom for my mom", "Shout out to everyone in Soweto"], "long_text"),
])
def test_each_value_detector_recognises_its_values(values, seen):
    assert detect(values, "ZA", CHANNELS, DAY_FIRST)[0] == seen


def test_values_nothing_recognises_say_nothing():
    assert detect(["blue", "green", "red"], "ZA", CHANNELS, DAY_FIRST) == (None, 0.0)


def test_a_column_whose_header_says_nothing_follows_its_values():
    mapping = proposed("profiles", {"Contact": ["thandi@example.com", "sipho@mail.co.za"],
                                    "Column 2": ["082 123 4567", "0831234567"]})
    assert mapping == {"Contact": "email", "Column 2": "mobile_number"}


def test_a_plain_header_wins_unless_its_values_plainly_say_otherwise():
    mapping = proposed("profiles", {"Phone": ["thandi@example.com", "sipho@mail.co.za", "lerato@mail.com"]})
    assert mapping == {"Phone": "email"}


def test_a_sender_column_of_numbers_is_read_as_mobile_numbers():
    assert proposed("interactions", {"Sender": ["082 123 4567", "0831234567"]}) == {"Sender": "mobile_number"}


def test_a_field_goes_to_one_column_but_a_date_and_a_time_fill_the_timestamp_together():
    mapping = proposed("interactions", {"Date": ["20/11/2026"], "Time": ["07:15"], "Cell": ["0821234567"],
                                        "Phone": ["0831234567"]})
    assert mapping == {"Date": "timestamp", "Time": "timestamp", "Cell": "mobile_number", "Phone": None}


def test_a_profiles_column_of_yes_and_no_that_names_no_field_is_kept_as_tags():
    assert proposed("profiles", {"VIP": ["yes", "no"]}) == {"VIP": "tags"}


def test_a_shows_file_gets_its_start_and_end_from_two_time_columns():
    mapping = proposed("shows", {"Show": ["The Drive"], "Airs": ["Mon-Fri"], "On": ["15:00"], "Off": ["18:00"]})
    assert mapping == {"Show": "title", "Airs": "days", "On": "start", "Off": "end"}
