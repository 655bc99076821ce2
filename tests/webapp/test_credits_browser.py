"""The credits pages in headless Chromium: the balance and a chart of spend per day after a few AI calls, the
usage history narrowed by dates, and the administrator's load with its refused amount said by the field; each page
fits a phone and a laptop and passes axe, with screenshots under screenshots/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.credits.charges import charge
from core.credits.ledger import account
from core.listeners import snapshot
from tests.webapp.conftest import SIZES
from tests.webapp.test_ai_browser import check_page, signed_in_tab

pytestmark = pytest.mark.db

CREDITS = "/stations/1/credits"


@pytest.fixture(scope="module")
def spent(dashboard):
    """A few AI calls paid today on the demo station: two listener profiles and one set of insights."""
    for originator in sorted(snapshot.current(1).originators.tolist())[:2]:
        with charge(1, "ai_listener_profile", subject=originator) as bill:
            bill.record(provider="local", model="lookalike-knn-1", tokens_in=0, tokens_out=0)
    with charge(1, "ai_segment_insights"):
        pass
    return 7


@pytest.mark.parametrize("size", SIZES)
def test_the_credits_page_charts_the_spend_per_day(open_tab, screenshot, spent, size):
    tab = open_tab(CREDITS, size)
    expect(tab.get_by_test_id("credits-balance")).to_have_text(f"{account(1)['balance']:,}")
    bars = tab.get_by_test_id("credits-bar")
    expect(bars).to_have_count(30)
    assert float(bars.last.get_attribute("data-credits")) >= spent
    assert tab.evaluate("el => el.getBoundingClientRect().height", bars.last.locator("i").element_handle()) > 50
    expect(tab.get_by_test_id("credits-chart-summary")).to_contain_text("over 30 days")
    tab.get_by_text("Show the days with use as a table").click()
    expect(tab.get_by_test_id("credits-chart-table").locator("tbody tr")).to_have_count(1)
    expect(tab.get_by_test_id("credits-row").first).to_be_visible()
    check_page(tab)
    screenshot(tab, f"credits-{size}")


def test_the_dates_narrow_the_history(open_tab, spent):
    tab = open_tab(CREDITS)
    tab.get_by_label("From", exact=True).fill("2026-01-01")
    tab.get_by_label("To", exact=True).fill("2026-01-31")
    tab.get_by_role("button", name="Show").click()
    tab.wait_for_url(re.compile(r".*from_date=2026-01-01&to_date=2026-01-31"))
    expect(tab.get_by_test_id("credits-history-empty")).to_be_visible()
    expect(tab.get_by_test_id("credits-bar")).to_have_count(31)


@pytest.mark.parametrize("size", SIZES)
def test_an_admin_loads_credits_and_a_bad_amount_is_said_by_its_field(browser, dashboard, screenshot, size):
    tab = signed_in_tab(browser, dashboard, "ops@group.fm", size=size, admin=True)
    tab.goto(CREDITS)
    tab.get_by_test_id("credits-admin-link").click()
    tab.wait_for_url("**/credits/admin")
    before = account(1)["balance"]
    tab.get_by_label("Credits to add").fill("0.001")
    tab.get_by_test_id("load-submit").click()
    expect(tab.get_by_test_id("problem-credits")).to_have_text("Credits have at most 2 decimals.")
    assert account(1)["balance"] == before
    check_page(tab)
    screenshot(tab, f"credits-admin-{size}")
    tab.get_by_label("Credits to add").fill("25")
    tab.get_by_label("Note").fill("top-up")
    tab.get_by_test_id("load-submit").click()
    expect(tab.locator(".flash")).to_contain_text(f"the balance is now {before + 25:,} credits")
    expect(tab.get_by_test_id("credits-balance")).to_have_text(f"{before + 25:,}")
    tab.context.close()
