"""Items 6-12 of issue 9 in headless Chromium: facets, drill-down, sorting, presets, a run started and watched."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.webapp import test_explorer_pages as shared
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


crowd = shared.crowd  # the station of the explorer's page tests


@pytest.fixture
def producer(crowd):
    from core.access.users import create_user

    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")


def test_drill_down_sort_and_presets_in_the_explorer(page, sign_in, producer, screenshot):
    sign_in("thandi@jozi.fm")
    page.goto("/stations/1/")
    page.get_by_test_id("segment-drill").filter(has_text="Dormant").click()
    expect(page).to_have_url(re.compile(r"/explorer\?segment=dormant$"))
    expect(page.get_by_test_id("match-count")).to_have_text("1")
    page.goto("/stations/1/explorer")
    page.get_by_test_id("sort-listener").click()
    expect(page).to_have_url(re.compile(r"sort=listener"))
    expect(page.get_by_test_id("listener-row").first).to_have_attribute("data-originator", "27820000001")
    page.get_by_test_id("group-engagement").locator("summary").click()
    page.get_by_test_id("date-presets").get_by_role("link", name="Last 30 days").click()
    expect(page).to_have_url(re.compile(r"last_interaction_after=\d{4}-\d\d-\d\d"))
    expect(page.locator("#explorer-results #explorer-results")).to_have_count(0)
    expect(page.locator("form#explorer-filters")).to_have_count(1)
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"issue9-explorer-sorted-{name}")


def test_a_producer_runs_segmentation_and_watches_it_finish(page, sign_in, producer, screenshot):
    sign_in("thandi@jozi.fm")
    page.goto("/stations/1/")
    expect(page.get_by_test_id("last-run")).to_contain_text("Last full run finished")
    page.get_by_test_id("run-start").click()
    expect(page.get_by_test_id("run-progress")).to_have_attribute("data-state", "done")
    expect(page.get_by_test_id("run-progress")).to_contain_text("Done")
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        screenshot(page, f"issue9-overview-run-{name}")
