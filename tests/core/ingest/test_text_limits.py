"""Texts have a length per field (core.ingest.rows.TEXT_LIMITS), for files and live events alike: a required text past
its length makes a bad row naming the field and the length; an optional one is a warning and the row is kept
(ingest.md). A JSON Lines line the strict reader refuses is a bad row naming why. No database."""
from __future__ import annotations

import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from core.ingest.files import read_rows
from core.ingest.rows import StationTime, channel_row, profile_row, show_row
from core.ingest.values import FieldWarnings, RowError

IMPORTED_AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def interaction(**fields) -> dict:
    return {"company_id": 7, "originator": "27821234567", "timestamp": "2026-11-20T10:00:00", "channel_type": 2,
            "campaign_type": "song_request", **fields}


def read_interaction(row: dict) -> tuple:
    """(the row as read, its warnings as (field, reason) pairs)."""
    warnings = FieldWarnings()
    station = StationTime(ZoneInfo("Africa/Johannesburg"), [None] * 7 * 1440, IMPORTED_AT)
    return station.interaction(row, 7, warnings), [tuple(warning) for warning in warnings]


def bad_row_reason(read, *args) -> str:
    with pytest.raises(RowError) as refused:
        read(*args)
    return refused.value.reason


@pytest.mark.parametrize("length", [101, 100_000])
def test_a_campaign_type_longer_than_100_characters_makes_a_bad_row_naming_the_field_and_the_length(length):
    reason = bad_row_reason(read_interaction, interaction(campaign_type="x" * length))
    assert reason == "campaign_type is longer than 100 characters"


def test_a_campaign_type_of_100_characters_is_kept():
    assert read_interaction(interaction(campaign_type="x" * 100))[0].campaign == "x" * 100


def test_a_message_longer_than_4096_characters_is_a_warning_on_message_and_the_row_is_kept():
    event, warnings = read_interaction(interaction(message="y" * 100_000))
    assert event.campaign == "song_request" and event.message is None
    assert warnings == [("message", "message is longer than 4,096 characters")]


def test_a_message_of_4096_characters_is_kept_whole():
    assert read_interaction(interaction(message="y" * 4096))[0].message == "y" * 4096


def test_an_interaction_id_longer_than_200_characters_is_a_warning_and_the_row_is_kept():
    event, warnings = read_interaction(interaction(interaction_id="k" * 201))
    assert warnings == [("interaction_id", "interaction_id is longer than 200 characters")]
    assert event.key == read_interaction(interaction())[0].key  # de-duplicated by the row itself, as one without


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("name", "N" * 201, "name is longer than 200 characters"),
    ("location", "L" * 101, "location is longer than 100 characters"),
    ("email", "e" * 250 + "@a.co", "email is longer than 254 characters"),
    ("tags", ["vip", "t" * 101], "a tag is longer than 100 characters"),
])
def test_a_declared_text_past_its_length_is_a_warning_and_the_profile_keeps_its_other_fields(field, value, reason):
    warnings = FieldWarnings()
    _, _, fields = profile_row({"company_id": 7, "originator": "27821234567", "language": "isiZulu", field: value},
                               "ZA", warnings)
    assert fields == {"language": "isiZulu"}
    assert [tuple(warning) for warning in warnings] == [(field, reason)]


def test_a_channel_name_or_a_show_title_past_200_characters_makes_a_bad_row():
    assert bad_row_reason(channel_row, {"company_id": 7, "channel_type": 2, "name": "W" * 201}) == \
        "name is longer than 200 characters"
    show = {"company_id": 7, "timeslot_id": 1, "title": "T" * 201, "days": [1], "start": "06:00", "end": "09:00"}
    assert bad_row_reason(show_row, show) == "title is longer than 200 characters"


def jsonl(tmp_path, *lines: str) -> list:
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    return list(read_rows(path))


def test_a_json_lines_line_with_a_key_given_twice_is_a_bad_row_naming_the_key_and_the_next_line_is_read(tmp_path):
    rows = jsonl(tmp_path, '{"company_id": 7, "campaign_type": "a", "campaign_type": "b"}',
                 json.dumps(interaction()))
    (first_line, reason), (second_line, row) = rows
    assert (first_line, second_line) == (1, 2)
    assert isinstance(reason, str) and "'campaign_type'" in reason and "given more than once" in reason
    assert row == interaction()


@pytest.mark.parametrize(("line", "said"), [
    ('{"company_id": 7, "channel_type": ' + "9" * 5000 + "}", "at channel_type: Whole numbers are at most"),
    ('{"company_id": 7, "tags": ' + "[" * 5000 + "]" * 5000 + "}", "Nested more than 32 levels deep"),
    ('{"company_id": 7, "channel_type": NaN}', "at channel_type: NaN is not a JSON number"),
])
def test_a_json_lines_line_the_reader_refuses_is_a_bad_row_saying_why(tmp_path, line, said):
    [(number, reason)] = jsonl(tmp_path, line)
    assert number == 1 and reason.startswith("JSON refused") and said in reason
