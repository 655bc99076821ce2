"""Search in headless Chromium: a plain-language query swaps in ranked results with their scores and why they
matched, a result opens its listener, whose page then loads the listeners like them."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.db


def test_a_query_shows_ranked_results_with_scores_and_why_they_matched(open_tab, screenshot):
    tab = open_tab("/stations/1/search")
    expect(tab.get_by_test_id("search-prompt")).to_be_visible()
    tab.get_by_label("What listeners are you looking for?").fill("listeners who request gospel songs")
    tab.get_by_label("Lowest score").fill("0.5")  # the demo station's best scores depend on the model
    tab.get_by_role("button", name="Search").click()
    tab.wait_for_url(re.compile(r".*/stations/1/search\?q=listeners(\+|%20)who.*"))
    rows = tab.get_by_test_id("result")
    expect(rows.first).to_be_visible()
    expect(tab.get_by_test_id("search-form")).to_have_count(1)  # only the results were swapped
    scores = [float(s) for s in tab.get_by_test_id("score").evaluate_all("els => els.map(e => e.dataset.score)")]
    assert scores == sorted(scores, reverse=True) and all(0.5 <= s <= 1 for s in scores)
    expect(rows.first.get_by_test_id("matched").locator("li").first).not_to_be_empty()
    expect(tab.get_by_role("button", name="About the score")).to_be_visible()
    screenshot(tab, "search-results")


def test_a_filter_narrows_the_listeners_ranked_at_once(open_tab):
    tab = open_tab("search")
    expect(tab.get_by_test_id("result").first).to_be_visible()
    everyone = int(tab.get_by_test_id("search-candidates").inner_text().replace(",", ""))
    tab.get_by_test_id("search-gender").locator("select").select_option("female")
    tab.wait_for_url(re.compile(r".*gender=female.*"))
    expect(tab.get_by_test_id("search-candidates")).not_to_have_text(f"{everyone:,}")
    assert 0 < int(tab.get_by_test_id("search-candidates").inner_text().replace(",", "")) < everyone
    expect(tab.get_by_test_id("search-form").locator("select[name=gender]")).to_have_value("female")


def test_a_bad_limit_in_the_address_is_explained_on_the_page(open_tab):
    tab = open_tab("/stations/1/search?q=gospel&limit=5000")  # the form's own field refuses it before sending
    problem = tab.locator("[data-testid=problem][data-param=limit]")
    expect(problem).to_contain_text("Must be between 1 and 1000.")
    expect(tab.get_by_test_id("search-limit")).to_have_value("5000")


def test_a_result_opens_its_listener_whose_page_loads_the_listeners_like_them(open_tab):
    tab = open_tab("search")
    first = tab.get_by_test_id("result").first
    originator = first.get_attribute("data-originator")
    first.get_by_test_id("result-link").click()
    tab.wait_for_url(f"**/stations/1/listeners/{originator}")
    panel = tab.get_by_test_id("similar")
    expect(panel.get_by_role("heading", name="Listeners like this one")).to_be_visible()
    expect(panel).to_have_attribute("data-loaded", "true")
    alike = panel.get_by_test_id("similar-row")
    if alike.count():
        assert originator not in alike.evaluate_all("els => els.map(e => e.dataset.originator)")
        expect(alike.first.get_by_test_id("score")).to_be_visible()
    else:
        expect(panel.get_by_test_id("similar-none")).to_be_visible()


def test_without_scripts_the_panel_is_a_link_to_the_listeners_like_them(open_tab, dashboard):
    tab = open_tab("listener", scripts=False)
    tab.get_by_test_id("similar-link").click()
    tab.wait_for_url("**/similar")
    expect(tab.get_by_role("heading", level=1)).to_contain_text("Listeners like")
    expect(tab.get_by_test_id("similar")).to_have_attribute("data-loaded", "true")


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_page_says_how_the_query_was_read_and_a_criterion_can_be_read_as_words_instead(open_tab, screenshot,
                                                                                            size):
    tab = open_tab("/stations/1/search?q=gospel+fans+on+WhatsApp", size)
    understood = tab.get_by_test_id("search-understood")
    chips = understood.get_by_test_id("understood-chip")
    expect(chips).to_have_count(2)
    expect(chips.nth(0)).to_contain_text("gospel")
    expect(chips.nth(1)).to_contain_text("WhatsApp")
    expect(understood).to_contain_text("Every listener shown has all of these")
    scores = tab.get_by_test_id("score").evaluate_all("els => els.map(e => e.dataset.score)")
    scores = [float(s) for s in scores]  # how strongly each meets it: more and more recent interactions first
    assert scores and scores == sorted(scores, reverse=True) and all(0.7 <= s <= 1 for s in scores)
    screenshot(tab, f"search-understood-{size}")
    chips.nth(1).click()  # read "WhatsApp" as plain words: the channel is no longer required
    tab.wait_for_url(re.compile(r".*as_text=WhatsApp.*"))
    expect(tab.get_by_test_id("understood-chip")).to_have_count(1)
    expect(tab.get_by_test_id("understood-free-text")).to_contain_text("WhatsApp")
