"""Intelligence in the dashboard, in headless Chromium: the churn-risk panel of a listener's page and a segment's
profile page, reached from the overview's segment list."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.db


def test_the_listener_page_shows_the_churn_risk_with_its_signals_in_words(open_tab):
    tab = open_tab("listener")
    panel = tab.get_by_test_id("churn-risk")
    expect(panel.get_by_role("heading", name="Chance of going quiet")).to_be_visible()
    expect(tab.get_by_test_id("churn-level")).to_have_text(re.compile(r"^(Low|Medium|High) risk · \d{1,3} of 100$"))
    expect(panel.get_by_test_id("churn-signal").first).to_contain_text("Last heard from")
    assert panel.get_attribute("data-level") in ("low", "medium", "high")
    expect(panel.get_by_test_id("churn-and-segment")).to_contain_text("looks ahead to the next 30 days")
    backtest = panel.get_by_test_id("churn-backtest")
    expect(backtest).to_contain_text(re.compile(r"ranked who went quiet correctly \d+% of the time"))
    expect(backtest).to_contain_text("days since the last interaction")


def test_the_overview_links_each_segment_to_its_profile_page(open_tab):
    tab = open_tab("overview")
    tab.locator("[data-testid=segment-row][data-segment=show_loyalist]").get_by_test_id("segment-profile-link").click()
    tab.wait_for_url("**/stations/1/segments/show_loyalist")
    expect(tab.get_by_role("heading", level=1)).to_contain_text("Show loyalists")


def test_the_segment_page_sets_the_segment_against_the_station(open_tab, screenshot):
    tab = open_tab("segment")
    expect(tab.get_by_role("heading", level=1)).to_contain_text("Super fans")
    size = int(tab.get_by_test_id("segment-size").inner_text().replace(",", ""))
    assert size > 0
    for group in ("declared", "inferred", "channels", "interests", "engagement"):
        expect(tab.get_by_test_id(f"group-{group}")).to_be_visible()
    traits = tab.get_by_test_id("trait")
    expect(traits.first).to_contain_text("of the profiled super fans")
    expect(traits.first).to_contain_text("times as many")
    gender = tab.get_by_test_id("profile-gender")
    gender.get_by_text("Show as a table").click()
    expect(gender.locator("thead")).to_contain_text("Of the station")
    screenshot(tab, "segment-super_fan")


def test_a_bar_of_the_segment_page_opens_the_explorer_on_those_listeners(open_tab):
    tab = open_tab("segment")
    tab.get_by_test_id("profile-channel_type").locator("a.bar-label").first.click()
    tab.wait_for_url("**/explorer?segment=super_fan&channel_type=*")
    expect(tab.get_by_role("heading", level=1)).to_be_visible()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_listener_page_shows_who_behaves_alike_with_what_they_share(open_tab, screenshot, size):
    tab = open_tab("listener", size)
    panel = tab.get_by_test_id("similar")
    expect(panel).to_have_attribute("data-loaded", "true")
    expect(panel.get_by_test_id("similar-note").or_(panel.get_by_test_id("similar-none"))).to_be_visible()
    rows = panel.get_by_test_id("similar-row")
    if rows.count():
        expect(rows.first.get_by_test_id("similar-shares")).to_contain_text("Shares ")
        scores = [float(s) for s in rows.get_by_test_id("score").evaluate_all("els => els.map(e => e.dataset.score)")]
        assert scores == sorted(scores, reverse=True) and all(s >= 0.75 for s in scores)
    assert tab.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    panel.scroll_into_view_if_needed()
    screenshot(tab, f"listener-lookalikes-{size}")
