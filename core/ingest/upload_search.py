"""Whether an uploaded file holds any of a listener's spellings (their number in each form, name, e-mail address), so
that erasure removes an upload that names them (core.ingest.staging.forget_listener).

The search is of bytes, not of rows: a file waiting for its mapping has no columns yet that say which cell is a
number. Each spelling is looked for as a CSV or JSON Lines file may write it (UTF-8 or Windows-1252, JSON's escapes)
and as a workbook's XML does (`&amp;`), in any ASCII case. A workbook is a zip archive: its XML parts are inflated in
chunks within the bounds an import reads it in (core.ingest.workbook_bounds), and a workbook past them, or one that
cannot be read, counts as holding the spellings, because nothing shows that it does not.
"""
from __future__ import annotations

import json
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from xml.sax.saxutils import escape

from core.ingest.workbook_bounds import CHUNK, MAX_INFLATED, MAX_PARTS, MAX_RATIO, METHODS, RATIO_FROM

ZIP = b"PK\x03\x04"
XML_QUOTES = {'"': "&quot;", "'": "&apos;"}
ENCODINGS = ("utf-8", "cp1252")
UNREADABLE = (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError)


def search_forms(spellings: Iterable[str]) -> list[bytes]:
    """Every byte string a spelling may be written as in an upload, lower-cased (blank spellings dropped)."""
    forms = set()
    for spelling in (s.strip() for s in spellings):
        if not spelling:
            continue
        for text in {spelling, escape(spelling), escape(spelling, XML_QUOTES), json.dumps(spelling)[1:-1]}:
            forms.update(_encoded(text))
    return sorted(forms)


def _encoded(text: str) -> Iterator[bytes]:
    """The text, lower-cased, in each encoding that can write it."""
    for encoding in ENCODINGS:
        try:
            yield text.encode(encoding).lower()
        except UnicodeEncodeError:
            continue


def holds_any(path: Path, forms: list[bytes]) -> bool:
    """Whether the file holds any of `forms` (search_forms); True for a workbook that cannot be searched within
    bounds."""
    with open(path, "rb") as raw:
        if raw.read(len(ZIP)) != ZIP:
            raw.seek(0)
            return _found(iter(lambda: raw.read(CHUNK), b""), forms)
    try:
        return _workbook_holds(path, forms)
    except UNREADABLE:
        return True


def _found(chunks: Iterator[bytes], forms: list[bytes]) -> bool:
    """Whether any form occurs in the bytes of `chunks`, also across the end of one and the start of the next."""
    keep, tail = max(map(len, forms)) - 1, b""
    for chunk in chunks:
        seen = tail + chunk.lower()
        if any(form in seen for form in forms):
            return True
        tail = seen[-keep:] if keep else b""
    return False


def _workbook_holds(path: Path, forms: list[bytes]) -> bool:
    """Whether any XML part of the workbook holds a form; ValueError past a bound."""
    with zipfile.ZipFile(path) as archive:
        parts = archive.infolist()
        if len(parts) > MAX_PARTS:
            raise ValueError("too many parts")
        room = [MAX_INFLATED]
        return any(_found(_inflated(archive, part, room), forms) for part in parts
                   if part.filename.endswith((".xml", ".rels")))


def _inflated(archive: zipfile.ZipFile, part: zipfile.ZipInfo, room: list[int]) -> Iterator[bytes]:
    """The part inflated CHUNK bytes at a time; ValueError once all parts together pass MAX_INFLATED (`room`: what
    is left of it) or this one passes MAX_RATIO times its compressed size."""
    if part.flag_bits & 0x1 or part.compress_type not in METHODS:
        raise ValueError("a part Excel does not write")
    size = 0
    with archive.open(part) as inflated:
        for chunk in iter(lambda: inflated.read(CHUNK), b""):
            size, room[0] = size + len(chunk), room[0] - len(chunk)
            if room[0] < 0 or (size > RATIO_FROM and size > MAX_RATIO * max(part.compress_size, 1)):
                raise ValueError("past the workbook's bounds")
            yield chunk
