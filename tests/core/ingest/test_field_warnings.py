"""Errors are per field (ingest.md): an unreadable optional value is a warning; its row keeps every readable field.
The rows are read in memory as an import reads them (tests/memory.py); what an import then stores, on the database."""
from __future__ import annotations

import csv
import json

import bson
import pytest

from core.config import active
from core.ingest import reports
from core.ingest.files import read_rows
from core.ingest.importer import import_file
from core.ingest.models import ImportReport
from core.listeners.models import InteractionBatch
from core.listeners.suppression import suppress_numbers
from tests.factories import make_listener, stored_listener
from tests.memory import NOW, StationsInMemory, rows_read

READABLE = {"name": "Thandi M", "language": "isiZulu", "tags": ["vip", "gqom"], "opt_in": True}
"""The readable fields every messy row carries besides its unreadable one."""

UNREADABLE_IN_BOTH = [
    ("mobile_number", "n/a"), ("mobile_number", "082 12"), ("mobile_number", "no number"),
    ("email", "no email"), ("email", "thandi@"), ("gender", "xyz"), ("age_group", "25-35"),
    ("opt_in", "yes"), ("permission", "maybe"),
]
"""Unreadable values a CSV cell and a JSON string alike can hold."""

UNREADABLE_IN_JSON = [
    ("tags", "vip"), ("tags", ["vip", 3]), ("name", 42), ("location", ["Soweto"]), ("opt_in", 1),
    ("mobile_number", ["082 123 4567"]), ("gender", True),
]
"""Values of the wrong JSON type, which a CSV cannot hold."""

NUMBERS_AS_WRITTEN = [
    "082 123 4567", "082-123-4567", "082.123.4567", "(082) 123 4567", "(082) 123.4567", "+27 (0)82 123 4567",
    "+27(0)821234567", "0027 82 123 4567", "27821234567", "+27 82 123 4567", "0821234567", 27821234567,
]


def messy_rows(unreadable: list) -> list[dict]:
    """One row per unreadable value (readable fields beside it), then one row per number format."""
    rows = [{"company_id": 7, "originator": f"bad{index}", **READABLE, field: value}
            for index, (field, value) in enumerate(unreadable)]
    return rows + [{"company_id": 7, "originator": f"number{index}", "mobile_number": number}
                   for index, number in enumerate(NUMBERS_AS_WRITTEN)]


def write_jsonl(tmp_path, rows: list[dict]) -> str:
    path = tmp_path / "profiles.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return str(path)


def write_csv(tmp_path, rows: list[dict]) -> str:
    """The rows as a station's CSV export writes them: one header, lists joined with `|`, booleans as words."""
    names = list(dict.fromkeys(name for row in rows for name in row))
    path = tmp_path / "profiles.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, names)
        writer.writeheader()
        for row in rows:
            writer.writerow({name: cell(value) for name, value in row.items()})
    return str(path)


