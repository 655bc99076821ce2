"""A saved plan in headless Chromium on the demo station: a producer reads a brief, recommends, saves the plan and
opens it on a phone and a laptop; the page fits the screen (no sideways scroll at 390 px, whatever the plan's name),
passes the every-page checks, and its PDF downloads. Screenshots under screenshots/."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from tests.conftest import seeded
from tests.webapp.conftest import PASSWORD, SCREENSHOTS, SIZES
from tests.webapp.test_ai_browser import check_page

pytestmark = pytest.mark.db

PRODUCER = "thandi@jozi.fm"
BRIEF = ("Reach super fans and show loyalists, young women mostly, for Soweto's biggest furniture-and-appliances "
         "Black-Friday-to-Christmas-clearance-extravaganza, runs 20-30 November. Budget R20 000 to sell lounge suites.")
WIDEST = """() => [...document.querySelectorAll('body *')].map(e => [e.getBoundingClientRect().right, e.tagName,
    e.className, (e.textContent || '').slice(0, 40)]).filter(r => r[0] > innerWidth).slice(0, 8)"""


@pytest.fixture
def saved_plan(page, sign_in, app) -> str:
    """The demo station (200 listeners), its producer signed in, and a plan saved from the brief: its path."""
    seeded(200)
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")
    sign_in(PRODUCER)
    page.wait_for_url(re.compile(r".*/stations.*"))
    page.goto("/stations/1/briefs")
    page.get_by_label("The brief").fill(BRIEF)
    page.get_by_role("button", name="Read the brief · 1 credit").click()
    expect(page.get_by_test_id("brief-parsed")).to_be_visible()
    page.get_by_role("button", name="Recommend · 5 credits").click()
    page.get_by_test_id("save-plan").click()
    expect(page.get_by_test_id("plan-saved")).to_be_visible()
    return page.url


@pytest.mark.parametrize("size", SIZES)
def test_the_saved_plan_page_fits_a_phone_and_a_laptop(page, saved_plan, screenshot, size):
    page.set_viewport_size(SIZES[size])
    page.goto(saved_plan)
    expect(page.get_by_test_id("reco-thin")).to_contain_text("per listener reached")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"{width} px wide: {page.evaluate(WIDEST)}"
    check_page(page)
    screenshot(page, f"plan-{size}")


def test_the_plan_s_pdf_downloads_from_its_page(page, saved_plan):
    with page.expect_download(timeout=30_000) as download:  # drawn when asked: over 10 s on a loaded run
        page.get_by_test_id("plan-pdf").click()
    assert download.value.suggested_filename.endswith(".pdf")
    SCREENSHOTS.mkdir(exist_ok=True)
    download.value.save_as(SCREENSHOTS / "plan.pdf")  # for people to look at beside the page's screenshots
