"""Templates a station fills in: per kind, a CSV and an Excel workbook whose header is the fields the importer reads
(core.ingest.columns) and whose one row is an example of each, so a template imports as it is. `company_id` is left
out: an upload takes its station's (add the column for the command line, which imports any station)."""
from __future__ import annotations

import csv
import io
from datetime import datetime

import xlsxwriter

from core.ingest.columns import KIND_COLUMNS, STORED

FIXED_TIME = datetime(2026, 1, 1)  # the workbook's own dates, so that a template is the same bytes every time


def template_columns(kind: str) -> list:
    """The template's columns: the fields the importer stores for the kind, company_id aside."""
    by_name = {column.name: column for column in KIND_COLUMNS[kind]}
    return [by_name[name] for name in STORED[kind] if name != "company_id"]


def template_csv(kind: str) -> bytes:
    """The CSV template: the header, then the example row (UTF-8, comma-separated)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    columns = template_columns(kind)
    writer.writerow([column.name for column in columns])
    writer.writerow([column.example for column in columns])
    return out.getvalue().encode()


def template_xlsx(kind: str) -> bytes:
    """The Excel template: a sheet named after the kind with the header and the example row (every cell text, so
    that Excel keeps a mobile number's 0), and a sheet that says what each field holds."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    book.set_properties({"created": FIXED_TIME})
    bold, text = book.add_format({"bold": True}), book.add_format({"num_format": "@"})
    sheet, notes = book.add_worksheet(kind.capitalize()), book.add_worksheet("About the fields")
    for index, column in enumerate(template_columns(kind)):
        sheet.write_string(0, index, column.name, bold)
        sheet.write_string(1, index, column.example, text)
        sheet.set_column(index, index, max(14, len(column.example) + 2), text)
    notes.write_row(0, 0, ["field", "required", "example", "what it holds"], bold)
    for row, column in enumerate(template_columns(kind), 1):
        notes.write_row(row, 0, [column.name, "yes" if column.required else "no", column.example, column.note])
    notes.set_column(0, 0, 20)
    notes.set_column(3, 3, 70)
    book.close()
    return out.getvalue()
