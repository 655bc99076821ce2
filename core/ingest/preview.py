"""The mapping step of an upload: the file's start read (never the whole file), its columns mapped (as given, as the
station last confirmed for these headers, or as proposed), and its first rows shown as the import will store them,
each warning and bad row on the cell it is about.

The rows go through the importer's own parsers (core.ingest.kinds), so the preview cannot say one thing and the
import do another. `station_mapping` is also how an upload's import reads its file, so both read it alike.
"""
from __future__ import annotations

import itertools
from datetime import datetime
from functools import partial

from core.errors import ValidationFailed
from core.ingest.columns import columns_of, field_of, named_field, required_missing
from core.ingest.dates import date_order
from core.ingest.files import Table, read_table
from core.ingest.kinds import row_parser, stored_fields
from core.ingest.mapped import Mapping, mapping_from
from core.ingest.proposal import mapping_of, propose, values_of
from core.ingest.readings import text
from core.ingest.remembered import recall
from core.ingest.station import station_rows
from core.ingest.tally import Companies
from core.ingest.values import FieldWarnings, RowError
from core.listeners import snapshot
from core.stations import defaults
from core.stations.channels import ChannelNames
from core.stations.companies import get_company
from core.stations.shows import show_titles

PREVIEW_ROWS = 20
SAMPLE_ROWS = 200  # rows read for the proposal and the order of dates


def read_start(path, sheet: str | None = None) -> tuple[Table, list[tuple[int, dict | str]]]:
    """The file's table and its first SAMPLE_ROWS rows (the rest is never read); ValueError when it cannot be read."""
    table = read_table(path, sheet)
    return table, list(itertools.islice(table.rows, SAMPLE_ROWS))


def station_mapping(kind: str, company_id: int, given: dict, columns: list[str], order: str) -> Mapping:
    """A Mapping of `given` ({column: field or None}) for one station: its country reads phone numbers, its channel
    names and show titles read channel_type and timeslot_id. ValidationFailed for a column or field it lacks."""
    company = get_company(company_id)
    channels = ChannelNames(company.channel_names())
    shows = {title.lower(): number for number, title in show_titles(company_id).items()} \
        if kind == "interactions" else {}
    return mapping_from(kind, given, columns, date_order=order, country=company.country or defaults.COUNTRY,
                        channels=channels, shows=shows)


def file_date_order(sample: list[tuple[int, dict | str]], company_id: int) -> tuple[str, str]:
    """(day_first or month_first, "values" or "country") from every cell of the sample."""
    country = get_company(company_id).country or defaults.COUNTRY
    return date_order((cell for row in values_of(sample) for cell in row.values()), country)


def preview_file(kind: str, path, company_id: int, given: dict | None = None, sheet: str | None = None,
                 order: str | None = None, now: datetime | None = None) -> dict:
    """What the mapping step shows: how the file is written, its columns, their mapping and where it came from, the
    order of its dates, the required fields no column fills, and its first rows as stored. A file that cannot be
    read, or a mapping naming a column or field that is not there, is said in `problems` (the rows are then not
    shown)."""
    try:
        table, sample = read_start(path, sheet)
    except ValueError as exc:
        return {"problems": [str(exc).replace(str(path), "the file")], "columns": [], "mapping": {}, "rows": []}
    found_order, order_source = file_date_order(sample, company_id)
    order = order or found_order
    proposal = _proposal(kind, table.columns, sample, company_id, order)
    chosen, source, remembered_at = _chosen(kind, company_id, table.columns, given, proposal)
    answer = {"format": table.format, "written": table.written, "sheets": table.sheets, "sheet": table.sheet,
              "sheets_with_data": table.filled, "nothing_to_import": _nothing(table, sample),
              "columns": table.columns, "mapping": chosen, "mapping_source": source,
              "remembered_at": remembered_at.isoformat() if remembered_at else None,
              "proposed": {column: {"field": p.field, "why": p.why} for column, p in proposal.items()},
              "date_order": order, "date_order_source": order_source if order == found_order else "given",
              "problems": [], "missing": [], "rows": []}
    try:
        mapping = station_mapping(kind, company_id, chosen, table.columns, order)
    except ValidationFailed as error:
        answer["problems"] = [f"{item['loc'][-1]}: {item['msg']}" for item in error.items]
        return answer
    answer["missing"] = required_missing(kind, mapping.fields)
    answer["rows"] = stored_rows(kind, mapping, sample[:PREVIEW_ROWS], company_id, now)
    return answer


