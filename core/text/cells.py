"""Every CSV the service writes goes through here, so that no cell can run as a spreadsheet formula.

OWASP CSV injection: a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return
before one) as a formula, and listeners write their own names. Such a cell is written with a leading `'`, which
spreadsheets show as text. Plain numbers (`-5`, `3.2`) and E.164 numbers (`+27821234567`) stay readable as they are.
"""
from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?|\+\d{6,15}")


def safe_cell(value):
    """The value as a spreadsheet should show it: text that would run as a formula gets a leading quote."""
    if isinstance(value, str) and value.startswith(TRIGGERS) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


class CsvText:
    """CSV rows written to text through `safe_cell`; `take` hands out what was written so far, for streaming."""

    def __init__(self):
        self._buffer = io.StringIO()
        self._writer = csv.writer(self._buffer)

    def row(self, cells: Iterable) -> None:
        """Write one row, every cell made safe."""
        self._writer.writerow([safe_cell(cell) for cell in cells])

    def take(self) -> str:
        """The text written since the last take (and forget it, so memory stays bounded)."""
        text = self._buffer.getvalue()
        self._buffer.seek(0)
        self._buffer.truncate()
        return text
