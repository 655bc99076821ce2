"""Workbooks a hostile station could upload, each a real .xlsx whose first sheet's XML is replaced (issue 47): cells far
apart, a sheet that inflates a thousandfold, a billion laughs, an external entity. Shared by the tests and
bench/hostile.py."""
from __future__ import annotations

import io
import zipfile

import xlsxwriter

SHEET = "xl/worksheets/sheet1.xml"
HEAD = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')


def plain(rows: list[list] | None = None) -> bytes:
    """A workbook of one sheet holding `rows` (a channels file by default)."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    sheet = book.add_worksheet("Channels")
    for number, row in enumerate(rows or [["channel_type", "name"], [1, "WhatsApp"], [2, "SMS"]]):
        sheet.write_row(number, 0, row)
    book.close()
    return out.getvalue()


def with_sheet(xml: str | bytes) -> bytes:
    """A plain workbook whose first sheet is `xml` (deflated at the highest level, as a zip bomb would be)."""
    source, out = zipfile.ZipFile(io.BytesIO(plain())), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for part in source.infolist():
            archive.writestr(part.filename, xml if part.filename == SHEET else source.read(part.filename))
    return out.getvalue()


def named(sheets: dict[str, list[list]]) -> bytes:
    """A workbook of these named sheets, in order, each holding its rows (an empty list: an empty sheet)."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    for name, rows in sheets.items():
        sheet = book.add_worksheet(name)
        for number, row in enumerate(rows):
            sheet.write_row(number, 0, row)
    book.close()
    return out.getvalue()


def _cells(*cells: tuple[str, str]) -> str:
    rows = "".join(f'<row r="{ref.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}"><c r="{ref}" t="inlineStr"><is><t>{text}</t>'
                   "</is></c></row>" for ref, text in cells)
    return f"{HEAD}<sheetData>{rows}</sheetData></worksheet>"


def sparse() -> bytes:
    """Two cells, at A1 and XFD1048576: 1.9 KB whose grid would be 17 billion cells (549 GB)."""
    return with_sheet(_cells(("A1", "channel_type"), ("XFD1048576", "far away")))


def wide(columns: int) -> bytes:
    """Two cells of one row, `columns` columns apart."""
    return with_sheet(_cells(("A1", "channel_type"), (f"{column_letters(columns)}1", "far")))


def inflating(mebibytes: int = 512) -> bytes:
    """A sheet padded with `mebibytes` MiB of spaces: about a thousand times smaller deflated than inflated."""
    return with_sheet(f'{HEAD}<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>channel_type</t></is></c></row>'
                      + " " * (mebibytes << 20) + "</sheetData></worksheet>")


def billion_laughs() -> bytes:
    """Ten levels of entities, each ten of the one below: a billion "lol"s from under a kilobyte."""
    entities = '<!ENTITY lol0 "lol">' + "".join(
        f'<!ENTITY lol{level} "{f"&lol{level - 1};" * 10}">' for level in range(1, 10))
    return _declared(entities, "&lol9;")


def external_entity(target: str = "file:///etc/passwd") -> bytes:
    """A cell whose text is an entity naming a file outside the workbook."""
    return _declared(f'<!ENTITY outside SYSTEM "{target}">', "&outside;")


def _declared(entities: str, text: str) -> bytes:
    """A sheet whose document type declares `entities`, with one cell of `text`."""
    root = HEAD.index("<worksheet")
    declared = f"{HEAD[:root]}<!DOCTYPE worksheet [{entities}]>{HEAD[root:]}"
    return with_sheet(_cells(("A1", text)).replace(HEAD, declared))


def column_letters(number: int) -> str:
    """Excel's name of the 1-based column `number` (1 A, 27 AA, 16384 XFD)."""
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


HOSTILE = {"sparse": sparse, "inflating": lambda: inflating(64), "billion laughs": billion_laughs,
           "external entity": external_entity}
"""Every hostile workbook by name (the inflating one of 64 MiB, 65 KB deflated: a test client's upload over 500 KB
goes through a temporary file the client never closes)."""
