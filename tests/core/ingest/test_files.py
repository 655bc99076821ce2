"""Files as stations save them (core.ingest.files, delimited, workbook): encodings, separators, workbooks."""
from __future__ import annotations

import codecs
from datetime import datetime, time

import pytest
import xlsxwriter

from core.ingest.files import read_rows, read_table, unique_columns


def rows_of(table) -> list:
    return list(table.rows)


@pytest.mark.parametrize("encoding, start, said", [("utf-8", b"", "UTF-8"),
                                                   ("utf-8", codecs.BOM_UTF8, "UTF-8 with BOM"),
                                                   ("cp1252", b"", "Windows-1252")])
def test_utf8_with_or_without_a_bom_and_windows_1252_read_alike(tmp_path, encoding, start, said):
    path = tmp_path / "people.csv"
    path.write_bytes(start + "Naam,Woonplek\nRenée,Paarl\nZoë,Kaapstad\n".encode(encoding))
    table = read_table(path)
    assert table.columns == ["Naam", "Woonplek"]
    assert rows_of(table) == [(2, {"Naam": "Renée", "Woonplek": "Paarl"}), (3, {"Naam": "Zoë", "Woonplek": "Kaapstad"})]
    assert table.written == f"{said}, comma-separated"


@pytest.mark.parametrize("separator, said", [(";", "semicolon"), ("\t", "tab"), (",", "comma")])
def test_a_comma_semicolon_or_tab_separates_the_cells(tmp_path, separator, said):
    path = tmp_path / "people.csv"
    path.write_text(separator.join(["Name", "Cell", "Amount"]) + "\n"
                    + separator.join(["Thandi", "082 123 4567", '"1,5"']) + "\n")
    table = read_table(path)
    assert table.columns == ["Name", "Cell", "Amount"] and said in table.written
    assert rows_of(table)[0][1]["Cell"] == "082 123 4567"


def test_blank_and_repeated_headers_each_get_a_column_of_their_own():
    assert unique_columns(["Phone", "", "Phone", " Name "]) == ["Phone", "Column 2", "Phone (2)", "Name"]


def workbook(path, sheets: dict[str, list[list]]) -> None:
    """An .xlsx file with these sheets; datetimes and times written as Excel dates."""
    book = xlsxwriter.Workbook(str(path))
    when = book.add_format({"num_format": "yyyy/mm/dd hh:mm"})
    for name, rows in sheets.items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if isinstance(cell, (datetime, time)):
                    sheet.write_datetime(r, c, cell, when)
                elif cell is not None:
                    sheet.write(r, c, cell)
    book.close()


def test_a_workbook_is_read_from_its_first_sheet_that_holds_data_or_the_one_chosen_with_typed_cells(tmp_path):
    path = tmp_path / "listeners.xlsx"
    workbook(path, {"Notes": [["Exported from the CRM"]],
                    "Entries": [["Date", "Cell", "Serial"], [datetime(2026, 11, 20, 7, 15), 821234567, 46346.302083],
                                [None, None, None], ["20-11-2026", "0831234567", None]]})
    first = read_table(path)
    assert (first.sheets, first.sheet, first.filled) == (["Notes", "Entries"], "Entries", ["Entries"])
    assert read_table(path, "Notes").columns == ["Exported from the CRM"]
    chosen = read_table(path, "Entries")
    assert chosen.columns == ["Date", "Cell", "Serial"] and chosen.written == "Excel workbook, sheet 'Entries'"
    assert rows_of(chosen) == [(2, {"Date": datetime(2026, 11, 20, 7, 15), "Cell": 821234567.0,
                                    "Serial": 46346.302083}),
                               (4, {"Date": "20-11-2026", "Cell": "0831234567"})]


def test_a_workbook_read_without_a_mapping_gives_cells_as_a_csv_would(tmp_path):
    path = tmp_path / "p.xlsx"
    workbook(path, {"Sheet1": [["company_id", "originator", "opt_in", "tags"], [7, 27821234567, "true", "a|b"]]})
    assert list(read_rows(path)) == [(2, {"company_id": "7", "originator": "27821234567", "opt_in": True,
                                          "tags": ["a", "b"]})]


def test_a_sheet_that_is_not_there_or_a_file_that_is_no_workbook_cannot_be_read(tmp_path):
    path = tmp_path / "p.xlsx"
    workbook(path, {"Sheet1": [["a"]]})
    with pytest.raises(ValueError, match="no sheet 'Listeners'; its sheets are Sheet1"):
        read_table(path, "Listeners")
    (tmp_path / "bad.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    with pytest.raises(ValueError, match="not an Excel workbook"):
        read_table(tmp_path / "bad.xlsx")
