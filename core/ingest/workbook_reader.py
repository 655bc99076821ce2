"""The process that reads a workbook (`python -m core.ingest.workbook_reader FILE [SHEET]`), run by
core.ingest.workbook: it limits its own memory and processor time first, checks the archive's bounds
(core.ingest.workbook_bounds), reads one sheet with python-calamine and writes it to standard output as JSON lines:
`{"sheets": [...], "sheet": name, "filled": [the sheets that hold data]}`, then lines of up to BATCH rows
`[[row number, [cells]], ...]`, or one `{"refused": sentence}` or `{"unreadable": sentence}`. A cell that JSON has
no type for is written as `{"date": iso}`, `{"datetime": iso}`, `{"time": iso}` or `{"duration": seconds}`.

A workbook that takes more memory than the limit ends this process (the reader cannot give memory back once it asked
for too much), and one that takes more time is ended by the kernel: either way the service's own process only reads
that this one died.
"""
from __future__ import annotations

import itertools
import json
import resource
import sys
from datetime import date, datetime, time, timedelta
from pathlib import Path

from core.ingest.workbook_bounds import (
    READER_CPU_S,
    READER_MEMORY,
    WorkbookRefused,
    check_archive,
    check_span,
    over_memory,
)

BATCH = 1_000
"""Rows a line carries: one encoding per thousand rows rather than per row."""
REFUSED, UNREADABLE = 3, 4
"""Exit statuses that go with a `refused` or an `unreadable` line."""


def main(argv: list[str]) -> int:
    """Check and read the workbook named by argv; the exit status."""
    resource.setrlimit(resource.RLIMIT_AS, (READER_MEMORY, READER_MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (READER_CPU_S, READER_CPU_S + 5))
    path, sheet = Path(argv[0]), (argv[1] if len(argv) > 1 else None)
    out = sys.stdout
    try:
        check_archive(path)
        _read(path, sheet, out)
    except MemoryError:
        return _said(out, "refused", over_memory().items[0]["msg"], REFUSED)
    except WorkbookRefused as refused:
        return _said(out, "refused", refused.items[0]["msg"], REFUSED)
    except ValueError as unreadable:
        return _said(out, "unreadable", str(unreadable), UNREADABLE)
    out.flush()
    return 0


def _read(path: Path, sheet: str | None, out) -> None:
    """The sheet's names, then its rows with their Excel numbers; ValueError when the workbook cannot be read."""
    from python_calamine import CalamineError, CalamineWorkbook  # after the limits are set: its memory counts

    try:
        book = CalamineWorkbook.from_path(str(path))
        names = list(book.sheet_names)
        filled = _filled(book, names) if len(names) > 1 else names
        chosen = sheet if sheet is not None else ([*filled, *names] or [None])[0]
        if chosen not in names:
            raise ValueError(f"no sheet {chosen!r}; its sheets are {', '.join(names)}" if names
                             else "the workbook has no sheets")
        grid = book.get_sheet_by_name(chosen)
        check_span(grid.height, grid.width)
        out.write(json.dumps({"sheets": names, "sheet": chosen, "filled": filled}) + "\n")
        rows = enumerate(grid.iter_rows(), (grid.start or (0, 0))[0] + 1)
        while batch := list(itertools.islice(rows, BATCH)):
            out.write(json.dumps(batch, ensure_ascii=False, default=_typed) + "\n")
    except CalamineError as exc:
        raise ValueError(f"not an Excel workbook (.xlsx) that can be read: {type(exc).__name__}") from None


def _filled(book, names: list[str]) -> list[str]:
    """The sheets that hold data (a header and at least one row), in the workbook's order: a workbook whose first
    sheet is empty, or a cover page, opens on the sheet its data is on. A sheet past a bound holds none here (it is
    refused when chosen)."""
    filled = []
    for name in names:
        grid = book.get_sheet_by_name(name)
        try:
            check_span(grid.height, grid.width)
        except WorkbookRefused:
            continue
        rows = (row for row in grid.iter_rows() if any(cell not in ("", None) for cell in row))
        if len(list(itertools.islice(rows, 2))) == 2:
            filled.append(name)
    return filled


def _typed(value):
    """A cell JSON has no type for, as a one-key object naming its type."""
    if isinstance(value, datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, date):
        return {"date": value.isoformat()}
    if isinstance(value, time):
        return {"time": value.isoformat()}
    if isinstance(value, timedelta):
        return {"duration": value.total_seconds()}
    return str(value)


def _said(out, kind: str, sentence: str, status: int) -> int:
    out.write(json.dumps({kind: sentence}) + "\n")
    out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
