"""Import files as rows: JSON Lines and CSV, each row numbered by the line it starts on (ingest.md, file conventions).

Nothing here validates a row's fields (core.ingest.rows does): a line that cannot be parsed at all is yielded as
(line number, reason), so that it becomes a bad row of the report rather than the end of the import.
"""
from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

LIST_COLUMNS = frozenset({"days", "tags"})
BOOL_COLUMNS = frozenset({"permission", "opt_in"})


def read_rows(path) -> Iterator[tuple[int, dict | str]]:
    """(line number, row) for each row of a .jsonl or .csv file; (line number, reason) for one that cannot be parsed."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".csv"):
        raise ValueError(f"{path.name}: unknown file type {suffix or '(none)'}; expected .jsonl or .csv")
    try:
        open(path, "rb").close()  # fail now, not at the first row; the generators open their own handle
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return _jsonl_rows(path) if suffix == ".jsonl" else _csv_rows(path)


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict | str]]:
    """Lines are decoded one by one, so one line of bad bytes is one bad row, not an unreadable file."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
            except UnicodeDecodeError:
                yield number, "not UTF-8 text"
                continue
            except (ValueError, RecursionError) as exc:
                yield number, f"not valid JSON ({getattr(exc, 'msg', 'nested too deeply')})"
                continue
            yield (number, row) if isinstance(row, dict) else (number, "not a JSON object")


def _csv_rows(path: Path) -> Iterator[tuple[int, dict | str]]:
    """Rows numbered by the file line they start on (a quoted cell may span lines); the header is line 1."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        try:
            reader = csv.reader(handle)
            names = [name.strip() for name in next(reader, [])]
            end = reader.line_num
            for cells in reader:
                start, end = end + 1, reader.line_num
                if not any(cell.strip() for cell in cells):
                    continue
                if len(cells) > len(names):
                    yield start, f"{len(cells)} cells but the header has {len(names)} columns"
                    continue
                yield start, _csv_row(names, cells)
        except UnicodeDecodeError as exc:
            raise ValueError(f"cannot read {path}: not UTF-8 text") from exc
        except csv.Error as exc:
            raise ValueError(f"cannot read {path}: {exc}") from exc


def _csv_row(names: list[str], cells: list[str]) -> dict:
    """An empty cell is an absent field; lists are split on `|`; `true`/`false` are booleans."""
    row = {}
    for name, cell in zip(names, cells):
        value = cell.strip()
        if not name or not value:
            continue
        if name in LIST_COLUMNS:
            value = [part.strip() for part in value.split("|") if part.strip()]
        elif name in BOOL_COLUMNS:
            value = {"true": True, "false": False}.get(value.lower(), value)
        row[name] = value
    return row
