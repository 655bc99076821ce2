"""Workbooks read within a budget (issue 47, item 2; core.ingest.workbook_bounds): declared sizes and dimensions are
never trusted; a sheet's span, the archive's parts and their inflated sizes are bounded; no DTD is read; and the
reader runs in a process of its own, so that what the checks miss costs that process, never this one."""
from __future__ import annotations

import io
import resource
import zipfile

import pytest

from core.ingest import workbook_bounds
from core.ingest.workbook import read_workbook
from core.ingest.workbook_bounds import WorkbookRefused, check_archive, check_span
from tests import workbooks


def saved(tmp_path, data: bytes, name: str = "upload.xlsx"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def refusal(error) -> str:
    return error.value.items[0]["msg"]


def grown_mb(read) -> float:
    """How much this process's peak memory grew while `read` ran, in MB."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    read()
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024


def test_a_plain_workbook_is_within_every_bound_and_read(tmp_path):
    names, sheet, rows, _ = read_workbook(saved(tmp_path, workbooks.plain()))
    assert (names, sheet) == (["Channels"], "Channels")
    assert list(rows) == [(1, ["channel_type", "name"]), (2, [1.0, "WhatsApp"]), (3, [2.0, "SMS"])]


def test_two_cells_far_apart_are_refused_and_cost_this_process_nothing(tmp_path):
    path = saved(tmp_path, workbooks.sparse())
    assert path.stat().st_size < 10_000

    def read():
        with pytest.raises(WorkbookRefused) as refused:
            read_workbook(path)
        assert "memory" in refusal(refused) and "1,048,576 rows" in refusal(refused)

    assert grown_mb(read) < 50


def test_a_sheet_that_inflates_a_thousandfold_is_refused_before_it_is_read(tmp_path):
    path = saved(tmp_path, workbooks.inflating(512))

    def read():
        with pytest.raises(WorkbookRefused) as refused:
            check_archive(path)
        assert "100 times its compressed size" in refusal(refused)

    assert grown_mb(read) < 50


@pytest.mark.parametrize("make", [workbooks.billion_laughs, workbooks.external_entity])
def test_a_document_type_is_refused_whatever_its_entities_do(tmp_path, make):
    with pytest.raises(WorkbookRefused) as refused:
        read_workbook(saved(tmp_path, make()))
    assert "document type" in refusal(refused)


def test_a_sheet_of_exactly_the_widest_span_is_read_and_one_column_more_is_refused(tmp_path):
    _, _, rows, _ = read_workbook(saved(tmp_path, workbooks.wide(workbook_bounds.MAX_COLUMNS), "ok.xlsx"))
    assert len(next(iter(rows))[1]) == workbook_bounds.MAX_COLUMNS
    with pytest.raises(WorkbookRefused) as refused:
        read_workbook(saved(tmp_path, workbooks.wide(workbook_bounds.MAX_COLUMNS + 1), "wide.xlsx"))
    assert f"{workbook_bounds.MAX_COLUMNS + 1:,} columns" in refusal(refused)


@pytest.mark.parametrize(("rows", "columns", "refused"), [
    (1_048_576, 9, False), (1_048_577, 1, True),
    (10_000, 1_000, False), (10_001, 1_000, True),
    (1, 1_000, False), (1, 1_001, True),
])
def test_a_sheet_spans_at_most_a_million_rows_a_thousand_columns_and_ten_million_cells(rows, columns, refused):
    if refused:
        with pytest.raises(WorkbookRefused):
            check_span(rows, columns)
    else:
        check_span(rows, columns)


def archive(parts: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as written:
        for name, data in parts.items():
            written.writestr(name, data)
    return out.getvalue()


def test_a_thousand_parts_are_read_and_a_thousand_and_one_refused(tmp_path):
    check_archive(saved(tmp_path, archive({f"p{n}.bin": b"x" for n in range(1_000)}), "a.xlsx"))
    with pytest.raises(WorkbookRefused) as refused:
        check_archive(saved(tmp_path, archive({f"p{n}.bin": b"x" for n in range(1_001)}), "b.xlsx"))
    assert "1,001 parts" in refusal(refused)


def test_the_whole_archive_inflated_is_bounded_across_its_parts(tmp_path, monkeypatch):
    monkeypatch.setattr(workbook_bounds, "MAX_INFLATED", 3_000)
    check_archive(saved(tmp_path, archive({"a.bin": b"a" * 1_500, "b.bin": b"b" * 1_500}), "a.xlsx"))
    with pytest.raises(WorkbookRefused):
        check_archive(saved(tmp_path, archive({"a.bin": b"a" * 1_500, "b.bin": b"b" * 1_501}), "b.xlsx"))


def test_a_part_that_declares_a_small_size_is_measured_by_what_it_inflates_to(tmp_path, monkeypatch):
    monkeypatch.setattr(workbook_bounds, "MAX_INFLATED", 10_000)
    data = bytearray(archive({"a.bin": b"a" * 20_000}))
    central = data.rindex(b"PK\x01\x02")
    data[central + 24:central + 28] = (10).to_bytes(4, "little")  # the central directory's uncompressed size
    with pytest.raises(WorkbookRefused):
        check_archive(saved(tmp_path, bytes(data)))


@pytest.mark.parametrize(("parts", "method"), [
    ({"xl/workbook.xml": "<workbook/>".encode("utf-16")}, zipfile.ZIP_DEFLATED),
    ({"xl/workbook.xml": b"<workbook/>"}, zipfile.ZIP_BZIP2),
])
def test_xml_in_utf16_or_a_part_compressed_as_excel_never_does_is_unreadable(tmp_path, parts, method):
    with pytest.raises(ValueError, match="Excel"):
        check_archive(saved(tmp_path, archive(parts, method)))


def test_a_file_that_is_no_zip_archive_is_unreadable_not_refused(tmp_path):
    with pytest.raises(ValueError, match="not an Excel workbook") as unreadable:
        read_workbook(saved(tmp_path, b"PK\x03\x04 not a workbook"))
    assert not isinstance(unreadable.value, WorkbookRefused)
