"""Item 3 of issue 10 in headless Chromium: a producer uploads a file, watches it import and reads the report."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from core.db.leases import release, try_lease
from core.listeners.models import Listener

pytestmark = pytest.mark.db

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
PROFILES = [{"originator": "27820000101", "first_name": "Lerato", "mobile_number": "082 123 4567"},
            {"company_id": 1, "originator": "27820000102", "email": "no email"},
            {"originator": "27820000103", "gender": "female"}]


def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def choose(page, kind: str, name: str, body: bytes) -> None:
    """Fill the upload form and send it."""
    page.get_by_test_id("upload-kind").select_option(kind)
    page.get_by_test_id("upload-file").set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": body})
    page.get_by_test_id("upload-start").click()


def test_a_producer_uploads_a_file_watches_it_import_and_reads_the_report(page, sign_in, producer, csrf_enabled,
                                                                         screenshot, csp_violations):
    sign_in("thandi@jozi.fm")
    page.goto("/stations/1/")
    page.get_by_role("link", name="Imports").click()
    expect(page.get_by_test_id("no-imports")).to_be_visible()
    token = try_lease("import:1", timedelta(minutes=5))  # another import of the station is under way
    try:
        choose(page, "profiles", "people.jsonl", jsonl(PROFILES))
        expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "queued")
        expect(page.get_by_test_id("job-progress")).to_be_visible()
        screenshot(page, "issue10-import-progress")
    finally:
        release("import:1", token)
    job = page.get_by_test_id("import-job")
    expect(job).to_have_attribute("data-state", "done")  # polled to the end, without a reload
    expect(page.get_by_test_id("report-imported")).to_have_text("3")
    expect(page.get_by_test_id("report-segments")).to_have_text("3")
    expect(page.get_by_test_id("report-warnings")).to_contain_text("Line 2, email")
    page.reload()
    expect(page.get_by_test_id("past-imports")).to_contain_text("people.jsonl")
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"issue10-import-report-{name}")
    assert csp_violations == []


def test_rows_for_another_station_are_refused_as_bad_rows(page, sign_in, manager, csrf_enabled):
    sign_in("sam@group.fm")
    page.goto("/stations/1/imports")
    rows = [{"company_id": 2, "originator": "27820000201"}, {"company_id": 1, "originator": "27820000202"}]
    choose(page, "profiles", "coast.jsonl", jsonl(rows))
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "done")
    expect(page.get_by_test_id("report-bad")).to_have_text("1")
    expect(page.get_by_test_id("report-errors")).to_contain_text("Line 1: company_id 2 is another station")
    assert Listener.objects(company_id=2, originator="27820000201").count() == 0


def test_a_file_over_the_size_limit_is_refused_with_the_limit(app, page, sign_in, producer, csrf_enabled, monkeypatch,
                                                             screenshot):
    monkeypatch.setitem(app.config, "MAX_CONTENT_LENGTH", 2**20)  # MAX_UPLOAD_MB=1
    sign_in("thandi@jozi.fm")
    page.goto("/stations/1/imports")
    choose(page, "interactions", "huge.jsonl", b"{}\n" * (2**20 // 3 + 10))
    expect(page.get_by_text("The file is larger than 1 MB")).to_be_visible()
    page.set_viewport_size(SIZES["phone"])
    screenshot(page, "issue10-import-too-large-phone")


def test_a_file_that_is_not_text_fails_with_the_reason(page, sign_in, producer, csrf_enabled):
    sign_in("thandi@jozi.fm")
    page.goto("/stations/1/imports")
    choose(page, "shows", "schedule.xlsx", b"PK\x03\x04\xff\xfe")
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "failed")
    expect(page.get_by_test_id("job-failed")).to_have_text("cannot read schedule.xlsx: not an Excel workbook (.xlsx)")
