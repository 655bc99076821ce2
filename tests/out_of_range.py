"""A station one of whose listeners has interactions stored outside the accepted range (exports' placeholder dates,
far-future garbage) and after the runs' `now`, written straight into the database as the importer writes its batches,
around the importer's check: what a database from before the range existed may hold. For the tests that every
operation survives any stored time: `out_of_range_station(company_id)`, whose listener is `PLACEHOLDER`."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from core.clock import utcnow
from core.listeners.events import batch_document, write_batches
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.memory import NOW
from tests.themes import originator, themed_station

PLACEHOLDER = originator(1, "gospel", 0)
"""The listener with the out-of-range interactions: a gospel listener of the themed station, with ordinary ones too."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def millis(moment: datetime) -> int:
    return (moment - EPOCH) // timedelta(milliseconds=1)


def stored_times() -> dict[str, int]:
    """What each stored interaction time is, by name: before and beyond the accepted range, and within it but after
    the `now` of a run as of NOW."""
    return {
        "0001-01-01": millis(datetime(1, 1, 1, tzinfo=UTC)),
        "1899-12-31": millis(datetime(1899, 12, 31, tzinfo=UTC)),
        "1969-12-31T23:59:59Z": -1000,
        "1970-01-01": 0,
        "1999-12-31T23:59:59.999Z": millis(datetime(2000, 1, 1, tzinfo=UTC)) - 1,
        "9999-12-31T23:59:59.999Z": millis(datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=UTC)),
        "the smallest int64": -2**63,
        "the largest int64": 2**63 - 1,
        "two days after the clock": millis(utcnow() + timedelta(days=2)),
        "a year after the clock": millis(utcnow() + timedelta(days=365)),
        "three days after NOW": millis(NOW + timedelta(days=3)),
    }


def store_out_of_range(company_id: int, who: str) -> None:
    """One batch of the listener's interactions at every time of `stored_times`, as an import would write it (with
    messages, competitions and a show, so that every reader of them meets the odd times)."""
    times = list(stored_times().values())
    n = len(times)
    campaigns = [("competition", "song_request", "poll")[i % 3] for i in range(n)]
    write_batches([batch_document(
        company_id, who, "out-of-range", times, [2] * n, campaigns, [3 if i % 2 else None for i in range(n)],
        [f"Placeholder date {i}, praise and worship" for i in range(n)], [f"out-of-range:{i}" for i in range(n)])])


def out_of_range_station(company_id: int = 1, segmented_since: bool = True) -> int:
    """The themed station (segmented, embedded, credits loaded) with PLACEHOLDER's out-of-range interactions stored,
    then segmented again as of NOW and embedded, as after the import that brought them (or, `segmented_since`
    false, stored after the last run, so that only the operations that read events themselves meet them)."""
    themed_station(company_id)
    store_out_of_range(company_id, PLACEHOLDER)
    if segmented_since:
        segment_company(company_id, NOW)
        vectors.refresh_embeddings(company_id)
    return company_id
