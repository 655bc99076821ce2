"""The templates linked in docs/imports.md (examples/templates) are the ones the imports page serves, built from the
importer's own fields (core.ingest.templates); each imports as it is, read in memory as an import reads it."""
from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.ingest.columns import STORED
from core.ingest.dates import date_order
from core.ingest.files import read_rows, read_table
from core.ingest.importer import KINDS
from core.ingest.preview import read_start
from core.ingest.proposal import mapping_of, propose, values_of
from core.ingest.station import station_rows
from core.ingest.templates import template_csv, template_xlsx
from core.stations import defaults
from core.stations.channels import ChannelNames
from tests.memory import StationsInMemory, rows_read

FOLDER = Path(__file__).resolve().parents[3] / "examples" / "templates"
REBUILD = ("rebuild with: .venv/bin/python -c \"from core.ingest.templates import *; ...\" writing template_csv(kind) "
           "and template_xlsx(kind) to examples/templates/<kind>.csv and .xlsx")


@pytest.mark.parametrize("kind", KINDS)
def test_the_csv_template_in_the_repository_is_the_one_served(kind):
    assert (FOLDER / f"{kind}.csv").read_bytes() == template_csv(kind), REBUILD


@pytest.mark.parametrize("kind", KINDS)
def test_the_excel_template_in_the_repository_holds_what_the_served_one_holds(kind, tmp_path):
    served = tmp_path / f"{kind}.xlsx"
    served.write_bytes(template_xlsx(kind))
    kept, built = read_table(FOLDER / f"{kind}.xlsx"), read_table(served)
    assert (kept.sheets, kept.columns, list(kept.rows)) == (built.sheets, built.columns, list(built.rows)), REBUILD


@pytest.mark.parametrize("kind", KINDS)
def test_a_template_has_every_field_the_importer_stores_but_the_station(kind):
    header = template_csv(kind).decode().splitlines()[0].split(",")
    assert header == [name for name in STORED[kind] if name != "company_id"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("suffix, build", [(".csv", template_csv), (".xlsx", template_xlsx)])
def test_every_template_imports_as_it_is_without_a_bad_row_or_a_warning(tmp_path, kind, suffix, build):
    path = tmp_path / f"{kind}{suffix}"
    path.write_bytes(build(kind))
    breakfast = {"company_id": 7, "timeslot_id": 12, "days": [1, 2, 3, 4, 5, 6, 7], "start": "06:00", "end": "09:00"}
    stations = StationsInMemory(shows=[breakfast], now=datetime(2026, 11, 25, 12, tzinfo=UTC))
    kept, tally = rows_read(kind, station_rows(read_rows(path), 7), stations)
    assert (tally.rows, len(kept), tally.error_count, tally.warning_count) == (1, 1, 0, 0)
    table, sample = read_start(path)
    values = values_of(sample)
    order, _ = date_order((cell for row in values for cell in row.values()), defaults.COUNTRY)
    proposal = propose(kind, table.columns, values, defaults.COUNTRY, ChannelNames(defaults.CHANNELS), order, [])
    assert all(column == field for column, field in mapping_of(proposal).items())
