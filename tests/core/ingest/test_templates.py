"""The templates linked in the README (examples/templates) are the ones the imports page serves, built from the
importer's own fields (core.ingest.templates); each imports as it is (tests/core/ingest/test_mapped_imports.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from core.ingest.columns import STORED
from core.ingest.files import read_table
from core.ingest.importer import KINDS
from core.ingest.templates import template_csv, template_xlsx

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
