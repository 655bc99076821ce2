"""Rows uploaded to one station: a file imports into that station only (tenancy of uploads).

A row without a company_id takes the station's; a row naming another company is a bad row, never written there. A row
whose company_id cannot be read is passed on as it is, so that the importer reports it with its usual reason.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from core.ingest.rows import company_of
from core.ingest.values import RowError


def station_rows(rows: Iterable[tuple[int, dict | str]], company_id: int) -> Iterator[tuple[int, dict | str]]:
    """The (line, row) pairs of a file uploaded to `company_id`, rows of another station turned into bad rows."""
    for line, row in rows:
        if isinstance(row, dict) and row.get("company_id") != company_id:  # the station's own rows pass as they are
            if row.get("company_id") in (None, ""):
                row["company_id"] = company_id
            elif _names_other(row, company_id):
                yield line, (f"company_id {row['company_id']} is another station: a file uploaded to station "
                             f"{company_id} imports only that station's rows")
                continue
        yield line, row


def _names_other(row: dict, company_id: int) -> bool:
    """True when the row's company_id is readable and is not the station's."""
    try:
        return company_of(row) != company_id
    except RowError:
        return False
