"""Excel workbooks (.xlsx) as stations keep their lists: the first sheet that holds data, or a chosen one, read with
python-calamine in a process of its own, within bounds (core.ingest.workbook_bounds), so that no workbook can take
the service's memory or time: a workbook past a bound is refused with a sentence naming it, and one whose reading dies
is refused as well.

Cells keep their types (numbers, dates and times, text); core.ingest.files turns them into what a CSV cell would
have said, and a mapping (core.ingest.mapped) reads a date cell as the date it is. Rows are numbered as Excel numbers
them, so a bad row's line is the row a producer looks up in the sheet.
"""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import weakref
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from pathlib import Path

from core.ingest.workbook_bounds import WorkbookRefused, over_memory, over_time

READER = [sys.executable, "-m", "core.ingest.workbook_reader"]
TYPED = {"date": date.fromisoformat, "datetime": datetime.fromisoformat, "time": time.fromisoformat,
         "duration": lambda seconds: timedelta(seconds=seconds)}


def read_workbook(path: Path, sheet: str | None = None) -> tuple[list[str], str, Iterator[tuple[int, list]], list[str]]:
    """(its sheets, the sheet read, (row number, cells) of each of its rows, the sheets that hold data): the first
    sheet that holds data (else the first) unless one is named. WorkbookRefused past a bound, ValueError when the file
    is no workbook or has no such sheet."""
    reader = _started(path, sheet)
    lines = _lines(reader)
    first = next(lines, None)
    if not isinstance(first, dict) or "sheets" not in first:
        _ended(reader, [first], path)
        raise ValueError(f"cannot read {path}: its reader said nothing of it")
    rows = _rows(reader, lines, path)
    weakref.finalize(rows, _stopped, reader)  # reaped even when its rows are never asked for
    return first["sheets"], first["sheet"], rows, first.get("filled", first["sheets"])


def _started(path: Path, sheet: str | None = None) -> subprocess.Popen:
    command = [*READER, str(Path(path).resolve()), *([sheet] if sheet is not None else [])]
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=Path(__file__).resolve().parents[2])


def _lines(reader: subprocess.Popen) -> Iterator:
    """Each line the reader writes, as JSON with its typed cells."""
    for line in reader.stdout:
        yield json.loads(line, object_hook=_typed)


def _rows(reader: subprocess.Popen, lines: Iterator, path: Path) -> Iterator[tuple[int, list]]:
    """The rows as the reader writes them; the reader is stopped when they are no longer wanted."""
    try:
        for line in lines:
            if isinstance(line, dict):
                _ended(reader, [line], path)
            yield from (tuple(row) for row in line)
        _ended(reader, [], path)
    finally:
        _stopped(reader)


def _ended(reader: subprocess.Popen, said: list, path: Path) -> None:
    """Nothing when the reader ended well; what it refused or could not read (ValueError: `cannot read <path>: ...`,
    as every unreadable file is said), or why it died, raised."""
    status = _stopped(reader, kill=False)
    for line in said:
        if isinstance(line, dict) and "refused" in line:
            raise WorkbookRefused.because(line["refused"])
        if isinstance(line, dict) and "unreadable" in line:
            raise ValueError(f"cannot read {path}: {line['unreadable']}")
    if status in (-signal.SIGXCPU, -signal.SIGKILL):
        raise over_time()
    if status == -signal.SIGABRT:  # the reader's allocation failed past its memory limit
        raise over_memory()
    if status != 0:
        raise ValueError(f"cannot read {path}: its reader stopped with status {status}")


def _stopped(reader: subprocess.Popen, kill: bool = True) -> int:
    """The reader ended (killed, with `kill`, if it is still reading) and reaped; its exit status."""
    if kill and reader.poll() is None:
        reader.kill()
    reader.stdout.close()
    return reader.wait()


def _typed(value: dict):
    """A cell the reader wrote as {"type": text} as the value it is."""
    if len(value) == 1:
        (kind, text), = value.items()
        if kind in TYPED:
            return TYPED[kind](text)
    return value
