"""Each kind's row check, in one place for the importer and the preview: a row goes through the same parser whether
it is imported, dry-run or shown in the mapping's preview, so the preview shows what the import will store."""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from core.ingest.rows import channel_row, company_of, profile_row, show_row
from core.ingest.tally import Companies
from core.ingest.values import FieldWarnings

Parser = Callable[[dict, FieldWarnings], tuple]


def row_parser(kind: str, companies: Companies) -> Parser:
    """The parser of one kind's rows: (row, warnings) -> the parsed values, or RowError for a bad row."""
    if kind == "channels":
        return lambda row, _warnings: channel_row(row)
    if kind == "shows":
        return lambda row, _warnings: show_row(row)
    if kind == "profiles":
        return lambda row, warnings: profile_row(row, companies.country(company_of(row)), warnings)

    def interaction(row: dict, warnings: FieldWarnings) -> tuple:
        company_id = company_of(row)
        return company_id, companies.station_time(company_id).interaction(row, company_id, warnings)

    return interaction


def stored_fields(kind: str, parsed: tuple, companies: Companies) -> dict:
    """The fields a parsed row stores, by name, as a person reads them (an interaction's time in the station's
    zone, its show, and its own id when it has one)."""
    if kind == "channels":
        return dict(zip(("company_id", "channel_type", "name"), parsed))
    if kind in ("shows", "profiles"):
        company_id, key, fields = parsed
        return {"company_id": company_id, ("timeslot_id" if kind == "shows" else "originator"): key, **fields}
    company_id, event = parsed
    zone = companies.station_time(company_id).zone
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=event.millis)
    stored = {"company_id": company_id, "originator": event.originator,
              "timestamp": moment.astimezone(zone).isoformat(), "channel_type": event.channel,
              "campaign_type": event.campaign, "timeslot_id": event.timeslot, "message": event.message,
              "interaction_id": event.key[3:] if event.key.startswith("id:") else None}
    return {name: value for name, value in stored.items() if value is not None}
