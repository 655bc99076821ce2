"""The briefs page in headless Chromium on the demo station: a producer pastes a brief, reads it into filter chips,
removes one, and gets the recommendation for the filters that are left, with its figures, the audience's profile
and which of their filters overrode the brief; asked again, it comes from the cache for free. The page fits a phone
and a laptop, passes axe and breaks no Content-Security-Policy rule; screenshots under screenshots/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from core.credits.ledger import account
from core.demo.seed import DEMO_CREDITS
from tests.conftest import kept, seeded
from tests.webapp.conftest import PASSWORD, SIZES
from tests.webapp.test_ai_browser import check_page

pytestmark = pytest.mark.db

PRODUCER = "thandi@jozi.fm"
BRIEF = ("Reach super fans and show loyalists, women mostly, for a gospel concert on air 1-14 December. "
         "Budget R20 000 to sell concert tickets.")


@pytest.fixture
@kept
def demo(app):
    """The demo station (200 listeners, its demo credits) and its producer."""
    seeded(200)
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")


@pytest.fixture
def signed_in(page, signed_in_as, demo):
    """The producer signed in, on the page the sign-in leads to."""
    signed_in_as(PRODUCER, land=True)
    return page


def read_the_brief(tab) -> None:
    tab.get_by_role("navigation", name="Station pages").get_by_role("link", name="Briefs").click()
    tab.get_by_label("The brief").fill(BRIEF)
    tab.get_by_role("button", name="Read the brief · 1 credit").click()
    expect(tab.get_by_test_id("brief-parsed")).to_be_visible()


def test_a_brief_is_read_into_chips_one_is_removed_and_the_recommendation_follows(signed_in, csp_violations):
    tab = signed_in
    read_the_brief(tab)
    expect(tab.get_by_test_id("brief-receipt")).to_contain_text("Reading it cost 1 credit")
    expect(tab.get_by_test_id("brief-fact").filter(has_text="Budget")).to_contain_text("ZAR 20,000")
    chips = tab.get_by_test_id("brief-chip")
    expect(chips.filter(has=tab.locator("select[name=segment]"))).to_have_count(2)
    loyalists = tab.locator("[data-testid=brief-chip][data-filter=segment][data-value=show_loyalist]")
    loyalists.get_by_role("button", name=re.compile("^Remove Segment")).click()
    expect(loyalists).to_have_count(0)
    expect(tab.locator("[data-testid=brief-chip][data-filter=segment]")).to_have_count(1)
    tab.get_by_role("button", name="Recommend · 5 credits").click()
    reco = tab.get_by_test_id("reco")
    expect(reco.get_by_test_id("reco-cost")).to_have_text("5 credits")
    expect(reco.get_by_test_id("reco-summary")).not_to_be_empty()
    expect(reco.get_by_test_id("reco-overridden")).to_contain_text("Segment: the brief said")
    expect(reco.get_by_test_id("reco-filters")).not_to_contain_text("Show loyalists")
    expect(reco.get_by_test_id("reco-claim").first).to_contain_text("From the data:")
    segments = tab.get_by_test_id("profile-segments").locator("li")
    expect(segments).to_have_count(1)
    expect(segments.first).to_contain_text("Super fan")
    assert account(1)["balance"] == DEMO_CREDITS - 6
    tab.get_by_role("button", name="Recommend · 5 credits").click()
    expect(tab.get_by_test_id("reco-cached")).to_be_visible()
    assert account(1)["balance"] == DEMO_CREDITS - 6
    assert csp_violations == []


def test_a_filter_is_added_to_the_chips(signed_in):
    read_the_brief(signed_in)
    before = signed_in.get_by_test_id("brief-chip").count()
    signed_in.get_by_test_id("brief-add-field").select_option("opt_in")
    signed_in.get_by_test_id("brief-add-value").fill("true")
    signed_in.get_by_role("button", name="Add", exact=True).click()
    expect(signed_in.get_by_test_id("brief-chip")).to_have_count(before + 1)
    expect(signed_in.locator("[data-testid=brief-chip][data-filter=opt_in] select")).to_have_value("true")


@pytest.mark.parametrize("size", SIZES)
def test_the_briefs_page_with_a_recommendation_fits_a_phone_and_a_laptop(signed_in, screenshot, size):
    signed_in.set_viewport_size(SIZES[size])
    if size == "phone":
        signed_in.get_by_role("button", name="Menu").click()
    read_the_brief(signed_in)
    signed_in.get_by_role("button", name="Recommend · 5 credits").click()
    expect(signed_in.get_by_test_id("reco")).to_be_visible()
    check_page(signed_in)
    screenshot(signed_in, f"briefs-{size}")
