"""Import files as rows: JSON Lines, CSV and Excel (.xlsx), each row numbered by the line (or sheet row) it starts on
(ingest.md, file conventions).

`read_table` gives a file's columns and its rows cell by cell, as a mapping reads them (core.ingest.mapped);
`read_rows` gives rows whose columns are the field names, as an import without a mapping reads them. Nothing here
validates a field (core.ingest.rows does): a line that cannot be parsed at all is yielded as (line number, reason),
so that it becomes a bad row of the report rather than the end of the import.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path

from core.ingest.delimited import Dialect, csv_records
from core.ingest.workbook import read_workbook
from core.text import strict_json

SUFFIXES = (".csv", ".jsonl", ".xlsx")
LIST_COLUMNS = frozenset({"days", "tags"})
BOOL_COLUMNS = frozenset({"permission", "opt_in"})
JSON_COLUMNS_FROM = 100  # JSON Lines rows whose keys make the columns a mapping shows


@dataclass
class Table:
    """A file read as a table: its columns (unique, in file order), its rows as {column: cell} without the empty
    cells, and how it is written (`written`, in words; `sheets` of a workbook, the `sheet` read and the sheets
    `filled` with data)."""

    format: str
    columns: list[str]
    rows: Iterator[tuple[int, dict | str]]
    written: str = ""
    sheets: list[str] = field(default_factory=list)
    sheet: str | None = None
    filled: list[str] = field(default_factory=list)


def read_table(path, sheet: str | None = None) -> Table:
    """The file's columns and rows; ValueError when it cannot be read at all (or has no such sheet)."""
    path = _checked(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        dialect = Dialect(path)
        if sheet:
            raise ValueError(f"{path.name} is a CSV file: it has no sheets to choose from")
        return _csv_table(path, dialect)
    if suffix == ".xlsx":
        return _workbook_table(path, sheet)
    if sheet:
        raise ValueError(f"{path.name} is a JSON Lines file: it has no sheets to choose from")
    return _jsonl_table(path)


def read_rows(path, sheet: str | None = None) -> Iterator[tuple[int, dict | str]]:
    """(line number, row) for each row, its columns taken as field names (lists split on `|`, `true`/`false` as
    booleans); (line number, reason) for one that cannot be parsed."""
    table = read_table(path, sheet)
    return table.rows if table.format == "jsonl" else _as_fields(table.rows)


def _checked(path) -> Path:
    """The path of a readable file of a known type; ValueError otherwise, before any row is read."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path.name}: unknown file type {suffix or '(none)'}; expected .csv, .xlsx or .jsonl")
    try:
        open(path, "rb").close()  # fail now, not at the first row; the generators open their own handle
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return path


def _jsonl_table(path: Path) -> Table:
    """JSON Lines: the columns are the keys of the first rows."""
    rows = _jsonl_rows(path)
    first = list(itertools.islice(rows, JSON_COLUMNS_FROM))
    columns = list(dict.fromkeys(name for _, row in first if isinstance(row, dict) for name in row))
    return Table("jsonl", columns, itertools.chain(first, rows), "JSON Lines")


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict | str]]:
    """Lines are read one by one by the strict reader (core.text.strict_json), so that a line of bad bytes, or one it
    refuses (a key given twice, an integer too long), is one bad row naming why, not an unreadable file."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                row = strict_json.loads(raw)
            except strict_json.MalformedJson as exc:
                yield number, f"not valid JSON ({exc.msg})"
                continue
            except strict_json.RefusedJson as exc:
                where = f" at {strict_json.place(exc.loc)}" if exc.loc else ""
                yield number, f"JSON refused{where}: {exc.msg}"
                continue
            yield (number, row) if isinstance(row, dict) else (number, "not a JSON object")


def _csv_table(path: Path, dialect: Dialect) -> Table:
    """CSV: the header is line 1; rows are numbered by the line they start on (a quoted cell may span lines)."""
    records = csv_records(path, dialect)
    _, _, header = next(records, (1, 1, []))
    columns = unique_columns(header)
    return Table("csv", columns, _cell_rows(columns, records), dialect.described)


def _workbook_table(path: Path, sheet: str | None) -> Table:
    """A sheet of a workbook: the header is its first row that is not empty."""
    names, chosen, records, filled = read_workbook(path, sheet)
    header = []
    for _, cells in records:
        if any(cell_text(cell) for cell in cells):
            header = [cell_text(cell) for cell in cells]
            break
    columns = unique_columns(header)
    rows = _cell_rows(columns, ((number, number, cells) for number, cells in records))
    return Table("xlsx", columns, rows, f"Excel workbook, sheet {chosen!r}", names, chosen, filled)


def _cell_rows(columns: list[str], records) -> Iterator[tuple[int, dict | str]]:
    """{column: cell} of each record that is not blank, without its empty cells; a record with more cells than the
    header has columns is a bad row."""
    width = len(columns)
    for start, _, cells in records:
        row = {}
        for name, cell in zip(columns, cells):
            if isinstance(cell, str):
                cell = cell.strip()
            if cell is not None and cell != "":
                row[name] = cell
        if len(cells) > width and any(cell_text(cell) for cell in cells[width:]):
            yield start, f"{len(cells)} cells but the header has {width} columns"
        elif row:
            yield start, row


def unique_columns(header: list) -> list[str]:
    """The header's names, stripped, each once: a blank one is "Column N", a repeated one "Name (2)"."""
    seen, columns = set(), []
    for index, cell in enumerate(header, 1):
        name = cell_text(cell) or f"Column {index}"
        unique, copy = name, 1
        while unique in seen:
            copy += 1
            unique = f"{name} ({copy})"
        seen.add(unique)
        columns.append(unique)
    return columns


def cell_text(cell) -> str:
    """A cell as a CSV would have written it: whole numbers without `.0`, dates and times in ISO 8601."""
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, float) and cell.is_integer():
        return str(int(cell))
    if isinstance(cell, (datetime, date, time)):
        return cell.isoformat()
    return str(cell).strip()


def _as_fields(rows) -> Iterator[tuple[int, dict | str]]:
    """Rows whose columns are field names: cells as text, lists split on `|`, `true`/`false` as booleans."""
    for line, row in rows:
        if isinstance(row, dict):
            row = _fields_row(row)
        yield line, row


def _fields_row(cells: dict) -> dict:
    """An empty cell is an absent field; lists are split on `|`; `true`/`false` are booleans."""
    row = {}
    for name, cell in cells.items():
        value = cell if isinstance(cell, str) else cell_text(cell)
        if name in LIST_COLUMNS:
            value = [part.strip() for part in value.split("|") if part.strip()]
        elif name in BOOL_COLUMNS:
            value = {"true": True, "false": False}.get(value.lower(), value)
        row[name] = value
    return row
