"""The bounds a station's workbook is read within (docs/imports.md, "Workbooks"): nothing a workbook says of itself is
trusted (its declared dimension, its parts' declared sizes), so each bound is judged on what is really there.

- The archive: at most MAX_PARTS parts, each stored or deflated (what Excel writes), none encrypted.
- Every part inflated for real, in chunks, never to more than MAX_INFLATED bytes for all of them together, nor to more
  than MAX_RATIO times its compressed size once past RATIO_FROM (an XML part compresses about tenfold; a zip bomb a
  thousandfold).
- No XML part declares a document type: a workbook never needs one, and a DTD is how entities expand (the billion
  laughs) or reach outside the file (external entities). Parts are UTF-8, as Excel writes them.
- A sheet spans at most MAX_ROWS rows, MAX_COLUMNS columns and MAX_CELLS cells from its first cell to its last: the
  reader holds a sheet as a grid, so two cells far apart cost the grid between them.
- The reader runs in a process of its own (core.ingest.workbook_reader) with at most READER_MEMORY bytes of memory and
  READER_CPU_S seconds of processor time: whatever the checks above miss, it ends that process, never the service's.
"""
from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

from core.errors import ValidationFailed

MAX_PARTS = 1_000
MAX_INFLATED = 1 << 30
MAX_RATIO = 100
RATIO_FROM = 1 << 20
MAX_ROWS = 1_048_576
MAX_COLUMNS = 1_000
MAX_CELLS = 10_000_000
READER_MEMORY = 2 << 30
READER_CPU_S = 300
CHUNK = 1 << 20
MARKS = (b"<!DOCTYPE", b"<!ENTITY")
METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, then the lengths of the name and the extra field


class WorkbookRefused(ValidationFailed):
    """A workbook past one of the bounds, refused with a sentence naming the bound (422 on the upload's file)."""

    @classmethod
    def because(cls, sentence: str) -> WorkbookRefused:
        """Refused, at the upload's `file`."""
        return cls.one(["file"], sentence)


def check_archive(path: Path) -> None:
    """WorkbookRefused unless every part of the workbook's archive is within the bounds; ValueError when the file
    is no workbook that can be read."""
    try:
        with zipfile.ZipFile(path) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        raise ValueError("not an Excel workbook (.xlsx)") from None
    if len(parts) > MAX_PARTS:
        raise WorkbookRefused.because(f"The workbook has {len(parts):,} parts; a workbook may have at most "
                                      f"{MAX_PARTS:,}.")
    inflated = 0
    with open(path, "rb") as raw:
        for part in parts:
            inflated += _checked_part(raw, part, MAX_INFLATED - inflated)


def _checked_part(raw, part: zipfile.ZipInfo, room: int) -> int:
    """The part's inflated size, read for real; WorkbookRefused when it is past a bound or declares a DTD."""
    if part.flag_bits & 0x1 or part.compress_type not in METHODS:
        raise ValueError("a part of it is encrypted or compressed in a way Excel does not write; save the workbook "
                         "again from Excel")
    size, tail, is_xml = 0, b"", part.filename.endswith((".xml", ".rels"))
    for consumed, chunk in _inflated(raw, part):
        size += len(chunk)
        if size > room:
            raise WorkbookRefused.because(f"The workbook inflates to more than {MAX_INFLATED >> 20:,} MB, the most "
                                          "an import reads; split it into smaller workbooks.")
        if size > RATIO_FROM and size > MAX_RATIO * max(consumed, 1):
            raise WorkbookRefused.because(f"A part of the workbook inflates to more than {MAX_RATIO} times its "
                                          "compressed size, which no spreadsheet does.")
        if is_xml:
            _check_xml(chunk, tail, first=size == len(chunk))
            tail = chunk[-16:]
    return size


def _inflated(raw, part: zipfile.ZipInfo) -> Iterator[tuple[int, bytes]]:
    """(compressed bytes consumed so far, inflated chunk) of the part, whatever sizes its headers declare."""
    raw.seek(part.header_offset)
    signature, name_length, extra_length = LOCAL_HEADER.unpack(raw.read(LOCAL_HEADER.size))
    if signature != b"PK\x03\x04":
        raise ValueError("not an Excel workbook (.xlsx): its archive is damaged")
    raw.seek(part.header_offset + LOCAL_HEADER.size + name_length + extra_length)
    inflater = zlib.decompressobj(-15) if part.compress_type == zipfile.ZIP_DEFLATED else None
    left, consumed = part.compress_size, 0
    while left > 0:
        data = raw.read(min(left, CHUNK))
        if not data:
            raise ValueError("not an Excel workbook (.xlsx): its archive is cut short")
        left, consumed = left - len(data), consumed + len(data)
        yield from _inflate(inflater, data, consumed)


def _inflate(inflater, data: bytes, consumed: int) -> Iterator[tuple[int, bytes]]:
    """`data` inflated at most CHUNK bytes at a time (a thousandfold chunk is never held whole)."""
    if inflater is None:
        yield consumed, data
        return
    try:
        while data:
            chunk = inflater.decompress(data, CHUNK)
            data = inflater.unconsumed_tail
            yield consumed, chunk
    except zlib.error:
        raise ValueError("not an Excel workbook (.xlsx): a part of it is damaged") from None


def _check_xml(chunk: bytes, tail: bytes, first: bool) -> None:
    """WorkbookRefused when an XML part is not UTF-8 or declares a document type (`tail` ends the chunk before)."""
    if first and (chunk[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in chunk[:4]):
        raise ValueError("its XML is not UTF-8, as Excel writes it; save the workbook again from Excel")
    seen = tail + chunk
    if any(mark in seen for mark in MARKS):
        raise WorkbookRefused.because("The workbook declares a document type (a DTD), which spreadsheets never "
                                      "need and which can expand without end or read other files; it is not read.")


def check_span(rows: int, columns: int) -> None:
    """WorkbookRefused when a sheet's cells span more rows, columns or cells than a sheet may (its name, which a
    station chose and a failed job keeps, is not said)."""
    where = f"The sheet spans {rows:,} rows and {columns:,} columns"
    if rows > MAX_ROWS or columns > MAX_COLUMNS:
        raise WorkbookRefused.because(f"{where}; a sheet may span at most {MAX_ROWS:,} rows and {MAX_COLUMNS:,} "
                                      "columns. Delete the stray cells far from the data, or copy the data to a "
                                      "new sheet.")
    if rows * columns > MAX_CELLS:
        raise WorkbookRefused.because(f"{where} ({rows * columns:,} cells); a sheet may span at most "
                                      f"{MAX_CELLS:,} cells. Split it into smaller sheets.")


def over_memory() -> WorkbookRefused:
    """The refusal of a workbook whose reading needed more than READER_MEMORY (its cells lie too far apart)."""
    return WorkbookRefused.because(
        f"The workbook needs more than {READER_MEMORY >> 20:,} MB of memory to read: its cells lie too far apart "
        f"(a sheet may span at most {MAX_ROWS:,} rows, {MAX_COLUMNS:,} columns and {MAX_CELLS:,} cells). Delete the "
        "stray cells far from the data, or copy the data to a new sheet.")


def over_time() -> WorkbookRefused:
    """The refusal of a workbook whose reading took more than READER_CPU_S of processor time."""
    return WorkbookRefused.because(f"The workbook took more than {READER_CPU_S} seconds to read, the most one "
                                   "import may take; split it into smaller workbooks.")
