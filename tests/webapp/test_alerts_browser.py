"""Alerts in headless Chromium: a producer makes a rule from plain choices, sees it in words, sees the alerts that
fired, and deletes a rule; the page fits a phone and a laptop, passes axe and breaks no Content-Security-Policy rule.
The weekly digest as a loopback SMTP server received it is rendered too, for people to look at. Screenshots under
screenshots/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from core.alerts.check import check_station
from core.alerts.store import create_rule, list_rules
from tests.conftest import kept
from tests.core.alerts.test_alert_mail import received_digest, smtp  # noqa: F401 - smtp is a fixture
from tests.factories import make_company
from tests.memory import NOW
from tests.webapp.conftest import PASSWORD, SCREENSHOTS, SIZES
from tests.webapp.test_ai_browser import check_page
from tests.webapp.test_alerts_pages import store_points

pytestmark = pytest.mark.db

PRODUCER = "thandi@jozi.fm"


@pytest.fixture
@kept
def station(app):
    """Station 1 (Jozi FM) with two points of history and its producer."""
    make_company(1, name="Jozi FM", timezone="Africa/Johannesburg")
    store_points()
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")


@pytest.fixture
def signed_in(page, signed_in_as, station):
    """The producer signed in (each test goes to its page first)."""
    signed_in_as(PRODUCER)
    return page


def test_a_rule_is_made_from_plain_choices_and_shown_in_words(signed_in, csp_violations):
    tab = signed_in
    tab.goto("/stations/1/alerts")
    expect(tab.get_by_test_id("rules-empty")).to_be_visible()
    tab.get_by_label("Watch").select_option(label="At risk")
    tab.get_by_label("When it").select_option("grows_by")
    tab.get_by_label("Threshold").fill("10")
    tab.get_by_label("E-mail, in the weekly digest").check()
    tab.get_by_label("E-mail addresses").fill("thandi@jozi.fm")
    tab.get_by_role("button", name="Save rule").click()
    rule = tab.get_by_test_id("alert-rule")
    expect(rule).to_contain_text("At risk grows by 10% week on week")
    expect(rule).to_contain_text("E-mail to thandi@jozi.fm (in the weekly digest).")
    expect(tab.locator(".flash")).to_contain_text("It is checked after each full run and every day.")
    assert csp_violations == []


def test_a_refusal_is_said_beside_its_field(signed_in):
    signed_in.goto("/stations/1/alerts")
    signed_in.get_by_label("Threshold").fill("lots")
    signed_in.get_by_role("button", name="Save rule").click()
    expect(signed_in.get_by_label("Threshold")).to_have_attribute("aria-invalid", "true")
    expect(signed_in.get_by_test_id("alert-problem")).to_contain_text("Give a number")
    assert list_rules(1)["total"] == 0


def test_a_rule_is_deleted_and_its_alerts_stay(signed_in):
    create_rule(1, "grows_by", "at_risk", 10, webhook=True)
    check_station(1, NOW)
    signed_in.goto("/stations/1/alerts")
    signed_in.get_by_role("button", name="Delete At risk grows by 10% week on week").click()
    expect(signed_in.get_by_test_id("rules-empty")).to_be_visible()
    expect(signed_in.get_by_test_id("alert-firing")).to_contain_text("1,100 on 20 November 2026, against 1,000")


@pytest.mark.parametrize("size", SIZES)
def test_the_alerts_page_fits_passes_axe_and_is_looked_at(signed_in, screenshot, size):
    create_rule(1, "grows_by", "at_risk", 10, webhook=True, email={"to": ["thandi@jozi.fm", "sipho@jozi.fm"]})
    create_rule(1, "under_monthly_mean", "new", 0, email={"to": ["thandi@jozi.fm"], "at_once": True})
    check_station(1, NOW)
    signed_in.set_viewport_size(SIZES[size])
    signed_in.goto("/stations/1/alerts")
    expect(signed_in.get_by_test_id("alert-firing")).to_have_count(1)
    check_page(signed_in)
    screenshot(signed_in, f"alerts-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_the_digest_as_received_reads_well_in_a_browser(browser, smtp, size):  # noqa: F811 - the fixture
    html = received_digest(smtp)[1].get_body(("html",)).get_content()
    context = browser.new_context(viewport=SIZES[size])
    tab = context.new_page()
    tab.set_content(html)
    expect(tab.get_by_role("heading", name="Jozi FM")).to_be_visible()
    expect(tab.get_by_role("row", name=re.compile(r"Super fans\s+980\s+1,050\s+1,200"))).to_be_visible()
    assert tab.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the digest scrolls sideways"
    SCREENSHOTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"alerts-digest-{size}.png"), full_page=True)
    context.close()
