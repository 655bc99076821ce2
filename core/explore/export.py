"""Export of every matching listener, streamed as CSV or JSON so that a million records never sit in memory."""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from core.csvcells import CsvText
from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.operations import LISTING_PROJECTION, select
from core.explore.records import record
from core.listeners.declared import iter_listeners
from core.listeners.fields import FLAGS, INFERRED, LISTED

CSV_COLUMNS = ("originator", *LISTED, "tags", *FLAGS, "segment", "rfm_recency", "rfm_frequency", "rfm_engagement",
               "first_interaction", "last_interaction",
               "interactions_total", "interactions_30d", "interactions_90d", "channels", "primary_channel",
               "peak_hour", "peak_time_of_day", "primary_day_of_week", "peak_month", "weekday_pattern",
               "public_holidays", "timeslots", "campaign_types", "profile_complete", "missing_fields",
               *INFERRED)
CHUNK_ROWS = 500


def parse_channel_pair(raw: str | None) -> tuple[int, int] | None:
    """`channel_pair=2,5` as two distinct channel ids, else 422."""
    if raw is None or not str(raw).strip():
        return None
    parts = [p.strip() for p in str(raw).split(",")]
    try:
        pair = tuple(int(p) for p in parts)
    except ValueError:
        pair = ()
    if len(pair) != 2 or pair[0] == pair[1] or min(pair) < 1:
        raise ValidationFailed.one(["query", "channel_pair"], "Give two different channel_type integers, e.g. 2,5.")
    return pair


def _rows(company_id: int, flt: ListenerFilter, pair: tuple[int, int] | None):
    selection = select(company_id, flt)
    snap, mask = selection.snap, selection.mask
    if pair is not None and len(snap):
        vocab = [int(v) for v in snap.vocab.get("channels", [])]
        for channel in pair:
            mask &= snap.cols["channels"][:, vocab.index(channel)] if channel in vocab else False
    return snap, mask


def export_records(company_id: int, flt: ListenerFilter, pair: tuple[int, int] | None = None) -> Iterator[dict]:
    """Every matching listener record, streamed from MongoDB in the collection's order."""
    snap, mask = _rows(company_id, flt, pair)
    wanted = snap.originators[mask] if len(snap) else []
    if not len(wanted):
        return
    for doc in iter_listeners(company_id, wanted, projection=LISTING_PROJECTION, exact=False):
        row = snap.row_of(doc["originator"])
        if row is not None and mask[row]:
            yield record(doc, snap, row)


def _flat(rec: dict) -> list:
    inferred = rec.get("inferred") or {}
    rfm = rec.get("rfm") or {}
    values = {**rec, "rfm_recency": rfm.get("recency"), "rfm_frequency": rfm.get("frequency"),
              "rfm_engagement": rfm.get("engagement")}
    values.update({k: (v or {}).get("value") for k, v in inferred.items()})
    out = []
    for column in CSV_COLUMNS:
        value = values.get(column)
        if isinstance(value, list):
            value = "|".join(map(str, value))
        elif isinstance(value, bool):
            value = "true" if value else "false"
        out.append("" if value is None else value)
    return out


def stream_csv(records: Iterator[dict]) -> Iterator[str]:
    """CSV text in chunks: the header, then CHUNK_ROWS records at a time (cells made safe by core.csvcells)."""
    out = CsvText()
    out.row(CSV_COLUMNS)
    for n, rec in enumerate(records, 1):
        out.row(_flat(rec))
        if n % CHUNK_ROWS == 0:
            yield out.take()
    yield out.take()


def stream_json(records: Iterator[dict]) -> Iterator[str]:
    """A JSON array in chunks."""
    yield "["
    chunk, first = [], True
    for rec in records:
        chunk.append(("" if first else ",") + "\n" + json.dumps(rec, ensure_ascii=False))
        first = False
        if len(chunk) == CHUNK_ROWS:
            yield "".join(chunk)
            chunk = []
    yield "".join(chunk) + "\n]\n"




@dataclass
class Export:
    """A streamed export: its chunks, media type and file name."""

    chunks: Iterator[str]
    mimetype: str
    filename: str


def export_stream(company_id: int, flt: ListenerFilter, pair: tuple[int, int] | None, fmt: str) -> Export:
    """Every matching listener as CSV or JSON chunks; an unknown company fails here, before anything is streamed."""
    records = export_records(company_id, flt, pair)
    first = next(records, None)
    chained = _chain(first, records)
    chunks = stream_csv(chained) if fmt == "csv" else stream_json(chained)
    return Export(chunks, "text/csv" if fmt == "csv" else "application/json", f"listeners-{company_id}.{fmt}")


def _chain(first, rest):
    if first is not None:
        yield first
        yield from rest