def cell(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return "|".join(value) if isinstance(value, list) else str(value)


FORMATS = [pytest.param(write_jsonl, UNREADABLE_IN_BOTH + UNREADABLE_IN_JSON, 1, id="jsonl"),
           pytest.param(write_csv, UNREADABLE_IN_BOTH, 2, id="csv")]


def read_profiles(path: str) -> tuple[dict[str, dict], object]:
    """Each kept row's fields by originator, and the tally of the file's rows (bad rows, warnings)."""
    kept, tally = rows_read("profiles", read_rows(path))
    return {originator: fields for _, originator, fields in kept}, tally


@pytest.mark.parametrize("write, unreadable, first_line", FORMATS)
def test_a_messy_profiles_file_keeps_every_row_with_a_warning_per_unreadable_value(tmp_path, write, unreadable,
                                                                                     first_line):
    rows = messy_rows(unreadable)
    kept, tally = read_profiles(write(tmp_path, rows))
    assert (tally.rows, len(kept), tally.error_count) == (len(rows), len(rows), 0)
    assert [(w["line"], w["field"]) for w in tally.warnings] == \
        [(first_line + index, field) for index, (field, _value) in enumerate(unreadable)]
    assert tally.warning_count == len(unreadable)


@pytest.mark.parametrize("write, unreadable, first_line", FORMATS)
def test_a_row_with_an_unreadable_value_keeps_every_readable_field_and_leaves_the_bad_one_out(tmp_path, write,
                                                                                              unreadable, first_line):
    kept, _ = read_profiles(write(tmp_path, messy_rows(unreadable)))
    for index, (field, _value) in enumerate(unreadable):
        assert kept[f"bad{index}"] == {name: value for name, value in READABLE.items() if name != field}, field


@pytest.mark.parametrize("write, unreadable, first_line", FORMATS)
def test_a_warning_reason_never_repeats_the_value(tmp_path, write, unreadable, first_line):
    _, tally = read_profiles(write(tmp_path, messy_rows(unreadable)))
    for warning, (field, value) in zip(tally.warnings, unreadable, strict=True):
        assert warning["reason"].startswith(field)
        for shown in (value if isinstance(value, list) else [value]):
            assert str(shown) not in warning["reason"].removeprefix(field), (field, value)


@pytest.mark.parametrize("write", [write_jsonl, write_csv], ids=["jsonl", "csv"])
def test_numbers_as_people_write_them_are_stored_in_e164(tmp_path, write):
    kept, tally = read_profiles(write(tmp_path, messy_rows([])))
    assert tally.warning_count == 0
    assert {fields["mobile_number"] for fields in kept.values()} == {"+27821234567"}


@pytest.mark.db
def test_a_reimport_keeps_the_stored_value_of_a_field_now_unreadable(app, tmp_path):
    make_listener(7, "27821234567", name="Thandi", mobile_number="+27821234567", email="thandi@example.co.za",
                  gender="female", opt_in=True)
    report = import_file("profiles", write_jsonl(tmp_path, [
        {"company_id": 7, "originator": "27821234567", "name": "Thandi M", "mobile_number": "n/a",
         "email": "no email", "gender": "xyz", "opt_in": "maybe"}]))
    stored = stored_listener(7, "27821234567")
    assert (stored.name, stored.mobile_number, stored.email, stored.gender, stored.opt_in) == \
        ("Thandi M", "+27821234567", "thandi@example.co.za", "female", True)
    assert (report.imported, report.warning_count) == (1, 4)


@pytest.mark.db
def test_a_row_whose_only_news_is_unreadable_changes_nothing(app, tmp_path):
    make_listener(7, "27821234567", gender="female")
    report = import_file("profiles", write_jsonl(tmp_path, [{"company_id": 7, "originator": "27821234567",
                                                             "gender": "xyz"}]))
    assert (report.imported, report.duplicates, report.warning_count) == (0, 1, 1)
    assert stored_listener(7, "27821234567").gender == "female"


def test_a_bad_row_reports_no_warnings_of_its_own():
    _, tally = rows_read("profiles", [{"company_id": "seven", "originator": "a", "gender": "xyz"}])
    assert (tally.error_count, tally.warning_count, tally.warnings) == (1, 0, [])


@pytest.mark.db
def test_warnings_are_saved_with_the_report_apart_from_bad_rows(app, tmp_path):
    report = import_file("profiles", write_jsonl(tmp_path, [
        {"company_id": 7, "originator": "a", "gender": "xyz", "email": "no email"},
        {"company_id": 7},
    ]))
    stored = ImportReport.objects.get(id=report.id)
    assert (stored.error_count, stored.warning_count) == (1, 2)
    bad_rows = reports.opened_errors(ImportReport._get_collection().find_one({"_id": report.id}))
    assert [e["line"] for e in bad_rows] == [2]
    raw = bson.encode(ImportReport._get_collection().find_one({"_id": report.id}))
    assert bad_rows[0]["reason"].encode() not in raw  # stored sealed
    assert [(w["line"], w["field"]) for w in stored.warnings] == [(1, "email"), (1, "gender")]


def test_only_the_first_1000_warnings_are_kept_but_all_are_counted():
    rows = [(line, {"company_id": 7, "originator": f"o{line}", "gender": "xyz"}) for line in range(1, 1202)]
    kept, tally = rows_read("profiles", rows)
    assert (len(kept), tally.warning_count, len(tally.warnings)) == (1201, 1201, 1000)
    assert tally.warnings[-1]["line"] == 1000


# --- interactions ---

def interaction(**overrides) -> dict:
    row = {"company_id": 7, "originator": "27821234567", "timestamp": "2026-11-20T07:15:00+02:00",
           "channel_type": 2, "campaign_type": "song_request"}
    return row | overrides


@pytest.mark.parametrize("fields, field, expected", [
    ({"timeslot_id": "breakfast"}, "timeslot_id", (12, None)),
    ({"timeslot_id": -1}, "timeslot_id", (12, None)),
    ({"message": ["hi"]}, "message", (12, None)),
    ({"interaction_id": {"id": 1}}, "interaction_id", (12, None)),
])
def test_an_unreadable_optional_interaction_field_is_a_warning_and_the_show_is_looked_up_by_time(
        fields, field, expected):
    breakfast = {"company_id": 7, "timeslot_id": 12, "days": [5], "start": "06:00", "end": "09:00"}
    kept, tally = rows_read("interactions", [interaction(**fields)], StationsInMemory(shows=[breakfast], now=NOW))
    assert tally.error_count == 0
    assert [(w["line"], w["field"]) for w in tally.warnings] == [(1, field)]
    assert [(event.timeslot, event.message) for _, event in kept] == [expected]


@pytest.mark.db
def test_rows_are_imported_duplicates_suppressed_or_bad_whatever_their_warnings(app, tmp_path):
    suppress_numbers(7, active().secret_key, ["27829999999"])
    path = write_jsonl(tmp_path, [
        interaction(timeslot_id="x"), interaction(timeslot_id="x"), interaction(originator="27829999999"),
        interaction(channel_type="two", timeslot_id="x"), interaction(originator="27820000002", message=3)])
    report = import_file("interactions", path)
    assert (report.rows, report.imported, report.duplicates, report.suppressed, report.error_count) == (5, 2, 1, 1, 1)
    assert report.rows == report.imported + report.duplicates + report.suppressed + report.error_count
    assert [w["line"] for w in report.warnings] == [1, 2, 5]
    assert InteractionBatch.objects.count() == 2
