"""An upload on the service's disk: streamed to DATA_DIR/uploads in chunks, into a file readable by this service's
user alone from its creation (an upload names listeners), its lines counted on the way (the progress bar's length),
and named with its format's suffix, from its name or else its first bytes.

Separate from the import jobs (core.ingest.jobs) because the mapping step and the API's preview (core.ingest.staging)
keep files the same way without starting a job.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

from core.ingest.files import SUFFIXES

CHUNK = 1 << 20


def save_upload(stream: BinaryIO, path: Path, filename: str) -> tuple[Path, int]:
    """Stream the upload to `path` plus its format's suffix, in chunks, readable by this service's user alone (an
    upload names listeners); the path and the number of lines (the progress bar's length). Nothing is left of an
    upload cut short."""
    first = stream.read(CHUNK)
    path = path.with_name(path.name + format_of(filename, first))
    lines, last = 0, b"\n"
    try:
        with private_file(path) as out:
            for chunk in _chunks(first, stream):
                out.write(chunk)
                lines += chunk.count(b"\n")
                last = chunk[-1:]
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return path, lines + (last != b"\n")


def private_file(path: Path) -> BinaryIO:
    """A new file open for writing, mode 0600 from its creation (never readable by others, not even for a moment), in
    a folder of mode 0700 when the folder is new."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")


def _chunks(first: bytes, stream: BinaryIO):
    """The chunk already read, then the rest of the stream."""
    if first:
        yield first
    yield from iter(lambda: stream.read(CHUNK), b"")


def format_of(filename: str, start: bytes) -> str:
    """.csv, .jsonl or .xlsx: the file name's when it says, else JSON Lines for a file that starts with `{`, a workbook
    for one that starts as a zip archive, and CSV for any other (a file that is neither fails to read, and its job
    says why)."""
    suffix = Path(filename or "").suffix.lower()
    if suffix in SUFFIXES:
        return suffix
    if start.startswith(b"PK\x03\x04"):
        return ".xlsx"
    return ".jsonl" if start.lstrip().startswith(b"{") else ".csv"
