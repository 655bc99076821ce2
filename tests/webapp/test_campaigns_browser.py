"""Campaigns in headless Chromium, against the loopback campaign platform: a platform user signs in through the
form, opens the station's campaigns, and "Start a brief" opens the briefs page with the campaign's brief in the box;
the campaigns page fits a phone and a laptop and passes axe, with screenshots under screenshots/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.platform_server import PASSWORD, USER, campaign, loopback_platform, platform_settings  # noqa: F401
from tests.webapp.conftest import SIZES
from tests.webapp.test_ai_browser import check_page

pytestmark = pytest.mark.db

GIVEAWAY = ("Breakfast Show giveaway week: 10-16 January. Reach super fans and show loyalists in Johannesburg who "
            "reply on WhatsApp in the morning. Budget R20 000; goal: 5,000 entries.")


@pytest.fixture
def platform(configured_platform, stations):
    """The platform user's campaigns: two on Jozi FM (station 1), one on another station that is not shown there."""
    configured_platform.campaigns = [
        campaign(),
        campaign(id=102, name="Breakfast giveaway week", start_date="2027-01-10", end_date="2027-01-16",
                 status="Draft", advertiser="Mzansi Mobile", description=GIVEAWAY, budget=20000, channel="WhatsApp",
                 objective="5,000 entries"),
        campaign(id=103, name="Coast winter sale", company_id=2),
    ]
    return configured_platform


def signed_in_tab(browser, live_url, size: str):
    """A fresh tab at this size, signed in through the form as the platform user."""
    context = browser.new_context(base_url=live_url, viewport=SIZES[size])
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.goto("/login")
    expect(tab.get_by_text("or your campaign platform account")).to_be_visible()
    tab.get_by_label("Email").fill(USER)
    tab.get_by_label("Password").fill(PASSWORD)
    tab.get_by_role("button", name="Sign in").click()
    tab.wait_for_url(re.compile(r".*/stations.*"))
    return tab


def test_a_platform_user_signs_in_opens_the_campaigns_and_starts_a_brief_from_one(browser, live_url, platform):
    tab = signed_in_tab(browser, live_url, "laptop")
    try:
        tab.wait_for_url("**/stations")  # the platform lists campaigns on two stations: Jozi FM and Coast Radio
        tab.get_by_test_id("station-list").get_by_role("link", name=re.compile("Jozi FM")).click()
        tab.wait_for_url("**/stations/1/")
        tab.get_by_role("navigation", name="Station pages").get_by_role("link", name="Campaigns").click()
        tab.wait_for_url("**/stations/1/campaigns")
        expect(tab.get_by_test_id("campaign-name")).to_have_text(["Summer gospel concert", "Breakfast giveaway week"])
        giveaway = tab.get_by_test_id("campaign").filter(has_text="Breakfast giveaway week")
        expect(giveaway.get_by_test_id("campaign-dates")).to_have_text("10 Jan 2027 to 16 Jan 2027")
        giveaway.get_by_role("link", name="Start a brief").click()
        tab.wait_for_url(re.compile(r".*/stations/1/briefs\?brief=.*"))
        expect(tab.get_by_test_id("brief-text")).to_have_value(GIVEAWAY)
    finally:
        tab.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_campaigns_page_fits_the_screen_and_passes_axe(browser, live_url, platform, screenshot, size):
    tab = signed_in_tab(browser, live_url, size)
    try:
        tab.goto("/stations/1/campaigns")
        expect(tab.get_by_test_id("campaign")).to_have_count(2)
        check_page(tab)
        screenshot(tab, f"campaigns-{size}")
    finally:
        tab.context.close()
