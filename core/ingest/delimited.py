"""CSV files as stations save them: UTF-8 with or without a byte-order mark, or Windows-1252 (Excel's "CSV" on a
Windows machine), cells separated by `,`, `;` (Excel where the decimal mark is a comma) or a tab.

The encoding and the separator are read from the file's start. A file that starts as UTF-8 but has a Windows-1252
byte further on (a file pasted together from two exports) is read alike: each byte that is not UTF-8 is read as
Windows-1252, so one stray `é` does not cost the whole import.
"""
from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterator
from pathlib import Path

SAMPLE = 1 << 16
SEPARATORS = (",", ";", "\t")
SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
FALLBACK = "ingest-windows-1252"
_WINDOWS_1252 = [bytes([b]).decode("cp1252", errors="ignore") or chr(b) for b in range(256)]
"""Each byte as Windows-1252 reads it; the five bytes it leaves undefined as Latin-1 (their own code point)."""


def _windows_1252(error: UnicodeDecodeError) -> tuple[str, int]:
    """The codec error handler: the bytes that are not UTF-8, read as Windows-1252."""
    return "".join(_WINDOWS_1252[b] for b in error.object[error.start:error.end]), error.end


codecs.register_error(FALLBACK, _windows_1252)


class Dialect:
    """How one CSV file is written: its encoding (as people name it) and its separator."""

    def __init__(self, path: Path):
        with open(path, "rb") as handle:
            start = handle.read(SAMPLE)
        if b"\x00" in start:
            raise ValueError(f"cannot read {path}: not a text file (CSV in UTF-8 or Windows-1252)")
        self.encoding = _encoding(start)
        text = start.decode("utf-8-sig", errors=FALLBACK)
        self.separator = _separator(text if len(start) < SAMPLE else text[:text.rfind("\n") + 1] or text)

    @property
    def described(self) -> str:
        """The encoding and separator in words, as the preview shows them."""
        return f"{self.encoding}, {SEPARATOR_NAMES[self.separator]}-separated"


def _encoding(start: bytes) -> str:
    """UTF-8 with BOM, UTF-8, or Windows-1252 when the start is not UTF-8 (a character cut by the sample's end is
    not held against it)."""
    if start.startswith(codecs.BOM_UTF8):
        return "UTF-8 with BOM"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(start, final=False)
    except UnicodeDecodeError:
        return "Windows-1252"
    return "UTF-8"


def _separator(text: str) -> str:
    """The separator that splits the first records into the most columns, the same number in each; a comma when
    none does better than one column."""
    best, best_width = ",", 1
    for separator in SEPARATORS:
        records = [cells for cells in _records(text, separator) if any(cell.strip() for cell in cells)]
        widths = {len(cells) for cells in records}
        if len(widths) == 1 and (width := widths.pop()) > best_width:
            best, best_width = separator, width
    return best


def _records(text: str, separator: str) -> list[list[str]]:
    """The first ten records of the sample split by one candidate separator (none when it cannot be parsed)."""
    try:
        reader = csv.reader(io.StringIO(text), delimiter=separator)
        return [cells for _, cells in zip(range(10), reader)]
    except csv.Error:
        return []


def csv_records(path: Path, dialect: Dialect) -> Iterator[tuple[int, int, list[str]]]:
    """(first line, last line, cells) of each record; the header is the first record."""
    with open(path, newline="", encoding="utf-8-sig", errors=FALLBACK) as handle:
        reader = csv.reader(handle, delimiter=dialect.separator)
        end = 0
        try:
            for cells in reader:
                start, end = end + 1, reader.line_num
                yield start, end, cells
        except csv.Error as exc:
            raise ValueError(f"cannot read {path}: {exc}") from exc
