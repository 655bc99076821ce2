"""Interaction times have an accepted range (ingest.md): from 2000-01-01T00:00:00Z to one day after the moment of
import, both included; anything outside is a bad row, "timestamp outside the accepted range", whatever its offset."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import utcnow
from core.ingest.importer import import_file, import_rows
from core.ingest.rows import StationTime
from core.ingest.values import FieldWarnings, RowError
from core.listeners.models import InteractionBatch

IMPORTED_AT = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
JOHANNESBURG = ZoneInfo("Africa/Johannesburg")  # UTC+2 all year
OUTSIDE = "timestamp outside the accepted range"


def row(timestamp: str, **fields) -> dict:
    return {"company_id": 7, "originator": "27821234567", "timestamp": timestamp, "channel_type": 2,
            "campaign_type": "song_request", **fields}


def millis(timestamp: str, now: datetime | None = IMPORTED_AT) -> int:
    """The stored time of an interaction at `timestamp` imported at `now` (None: the clock)."""
    station = StationTime(JOHANNESBURG, [None] * 7 * 1440, now)
    return station.interaction(row(timestamp), 7, FieldWarnings()).millis


def refusal(timestamp: str, now: datetime | None = IMPORTED_AT) -> str:
    """The reason an interaction at `timestamp` imported at `now` is a bad row."""
    with pytest.raises(RowError) as refused:
        millis(timestamp, now)
    return refused.value.reason


def test_an_interaction_at_exactly_2000_01_01_utc_is_accepted():
    assert millis("2000-01-01T00:00:00Z") == 946_684_800_000


@pytest.mark.parametrize("timestamp", ["1999-12-31T23:59:59.999Z", "1999-12-31T23:59:59Z"])
def test_a_millisecond_or_a_second_before_2000_01_01_utc_is_outside_the_accepted_range(timestamp):
    assert refusal(timestamp) == f"{OUTSIDE}, got {timestamp!r}"


def test_a_local_time_is_held_against_the_range_in_utc():
    assert refusal("2000-01-01T01:59:59").startswith(OUTSIDE)  # 23:59:59 UTC the day before, in Johannesburg
    assert millis("2000-01-01T02:00:00") == 946_684_800_000


def test_an_interaction_exactly_one_day_after_the_moment_of_import_is_accepted():
    ahead = IMPORTED_AT + timedelta(days=1)
    assert millis(ahead.isoformat()) == (ahead - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def test_one_millisecond_beyond_one_day_after_the_moment_of_import_is_outside_the_accepted_range():
    beyond = IMPORTED_AT + timedelta(days=1, milliseconds=1)
    assert refusal(beyond.isoformat()).startswith(OUTSIDE)


@pytest.mark.parametrize("timestamp", ["0001-01-01", "0001-01-01T00:00:00+05:00", "1899-12-31", "1970-01-01T00:00:00Z",
                                       "9999-12-31", "9999-12-31T23:59:59-05:00", "2100-01-01T00:00:00Z"])
def test_placeholder_dates_of_exports_are_outside_the_accepted_range(timestamp):
    assert refusal(timestamp).startswith(OUTSIDE)


def test_without_a_moment_of_import_the_clock_is_the_moment():
    assert millis((utcnow() + timedelta(hours=23)).isoformat(), now=None) > 0
    assert refusal((utcnow() + timedelta(days=1, minutes=1)).isoformat(), now=None).startswith(OUTSIDE)


def write(tmp_path, rows: list[dict]) -> str:
    path = tmp_path / "interactions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return str(path)


@pytest.mark.db
def test_an_interaction_dated_1999_12_31_is_a_bad_row_outside_the_accepted_range(app, tmp_path):
    rows = [row("2026-11-20T07:15:00+02:00"), row("1999-12-31"), row("2026-11-20T08:15:00+02:00")]
    report = import_file("interactions", write(tmp_path, rows))
    assert (report.imported, report.error_count) == (2, 1)
    assert report.errors == [{"line": 2, "reason": f"{OUTSIDE}, got '1999-12-31'"}]
    assert InteractionBatch.objects.get().n == 2


@pytest.mark.db
def test_an_import_accepts_times_up_to_one_day_after_its_own_moment(app):
    ahead = IMPORTED_AT + timedelta(days=1)
    rows = [row(ahead.isoformat()), row((ahead + timedelta(milliseconds=1)).isoformat())]
    report = import_rows("interactions", enumerate(rows, start=1), now=IMPORTED_AT)
    assert (report.imported, [e["line"] for e in report.errors]) == (1, [2])
