"""An audience's campaign and results in headless Chromium on the demo station: the page with its results (the
verdict, both groups' counts, the range in words, the chart of both groups day by day) fits a phone and a laptop,
passes the every-page checks and breaks no Content-Security-Policy rule; a campaign recorded from the form shows
its results; a plan's page lists the audience made from it with its verdict. Screenshots under screenshots/."""
from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from core.audiences import store
from core.audiences.results import audience_results
from tests.conftest import seeded
from tests.webapp import test_plans_browser as plans_browser
from tests.webapp.conftest import PASSWORD, SIZES
from tests.webapp.test_ai_browser import check_page

pytestmark = pytest.mark.db

PRODUCER = "thandi@jozi.fm"
MADE = datetime(2026, 10, 22, 12, 0, tzinfo=UTC)
"""When the audiences are made: the day before the window (results count nothing from before an audience)."""
WINDOW = {"starts": "2026-10-23", "ends": "2026-11-19"}
"""Four weeks before the tests' NOW (20 Nov 2026), in which the demo station's listeners responded."""
plan_saved = plans_browser.saved_plan  # the demo station, its producer signed in and a plan saved in the browser


@pytest.fixture
def audience_page(page, sign_in, app, monkeypatch) -> str:
    """The demo station (200 listeners, embedded), an audience of 40 of them made at MADE holding 20% out with a
    campaign over the window, and its producer signed in: the audience's path."""
    monkeypatch.setattr(store, "utcnow", lambda: MADE)
    seeded(200, embedded=True)
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")
    made = store.create_audience(1, "Black Friday furniture buyers", "listeners who enter competitions",  # met
                                 min_score=0, limit=40, holdout_percent=20, campaign=WINDOW)  # exactly, as in any run
    sign_in(PRODUCER)
    page.wait_for_url(re.compile(r".*/stations.*"))
    return f"/stations/1/audiences/{made['audience_id']}"


@pytest.mark.parametrize("size", SIZES)
def test_the_audience_page_with_its_results_fits_a_phone_and_a_laptop(page, audience_page, screenshot, size,
                                                                       csp_violations):
    page.set_viewport_size(SIZES[size])
    page.goto(audience_page)
    found = audience_results(1, audience_page.rsplit("/", 1)[1])
    expect(page.get_by_test_id("results-verdict")).to_have_text(found["verdict"])
    expect(page.get_by_role("img", name=re.compile("Share of the target and of the holdout"))).to_be_visible()
    expect(page.get_by_test_id("results-range")).to_contain_text("We are 95% sure the difference lies between")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"{width} px wide: {page.evaluate(plans_browser.WIDEST)}"
    chart = page.get_by_test_id("results-svg").bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= SIZES[size]["width"]
    check_page(page)
    page.get_by_test_id("results-chart").scroll_into_view_if_needed()
    screenshot(page, f"campaign-results-{size}")
    assert csp_violations == []


def test_a_campaign_recorded_from_the_form_shows_its_results(page, audience_page):
    page.goto(audience_page)
    form = page.get_by_test_id("campaign-form")
    form.get_by_label("Starts").fill("2026-11-10")
    form.get_by_label("Ends").fill("2026-11-19")
    form.get_by_label("Hoped-for lift").fill("3")
    form.get_by_role("button", name="Record the campaign").click()
    expect(page.locator(".flash")).to_contain_text("Campaign recorded")
    expect(page.get_by_test_id("results-window")).to_contain_text("10 Nov 2026 to 19 Nov 2026")
    expect(page.get_by_test_id("results-needed")).to_contain_text("a lift of 3.0 points")
    assert store.get_audience(1, audience_page.rsplit("/", 1)[1])["campaign"]["hoped_lift_points"] == 3.0


def test_the_plan_page_lists_its_audience_with_its_verdict_on_a_phone(page, plan_saved, screenshot, monkeypatch):
    monkeypatch.setattr(store, "utcnow", lambda: MADE)
    plan_id = plan_saved.rsplit("/", 1)[1]
    made = store.create_audience(1, "From the plan", "listeners who shop for furniture", min_score=0, limit=200,
                                 holdout_percent=10, plan_id=plan_id, campaign=WINDOW)
    page.set_viewport_size(SIZES["phone"])
    page.goto(plan_saved)
    listed = page.get_by_test_id("plan-audience-made")
    expect(listed.get_by_role("link", name="From the plan")).to_have_attribute(
        "href", f"/stations/1/audiences/{made['audience_id']}")
    expect(listed.get_by_test_id("plan-audience-verdict")).to_have_text(
        audience_results(1, made["audience_id"])["verdict"])
    check_page(page)
    page.get_by_test_id("plan-audiences").scroll_into_view_if_needed()
    screenshot(page, "campaign-results-plan-phone")
