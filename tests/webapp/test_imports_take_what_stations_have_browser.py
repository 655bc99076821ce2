"""Imports take what stations have (issue 49, item 5), on the page: a workbook opens on its data, a file with nothing to
import is never offered an import of 0 rows, and never shown as finished."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core.ingest.importer import import_file
from tests.webapp.test_imports_browser import choose
from tests.workbooks import named

pytestmark = pytest.mark.db


@pytest.fixture
def producer(kept_producer):
    """The two stations and the producer of station 1, as a kept image (restored, not rebuilt, for each test)."""
    return kept_producer


def test_a_workbook_whose_first_sheet_is_empty_opens_on_its_data(page, signed_in_as, producer, csrf_enabled):
    signed_in_as(producer)
    page.goto("/stations/1/imports")
    choose(page, "profiles", "people.xlsx", named({"Sheet1": [], "Listeners": [["Full name", "Selfoon"],
                                                                                   ["Lerato", "0821234567"]]}))
    expect(page.get_by_test_id("sheet-choice")).to_have_value("Listeners")
    expect(page.get_by_test_id("mapping-preview")).to_contain_text("+27821234567")
    expect(page.get_by_test_id("nothing-to-import")).to_have_count(0)


def test_a_sheet_without_rows_is_not_offered_for_checking_or_import(page, signed_in_as, producer, csrf_enabled):
    signed_in_as(producer)
    page.goto("/stations/1/imports")
    choose(page, "profiles", "people.csv", b"Name,Cell\n")
    expect(page.get_by_test_id("nothing-to-import")).to_contain_text("holds no rows under its header")
    expect(page.get_by_test_id("mapping-check")).to_have_count(0)
    expect(page.get_by_text("Import 0 rows")).to_have_count(0)


def test_a_file_of_bad_rows_only_is_checked_but_never_offered_an_import_of_0_rows(page, signed_in_as, producer,
                                                                                  csrf_enabled):
    signed_in_as(producer)
    page.goto("/stations/1/imports")
    choose(page, "profiles", "people.csv", b"Name,Cell\nLerato,not a number\nSipho,none\n")
    page.get_by_test_id("mapping-check").click()
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "checked")
    expect(page.get_by_test_id("nothing-to-import")).to_contain_text("all 2 rows are bad rows")
    expect(page.get_by_test_id("import-start")).to_have_count(0)
    expect(page.get_by_text("Import 0 rows")).to_have_count(0)
    expect(page.get_by_test_id("import-job")).not_to_contain_text("Finished")


def test_a_yes_no_column_is_offered_as_the_stations_own_tag(page, signed_in_as, producer, csrf_enabled, tmp_path):
    known = tmp_path / "known.jsonl"
    known.write_text('{"company_id": 1, "originator": "27829990001", "tags": ["gospel"]}\n')
    import_file("profiles", known)
    signed_in_as(producer)
    page.goto("/stations/1/imports")
    choose(page, "profiles", "people.csv", b"Cell,Loves Gospel\n0821234567,yes\n0821234568,no\n")
    expect(page.get_by_label("Loves Gospel")).to_have_value("tags:gospel")
    first = page.get_by_test_id("preview-row").first
    expect(first).to_contain_text("gospel")
    expect(first).not_to_contain_text("Loves Gospel")
