"""Issue 28, item 2, in headless Chromium: the trends of the overview and of a segment page fit a phone and a laptop
(the charts scroll sideways inside their card, labels whole, every control 44 px high on a phone, none on another),
pass axe and every Content-Security-Policy rule, switch between weekly and monthly, a column opens the explorer on its
segment, and a station without history says how it gets one. The stations are built once for the module."""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from core.access.users import create_user
from core.history.models import HistoryPoint
from core.segmentation.runs import segment_company
from tests.conftest import empty_database
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import COAST_COUNTS, CSP_REPORTER, PASSWORD, SIZES, store_segment_run
from tests.webapp.test_every_page_browser import CONTROLS, overlaps
from tests.webapp.test_trends_pages import WEEKS, store_history

pytestmark = pytest.mark.db


def _station() -> None:
    """Jozi FM (1): 6 dormant listeners and 14 others, 12 weeks of history; Coast Radio (2): segmented, no history
    yet; a producer of both."""
    make_company(1, name="Jozi FM")
    for n in range(20):
        days = range(100, 201, 10) if n < 6 else [0.5 + i for i in range(12)]
        make_listener(1, f"2782000{n:04d}", [event(d) for d in days])
    segment_company(1, NOW)
    HistoryPoint.objects(company_id=1).delete()  # the run's own point: the stored weeks alone are drawn
    store_history(1)
    make_company(2, name="Coast Radio")
    store_segment_run(2, COAST_COUNTS)
    create_user("thandi@jozi.fm", PASSWORD, companies=[1, 2])


@pytest.fixture(scope="module")
def signed_in(_app, _live_url, browser):
    """The stations built once for the module (its tests only read) and the producer's signed-in browser state."""
    empty_database()
    _station()
    context = browser.new_context(base_url=_live_url)
    tab = context.new_page()
    tab.goto("/login")
    tab.get_by_label("Email").fill("thandi@jozi.fm")
    tab.get_by_label("Password").fill(PASSWORD)
    tab.get_by_role("button", name="Sign in").click()
    tab.wait_for_url("**/stations")
    state = context.storage_state()
    context.close()
    yield state
    empty_database()


@pytest.fixture
def tab(browser, _live_url, signed_in):
    """A fresh tab of the signed-in producer at a laptop's size, which breaks no Content-Security-Policy rule."""
    context = browser.new_context(base_url=_live_url, storage_state=signed_in, viewport=SIZES["laptop"])
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.csp_violations = []
    page.add_init_script(CSP_REPORTER)
    page.on("console", lambda message: page.csp_violations.append(message.text)
            if "Refused to" in message.text or "securitypolicyviolation" in message.text else None)
    yield page
    assert page.csp_violations == []
    context.close()


def fits_and_is_accessible(page, size: str) -> None:
    """No sideways scroll of the page, controls apart (44 px on a phone), no serious axe violation."""
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


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", ["/stations/1/", "/stations/1/segments/at_risk"])
def test_the_trends_fit_the_screen_and_pass_axe(tab, screenshot, size, path):
    page = tab
    page.set_viewport_size(SIZES[size])
    page.goto(path)
    trends = page.get_by_test_id("trends")
    trends.scroll_into_view_if_needed()
    for details in trends.get_by_test_id("trend-table").all():
        details.locator("summary").click()
    fits_and_is_accessible(page, size)
    column = trends.get_by_test_id("trend-point").first.bounding_box()
    assert column["height"] >= 44 and round(column["width"]) >= (44 if size == "phone" else 30)
    name = "overview" if path.endswith("/1/") else "segment"
    page.set_viewport_size({**SIZES[size], "height": max(800, int(trends.bounding_box()["height"]) + 40)})
    trends.screenshot(path=str(screenshot(page, f"issue28-trends-{name}-{size}").with_name(
        f"issue28-trends-{name}-{size}-card.png")))


def test_weekly_switches_to_monthly_and_back(tab):
    page = tab
    page.goto("/stations/1/")
    sizes = page.get_by_test_id("trend-sizes")
    expect(sizes.locator('[data-label="Super fans"] [data-testid="trend-point"]')).to_have_count(WEEKS)
    page.get_by_test_id("trend-interval").select_option("month")
    page.get_by_test_id("trend-weeks").select_option("13")
    page.get_by_test_id("trend-apply").click()
    expect(page).to_have_url(re.compile(r"interval=month&weeks=13"))
    expect(page.get_by_test_id("trends")).to_have_attribute("data-interval", "month")
    months = page.get_by_test_id("trend-sizes").locator('[data-label="Super fans"] [data-testid="trend-point"]')
    assert 2 <= months.count() <= 4
    expect(page.get_by_test_id("trend-sizes").get_by_test_id("trend-table").locator("th[scope=col]").first
           ).to_have_text("Month")
    page.get_by_test_id("trend-interval").select_option("week")
    page.get_by_test_id("trend-apply").click()
    expect(page.get_by_test_id("trends")).to_have_attribute("data-interval", "week")


def test_a_column_opens_the_explorer_on_that_segment_s_listeners(tab):
    page = tab
    page.goto("/stations/1/")
    row = page.get_by_test_id("trend-sizes").locator('[data-label="Dormant"]')
    row.get_by_test_id("trend-point").last.click()
    expect(page).to_have_url(re.compile(r"/stations/1/explorer\?segment=dormant$"))
    expect(page.get_by_test_id("listener-row")).to_have_count(6)


def test_a_station_without_history_says_so_and_how_it_gets_one(tab, screenshot):
    size = "phone"
    page = tab
    page.set_viewport_size(SIZES[size])
    page.goto("/stations/2/")
    empty = page.get_by_test_id("trends-empty")
    expect(empty).to_contain_text("No history yet for Coast Radio")
    empty.scroll_into_view_if_needed()
    fits_and_is_accessible(page, size)
    page.get_by_test_id("trends").screenshot(path=str(screenshot(page, f"issue28-trends-empty-{size}").with_name(
        f"issue28-trends-empty-{size}-card.png")))
