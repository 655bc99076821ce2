"""The explorer at a phone's size and a laptop's, in headless Chromium: on a phone the count and the listeners come
first and the filters open in a drawer; on a laptop the filters are a sidebar and the table fits with every column."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.db


def top(tab, testid: str) -> float:
    return tab.get_by_test_id(testid).first.bounding_box()["y"]


def test_on_a_phone_the_count_and_the_listeners_come_before_the_filters_which_open_in_a_drawer(open_tab, screenshot):
    tab = open_tab("explorer", "phone")
    expect(tab.get_by_test_id("filters")).to_be_hidden()
    assert top(tab, "match-count") < top(tab, "listener-table") < top(tab, "kpis")
    screenshot(tab, "explorer-phone-results-first")
    tab.get_by_test_id("open-filters").click()
    drawer = tab.get_by_test_id("filters-drawer")
    expect(drawer).to_be_visible()
    screenshot(tab, "explorer-phone-filters-drawer")
    drawer.get_by_label("Dormant").check()
    expect(tab).to_have_url(re.compile(r"segment=dormant"))
    drawer.get_by_test_id("filters-done").click()
    expect(drawer).to_be_hidden()
    expect(tab.get_by_test_id("open-filters")).to_contain_text("Filters · 1")
    count = int(tab.get_by_test_id("match-count").inner_text().replace(",", ""))
    assert 0 < count < 20_000


def test_on_a_phone_each_listener_is_a_card_whose_values_are_named(open_tab):
    tab = open_tab("explorer", "phone")
    row = tab.get_by_test_id("listener-row").first
    box = row.bounding_box()
    assert box["width"] <= 390 and box["height"] > 150  # a card of stacked values, not a row that scrolls sideways
    labels = row.locator("td[data-label]").evaluate_all("cells => cells.map(c => getComputedStyle(c, '::before')"
                                                        ".content)")
    assert '"Segment"' in labels and '"Location"' in labels and '"Opt-in"' in labels


def test_on_a_laptop_the_filters_are_a_sidebar_and_the_table_fits_with_location_and_opt_in(open_tab, screenshot):
    tab = open_tab("explorer", "laptop")
    expect(tab.get_by_test_id("filters")).to_be_visible()
    expect(tab.get_by_test_id("open-filters")).to_be_hidden()
    table = tab.get_by_test_id("listener-table")
    table.scroll_into_view_if_needed()
    assert table.evaluate("t => t.scrollWidth <= t.closest('.table-wrap').clientWidth + 1"), "the table scrolls"
    for name in ("Location", "Opt-in"):
        header = table.locator("thead th").filter(has_text=name)
        assert header.bounding_box()["x"] + header.bounding_box()["width"] <= 1280
    screenshot(tab, "explorer-laptop-table")
