"""The dashboard in headless Chromium: what a producer sees after signing in."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.segmentation.rules import LABELS, SEGMENTS

pytestmark = pytest.mark.db


def test_producer_signs_in_and_sees_the_overview(page, sign_in, producer, screenshot):
    page.goto("/login")
    screenshot(page, "login")
    sign_in(producer)

    expect(page).to_have_url(re.compile(r"/stations/1/$"))
    expect(page.get_by_test_id("station-name")).to_have_text("Jozi FM")
    expect(page.get_by_test_id("total-listeners")).to_have_text("12,480")
    rows = page.get_by_test_id("segment-row")
    expect(rows).to_have_count(7)
    for key in SEGMENTS:
        expect(page.locator(f'[data-testid="segment-row"][data-segment="{key}"]')).to_contain_text(LABELS[key])
    expect(page.locator('[data-segment="occasional_engager"]').first).to_contain_text("3,380")
    expect(page.get_by_test_id("insight")).to_have_count(7)
    expect(page.get_by_test_id("headline")).to_contain_text("12,480 listeners")
    expect(page.get_by_test_id("tags-table")).to_contain_text("Breakfast-club")
    matrix = page.get_by_test_id("movement-matrix")
    expect(matrix.get_by_role("row", name=re.compile("^Super fans"))).to_contain_text("120")
    expect(page.get_by_test_id("highlights")).to_contain_text(
        "120 super fans are now at risk, most of them Breakfast Show listeners")
    expect(page.get_by_test_id("signed-in-user")).to_contain_text("Thandi Mokoena")
    screenshot(page, "overview")


def test_wrong_password_shows_an_error_and_stays_on_login(page, sign_in, producer, screenshot):
    sign_in(producer, "not-the-password")
    expect(page.get_by_test_id("login-error")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login"))
    screenshot(page, "login-error")


def test_user_of_two_stations_picks_one_and_switches(page, sign_in, manager, screenshot):
    sign_in(manager)
    expect(page).to_have_url(re.compile(r"/stations$"))
    expect(page.get_by_test_id("station-list").get_by_role("link")).to_have_count(2)
    screenshot(page, "picker")

    page.get_by_test_id("station-list").get_by_role("link", name=re.compile("Coast Radio")).click()
    expect(page).to_have_url(re.compile(r"/stations/2/$"))
    expect(page.get_by_test_id("total-listeners")).to_have_text("5,310")
    expect(page.get_by_test_id("movements-empty")).to_contain_text("this is the first segmentation")
    screenshot(page, "overview-first-run")

    page.get_by_test_id("station-switcher").locator("summary").click()
    page.get_by_test_id("station-switcher").get_by_role("link", name=re.compile("Jozi FM")).click()
    expect(page).to_have_url(re.compile(r"/stations/1/$"))
    expect(page.get_by_test_id("station-name")).to_have_text("Jozi FM")
    expect(page.get_by_test_id("total-listeners")).to_have_text("12,480")


def test_producer_cannot_open_another_station(page, sign_in, producer, screenshot):
    sign_in(producer)
    expect(page.get_by_test_id("total-listeners")).to_be_visible()
    response = page.goto("/stations/2/")
    assert response.status == 403
    expect(page.get_by_test_id("error-page")).to_be_visible()
    body = page.locator("body").inner_text()
    assert "Coast Radio" not in body and "5,310" not in body
    screenshot(page, "forbidden")


def test_sign_out_returns_to_login_and_closes_the_dashboard(page, sign_in, producer):
    sign_in(producer)
    page.get_by_test_id("logout").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    expect(page.get_by_text("You have signed out.")).to_be_visible()
    page.goto("/stations/1/")
    expect(page).to_have_url(re.compile(r"/login\?next="))


def test_refresh_swaps_the_overview_in_place(page, sign_in, producer):
    sign_in(producer)
    page.wait_for_url(re.compile(r".*/stations/1/$"))  # the sign-in's redirect may still be on its way (seen in CI)
    page.wait_for_load_state("load")  # and htmx ready: before it has read the button, a click does nothing (seen too)
    page.evaluate("document.getElementById('overview-body').dataset.marker = 'old'")
    with page.expect_response(re.compile(r"/stations/1/$")) as answer:
        page.get_by_role("button", name="Reload figures").click()
    assert answer.value.request.headers.get("hx-request") == "true"
    expect(page.locator("#overview-body:not([data-marker])")).to_be_visible()
    expect(page.get_by_test_id("total-listeners")).to_have_text("12,480")
