"""Excel workbooks (.xlsx) as stations keep their lists: the first sheet or a chosen one, read with python-calamine.

Cells keep their types (numbers, dates and times, text); core.ingest.files turns them into what a CSV cell would
have said, and a mapping (core.ingest.mapped) reads a date cell as the date it is. Rows are numbered as Excel numbers
them, so a bad row's line is the row a producer looks up in the sheet.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from python_calamine import CalamineError, CalamineWorkbook


def sheet_names(path: Path) -> list[str]:
    """The workbook's worksheets in order; ValueError when the file is no workbook."""
    with _opened(path) as book:
        return list(book.sheet_names)


def sheet_records(path: Path, sheet: str | None = None) -> tuple[str, Iterator[tuple[int, list]]]:
    """(the sheet read, (row number, cells) of each of its rows): the first sheet unless one is named."""
    book = _opened(path)
    names = list(book.sheet_names)
    if not names:
        book.close()
        raise ValueError(f"cannot read {path}: the workbook has no sheets")
    chosen = sheet if sheet is not None else names[0]
    if chosen not in names:
        book.close()
        raise ValueError(f"cannot read {path}: no sheet {chosen!r}; its sheets are {', '.join(names)}")
    return chosen, _rows(book, chosen)


def _rows(book: CalamineWorkbook, name: str) -> Iterator[tuple[int, list]]:
    """The sheet's rows with their Excel numbers (a sheet whose data starts lower keeps its own numbers)."""
    try:
        sheet = book.get_sheet_by_name(name)
        first = (sheet.start or (0, 0))[0] + 1
        yield from enumerate(sheet.iter_rows(), first)
    except CalamineError as exc:
        raise ValueError(f"cannot read the sheet {name!r}: {exc}") from exc
    finally:
        book.close()


def _opened(path: Path) -> CalamineWorkbook:
    """The open workbook, or ValueError saying the file is none."""
    try:
        return CalamineWorkbook.from_path(str(path))
    except (CalamineError, OSError, ValueError) as exc:
        raise ValueError(f"cannot read {path}: not an Excel workbook (.xlsx)") from exc
