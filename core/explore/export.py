"""Export of every matching listener, streamed as CSV or JSON so that a million records never sit in memory."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from core.clock import station_today
from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.operations import select
from core.explore.records import LISTING_PROJECTION, joined_records
from core.listeners import finding
from core.listeners.declared import iter_listeners
from core.listeners.fields import FLAGS, INFERRED, LISTED
from core.stations.companies import get_company
from core.stations.defaults import channel_name, show_name
from core.stations.shows import show_titles
from core.text.cells import CsvText
from core.text.query import parse_int

CSV_COLUMNS = ("originator", *LISTED, "tags", *FLAGS, "segment", "rfm_recency", "rfm_frequency", "rfm_engagement",
               "first_interaction", "last_interaction",
               "interactions_total", "interactions_30d", "interactions_90d", "channels", "channel_names",
               "primary_channel", "primary_channel_name",
               "peak_hour", "peak_time_of_day", "primary_day_of_week", "peak_month", "weekday_pattern",
               "public_holidays", "timeslots", "show_names", "campaign_types", "profile_complete", "missing_fields",
               *INFERRED)
CHUNK_ROWS = 500


def parse_channel_pair(raw: str | None) -> tuple[int, int] | None:
    """`channel_pair=2,5` as two channel ids written in plain digits, else 422; `2,2` is the listeners active on
    channel 2 (the heat map's diagonal)."""
    if raw is None or not str(raw).strip():
        return None
    try:
        pair = tuple(parse_int(part) for part in str(raw).split(","))
    except ValueError:
        pair = ()
    if len(pair) != 2 or min(pair) < 1:
        raise ValidationFailed.one(["query", "channel_pair"], "Give two channel_type integers, e.g. 2,5.")
    return pair


ORDER_CHUNK = 2000


def export_records(company_id: int, flt: ListenerFilter, pair: tuple[int, int] | None = None) -> Iterator[dict]:
    """Every matching listener record in the order of the listeners' keys (a stable order: the same data exports the
    same file; and the index's own, so that listeners are read by index ranges), with channel and show names beside
    their ids and times with the station's offset."""
    selection = select(company_id, flt).on_both(pair)
    snap, company = selection.snap, selection.company
    order = finding.in_key_order(company_id, snap.originators) if len(snap) else np.zeros(0, dtype=np.int32)
    wanted = order[selection.mask[order]]
    names = {"channels": company.channel_names(), "shows": show_titles(company_id) if len(wanted) else {}}
    for start in range(0, len(wanted), ORDER_CHUNK):
        rows = wanted[start:start + ORDER_CHUNK]
        originators = snap.originators[rows].tolist()
        docs = {d["originator"]: d for d in iter_listeners(company_id, originators, projection=LISTING_PROJECTION,
                                                            exact=False)}
        found = [i for i, originator in enumerate(originators) if originator in docs]
        for rec in joined_records(snap, rows[found], [docs[originators[i]] for i in found], company.timezone):
            yield readable(rec, names)


def readable(rec: dict, names: dict) -> dict:
    """The record with the names of its channels and shows beside their ids (exports are read by people)."""
    channels, shows = names["channels"], names["shows"]
    primary = rec.get("primary_channel")
    rec["primary_channel_name"] = channel_name(channels, primary) if primary else None
    rec["channel_names"] = [channel_name(channels, c) for c in rec.get("channels") or []]
    rec["show_names"] = [show_name(shows, t) for t in rec.get("timeslots") or []]
    return rec


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
    """CSV text in chunks: the header, then CHUNK_ROWS records at a time (cells made safe by core.text.cells)."""
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
    return Export(chunks, "text/csv" if fmt == "csv" else "application/json",
                  export_filename(company_id, flt, pair, fmt))


def export_filename(company_id: int, flt: ListenerFilter, pair: tuple[int, int] | None, fmt: str) -> str:
    """`kaya-fm_2026-11-22_super_fan.csv`: the station, its local date and the filters, so that a folder of exports
    says what each file holds. Segments are named alone, other filters as name-value; no filter is "all"."""
    company = get_company(company_id)
    parts = [value if name == "segment" else f"{name}-{value}" for name, value in flt.to_params()]
    parts += [f"channels-{pair[0]}-{pair[1]}"] if pair else []
    what = _slug("_".join(parts), keep="_")[:100].strip("-_") or "all"
    return f"{_slug(company.display_name)}_{station_today(company.timezone)}_{what}.{fmt}"


def _slug(text: str, keep: str = "") -> str:
    """Lower-case letters, digits and hyphens (and the characters of `keep`), safe in any file system."""
    return re.sub(rf"[^a-z0-9{keep}]+", "-", text.lower()).strip("-")


def _chain(first, rest):
    if first is not None:
        yield first
        yield from rest
