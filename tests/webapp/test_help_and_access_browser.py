"""How the dashboard is reached and read, in headless Chromium: the phone menu, the help tips, what htmx updates
announced to screen readers, the skip link, visible focus, charts as tables and long values cut with an ellipsis."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.explore.glossary import TEXTS
from tests.webapp.conftest import LONG_STATION

pytestmark = pytest.mark.db


def station_pages(tab):
    return tab.get_by_role("navigation", name="Station pages")


def test_on_a_phone_the_navigation_folds_into_a_menu_button(open_tab):
    tab = open_tab("overview", "phone")
    menu = tab.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(station_pages(tab)).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    station_pages(tab).get_by_role("link", name="Explorer").focus()
    tab.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(station_pages(tab)).to_be_hidden()


def test_the_phone_menu_leads_to_another_page(open_tab):
    tab = open_tab("overview", "phone")
    tab.get_by_role("button", name="Menu").click()
    station_pages(tab).get_by_role("link", name="Explorer").click()
    expect(tab.locator("h1")).to_have_text("Explorer")
    expect(tab.get_by_role("button", name="Menu")).to_have_attribute("aria-expanded", "false")


def test_on_a_laptop_the_navigation_shows_without_a_menu_button(open_tab):
    tab = open_tab("overview", "laptop")
    expect(tab.get_by_role("button", name="Menu")).to_be_hidden()
    expect(station_pages(tab).get_by_role("link", name="Explorer")).to_be_visible()


def test_without_scripts_the_phone_menu_stays_open(open_tab):
    tab = open_tab("overview", "phone", scripts=False)
    expect(tab.get_by_role("button", name="Menu")).to_be_hidden()
    expect(station_pages(tab).get_by_role("link", name="Explorer")).to_be_visible()


def test_the_navigation_links_to_the_glossary(open_tab):
    tab = open_tab("overview", "laptop")
    tab.get_by_role("navigation", name="Help").get_by_role("link", name="Glossary").click()
    expect(tab.locator("h1")).to_have_text("Glossary")
    expect(station_pages(tab).get_by_role("link", name="Explorer")).to_be_visible()  # the station's menu stays


def test_a_help_tip_shows_on_hover_and_on_keyboard_focus_and_hides_on_escape(open_tab):
    tab = open_tab("overview", "laptop")
    button = tab.get_by_role("button", name="About Super fans").first
    tip = tab.get_by_role("tooltip").filter(has_text=TEXTS["segment"]["super_fan"]).first
    expect(button).to_have_accessible_description(TEXTS["segment"]["super_fan"])
    expect(tip).to_be_hidden()
    button.hover()
    expect(tip).to_be_visible()
    tab.mouse.move(0, 0)
    expect(tip).to_be_hidden()
    button.focus()
    expect(tip).to_be_visible()
    tab.keyboard.press("Escape")
    expect(tip).to_be_hidden()


def test_a_help_tip_stays_within_a_phones_screen(open_tab):
    tab = open_tab("overview", "phone")
    button = tab.get_by_role("button", name="About changed segment")
    button.focus()
    box = tab.get_by_role("tooltip").filter(has_text=TEXTS["metric"]["changed_segment"]).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390


def test_every_filter_explains_itself(open_tab):
    tab = open_tab("explorer", "laptop")
    filters = tab.get_by_test_id("filters")
    expect(filters.get_by_role("button", name="About Segment")).to_have_accessible_description(
        TEXTS["filter"]["segment"])
    tab.get_by_test_id("group-time-patterns").locator("summary").click()
    expect(filters.get_by_role("button", name="About Mostly on weekdays")).to_have_accessible_description(
        TEXTS["filter"]["weekday_pattern"])


def test_while_htmx_loads_the_results_are_busy_and_then_announced(open_tab):
    tab = open_tab("explorer", "laptop")
    held = []
    tab.route(re.compile(r"/explorer\?"), lambda route: held.append(route))
    tab.get_by_test_id("filter-segment").get_by_label("Super fans").check()
    results = tab.get_by_test_id("results")
    expect(results).to_have_attribute("aria-busy", "true")
    for _ in range(200):  # the page marks itself busy before Playwright hands the held request to the route
        if held:
            break
        tab.wait_for_timeout(50)  # lets Playwright dispatch the route's callback
    held[0].continue_()
    expect(results).not_to_have_attribute("aria-busy", "true")
    count = tab.get_by_test_id("match-count").inner_text()
    expect(tab.locator("[data-announcer]")).to_have_text(f"{count} of 400 listeners match")


def test_a_page_reached_through_the_navigation_is_announced(open_tab):
    tab = open_tab("overview", "laptop")
    station_pages(tab).get_by_role("link", name="Explorer").click()
    expect(tab.locator("[data-announcer]")).to_have_text(re.compile(r"^Explorer"))
    expect(tab.locator("main")).to_be_focused()


def test_the_skip_link_is_the_first_stop_and_goes_to_the_content(open_tab):
    tab = open_tab("overview", "laptop")
    tab.keyboard.press("Tab")
    skip = tab.get_by_role("link", name="Skip to content")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    tab.keyboard.press("Enter")
    expect(tab.locator("main")).to_be_focused()


@pytest.mark.parametrize("name", ["overview", "explorer", "login"])
def test_the_keyboard_focus_is_always_visible(open_tab, name):
    tab = open_tab(name, "laptop")
    for _ in range(12):
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement === document.body"):
            break  # past the last control of the page
        outline = tab.evaluate("""() => { const s = getComputedStyle(document.activeElement);
            return [document.activeElement.outerHTML.slice(0, 80), s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
        assert outline[1] != "none" and outline[2] >= 2, outline


def test_a_chart_can_be_read_as_a_table(open_tab):
    tab = open_tab("explorer", "laptop")
    chart = tab.get_by_test_id("chart-segment")
    bar = chart.locator(".bar-row.seg-super_fan .bar-count").inner_text()
    chart.get_by_text("Show as a table").click()
    row = chart.get_by_role("table").get_by_role("row", name=re.compile("^Super fans"))
    expect(row.get_by_role("cell").first).to_have_text(bar)


def test_a_long_value_is_cut_with_an_ellipsis_and_shown_whole_on_hover(open_tab):
    tab = open_tab("stations", "laptop")
    name = tab.get_by_role("navigation", name="Your stations").locator(f'[title="{LONG_STATION}"]')
    expect(name).to_have_text(LONG_STATION)
    assert name.evaluate("el => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow")
    assert name.evaluate("el => getComputedStyle(el).textOverflow") == "ellipsis"
