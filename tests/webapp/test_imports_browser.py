"""Issues 10 and 26 in headless Chromium: a producer uploads a station's file, maps its columns while seeing the first
rows as they will be stored, checks the whole file, imports it, watches it import and reads the report."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from core.db.leases import release, try_lease
from core.ingest.jobs import ImportJob
from core.listeners.models import Listener
from tests.factories import raw_listener, stored_listener
from tests.webapp.test_every_page_browser import CONTROLS, overlaps

pytestmark = pytest.mark.db


@pytest.fixture
def producer(kept_producer):
    """The two stations and the producer of station 1, as a kept image (restored, not rebuilt, for each test)."""
    return kept_producer

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
PROFILES = [{"originator": "27820000101", "first_name": "Lerato", "mobile_number": "082 123 4567"},
            {"company_id": 1, "originator": "27820000102", "email": "no email"},
            {"originator": "27820000103", "gender": "female"}]
NATURAL = ("Name,Cell,Gender,Age,Suburb,Status\n"
           "Thandi Mokoena,082 123 4567,F,34,Soweto,yes\n"
           "Sipho Dlamini,083 555 0101,M,51,Umlazi,no\n"
           "Nomsa,not known,Vrou,27,Khayelitsha,yes\n")


def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def choose(page, kind: str, name: str, body: bytes) -> None:
    """Fill the upload form and send it."""
    page.get_by_test_id("upload-kind").select_option(kind)
    page.get_by_test_id("upload-file").set_input_files(
        {"name": name, "mimeType": "application/octet-stream", "buffer": body})
    page.get_by_test_id("upload-start").click()


def check_and_import(page) -> None:
    """From the mapping step: check the whole file, then import it."""
    page.get_by_test_id("mapping-check").click()
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "checked")
    page.get_by_test_id("import-start").click()


def fits_and_is_accessible(page, size: str) -> None:
    """No sideways scroll, controls apart (44 px on a phone), no serious axe violation."""
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    controls = page.evaluate(CONTROLS)
    assert not overlaps(page, controls)
    if size == "phone":
        small = [f"{c['name']} ({c['height']:.0f} px)" for c in controls if c["height"] < 44]
        assert not small, "controls under 44 px:\n" + "\n".join(small)
    violations = Axe().run(page).response["violations"]
    serious = [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in violations
               if v["impact"] in ("serious", "critical")]
    assert not serious, "\n".join(serious)


def test_a_producer_uploads_a_file_watches_it_import_and_reads_the_report(page, signed_in_as, producer, csrf_enabled,
                                                                         screenshot, csp_violations):
    signed_in_as("thandi@jozi.fm")
    page.goto("/stations/1/")
    page.get_by_role("link", name="Imports").click()
    expect(page.get_by_test_id("no-imports")).to_be_visible()
    choose(page, "profiles", "people.jsonl", jsonl(PROFILES))
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "mapping")
    page.get_by_test_id("mapping-check").click()
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "checked")
    expect(page.get_by_test_id("check-note")).to_be_visible()
    assert Listener.objects(company_id=1).count() == 0  # the check wrote nothing
    token = try_lease("import:1", timedelta(minutes=5))  # another import of the station is under way
    try:
        page.get_by_test_id("import-start").click()
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


@pytest.mark.parametrize("size", SIZES)
def test_a_station_file_is_mapped_corrected_checked_and_imported_and_its_mapping_remembered(
        page, signed_in_as, producer, csrf_enabled, screenshot, csp_violations, size):
    page.set_viewport_size(SIZES[size])
    signed_in_as("thandi@jozi.fm")
    page.goto("/stations/1/imports")
    choose(page, "profiles", "listeners.csv", NATURAL.encode())
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "mapping")
    status = page.get_by_label("Status")
    expect(status).to_have_value("tags")  # proposed: a column of yes and no kept as tags
    expect(page.get_by_label("Cell")).to_have_value("mobile_number")
    preview = page.get_by_test_id("mapping-preview")
    expect(preview).to_contain_text("+27821234567")
    expect(preview).to_contain_text("female")
    expect(preview).to_contain_text("25-34")
    expect(page.get_by_test_id("preview-bad-cell")).to_contain_text("mobile_number is not a valid phone number")
    screenshot(page, f"issue26-mapping-{size}")
    fits_and_is_accessible(page, size)
    status.select_option("opt_in")  # the producer corrects the proposal; htmx shows the rows again
    expect(preview.locator("tbody tr").first).to_contain_text("true")
    page.get_by_test_id("mapping-check").click()
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "checked")
    expect(page.get_by_test_id("report-listeners-new")).to_have_text("2 new")
    expect(page.get_by_test_id("report-bad-fields")).to_contain_text("mobile_number")
    screenshot(page, f"issue26-checked-{size}")
    fits_and_is_accessible(page, size)
    assert Listener.objects(company_id=1).count() == 0
    page.get_by_test_id("import-start").click()
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "done")
    thandi = stored_listener(1, "27821234567")
    assert (thandi.gender, thandi.age_group, thandi.opt_in, thandi.tags) == ("female", "25-34", True, [])
    page.goto("/stations/1/imports")
    choose(page, "profiles", "listeners-december.csv", NATURAL.encode())
    expect(page.get_by_test_id("mapping-remembered")).to_be_visible()
    expect(page.get_by_label("Status")).to_have_value("opt_in")
    assert csp_violations == []


def test_a_workbook_sheet_is_chosen_and_read(page, signed_in_as, producer, csrf_enabled, tmp_path):
    import xlsxwriter

    path = tmp_path / "stations.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet("Notes").write(0, 0, "Exported from the CRM")
    sheet = book.add_worksheet("Listeners")
    sheet.write_row(0, 0, ["Full name", "Selfoon"])
    sheet.write_row(1, 0, ["Lerato", "0821234567"])
    book.close()
    signed_in_as("thandi@jozi.fm")
    page.goto("/stations/1/imports")
    choose(page, "profiles", "stations.xlsx", path.read_bytes())
    page.get_by_test_id("sheet-choice").select_option("Listeners")
    page.get_by_role("button", name="Read this sheet").click()
    expect(page.get_by_label("Selfoon")).to_have_value("mobile_number")
    expect(page.get_by_test_id("mapping-preview")).to_contain_text("+27821234567")


def test_rows_for_another_station_are_refused_as_bad_rows(page, sign_in, manager, csrf_enabled):
    sign_in("sam@group.fm")
    page.goto("/stations/1/imports")
    rows = [{"company_id": 2, "originator": "27820000201"}, {"company_id": 1, "originator": "27820000202"}]
    choose(page, "profiles", "coast.jsonl", jsonl(rows))
    check_and_import(page)
    expect(page.get_by_test_id("import-job")).to_have_attribute("data-state", "done")
    expect(page.get_by_test_id("report-bad")).to_have_text("1")
    expect(page.get_by_test_id("report-errors")).to_contain_text("Line 1: company_id 2 is another station")
    assert raw_listener(2, "27820000201") is None


def test_a_file_over_the_size_limit_is_refused_with_the_limit(app, page, signed_in_as, producer, csrf_enabled,
                                                             monkeypatch, screenshot):
    monkeypatch.setitem(app.config, "MAX_CONTENT_LENGTH", 2**20)  # MAX_UPLOAD_MB=1
    signed_in_as("thandi@jozi.fm")
    page.goto("/stations/1/imports")
    choose(page, "interactions", "huge.jsonl", b"{}\n" * (2**20 // 3 + 10))
    expect(page.get_by_text("The file is larger than 1 MB")).to_be_visible()
    page.set_viewport_size(SIZES["phone"])
    screenshot(page, "issue10-import-too-large-phone")


def test_a_file_that_is_not_a_workbook_says_why_and_is_not_imported(page, signed_in_as, producer, csrf_enabled):
    signed_in_as("thandi@jozi.fm")
    page.goto("/stations/1/imports")
    choose(page, "shows", "schedule.xlsx", b"PK\x03\x04\xff\xfe")
    expect(page.get_by_test_id("mapping-problems")).to_have_text("cannot read the file: not an Excel workbook (.xlsx)")
    expect(page.get_by_test_id("mapping-check")).to_have_count(0)
    assert ImportJob.objects(company_id=1).first().state == "mapping"