def _nothing(table: Table, sample: list) -> str | None:
    """Why there is nothing to import when the file (or the sheet read) holds no rows; None when it holds some."""
    if sample:
        return None
    where = f"The sheet {table.sheet!r}" if table.sheet else "The file"
    other = [name for name in table.filled if name != table.sheet]
    return (f"{where} holds no rows{' under its header' if table.columns else ''}: there is nothing to import."
            + (f" Data is on the sheet {other[0]!r}." if other else ""))


def _proposal(kind: str, columns: list[str], sample: list, company_id: int, order: str) -> dict:
    """The service's own proposal for the file's columns."""
    company = get_company(company_id)
    channels = ChannelNames(company.channel_names())
    tags = [str(tag) for tag in snapshot.current(company_id).vocab.get("tags", [])] if kind == "profiles" else []
    return propose(kind, columns, values_of(sample), company.country or defaults.COUNTRY, channels, order, tags)


def _chosen(kind: str, company_id: int, columns: list[str], given: dict | None, proposal: dict):
    """(mapping, "given", "remembered" or "proposed", when it was remembered)."""
    if given is not None:
        return dict(given), "given", None
    remembered = recall(company_id, kind, columns)
    if remembered:
        return remembered[0], "remembered", remembered[2]
    return mapping_of(proposal), "proposed", None


def stored_rows(kind: str, mapping: Mapping, sample: list, company_id: int, now: datetime | None = None) -> list:
    """Each row as the import would store it: its line, its cells as written, the values stored by field, and its
    warnings and bad-row reason, each with the columns it is about."""
    companies = Companies(now)
    parse = row_parser(kind, companies)
    columns_for = _columns_for(mapping)
    shown = []
    for (line, cells), (_, row) in zip(sample, station_rows(mapping.rows(sample), company_id)):
        entry = {"line": line, "cells": _written(cells), "values": {}, "warnings": [], "bad_row": None}
        noted = partial(_noted, columns_for=columns_for, cells=entry["cells"])
        if not isinstance(row, dict):
            entry["bad_row"] = noted(str(row), named_field(row))
        else:
            warnings = FieldWarnings()
            try:
                entry["values"] = stored_fields(kind, parse(row, warnings), companies)
            except RowError as exc:
                entry["bad_row"] = noted(exc.reason, named_field(exc.reason))
            entry["warnings"] = [noted(w.reason, w.field) for w in warnings]
        shown.append(entry)
    return shown


def _columns_for(mapping: Mapping) -> dict[str, list[str]]:
    """{field: the columns mapped to it}; the originator taken from the mobile number is about that column."""
    found: dict[str, list[str]] = {}
    for column, name in mapping.pairs:
        if name:
            found.setdefault(field_of(name), []).append(column)
    if "originator" not in found and "mobile_number" in found:
        found["originator"] = found["mobile_number"]
    return found


def _noted(reason: str, field: str | None, columns_for: dict, cells: dict) -> dict:
    """A warning or bad-row reason with its field, the file's columns it is about and their cells as written (the
    preview shows the row anyway; the report, which is kept, never quotes a warning's value)."""
    columns = columns_for.get(field or "", [])
    return {"reason": reason, "field": field, "columns": columns,
            "value": " ".join(cells[column] for column in columns if cells.get(column))}


def _written(cells) -> dict:
    """The row's cells as text (a line that could not be parsed has none)."""
    return {column: text(value) for column, value in cells.items()} if isinstance(cells, dict) else {}


def field_choices(kind: str) -> list[str]:
    """The fields a column of this kind of file may go to, in the template's order."""
    return list(columns_of(kind))
