"""Every dashboard page works under the Content-Security-Policy in Chromium, and none breaks it: no inline script,
no eval, no <style> element, htmx and the static script doing all the behaviour."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from core.segmentation.runs import segment_company
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

MANAGER = "sam@group.fm"
FAN = "27820000001"


@pytest.fixture
def two_stations(app):
    """Jozi FM with five listeners, segmented; Coast Radio with none; a manager of both."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    busy = [event(0.5 + 0.7 * k, channel=1 + k % 2) for k in range(20)]
    for i in range(4):
        make_listener(1, f"2782000000{i + 1}", busy, name=f"Fan {i}", gender="female")
    make_listener(1, "27821000001", [event(120)], name="Sleeper", gender="male")
    segment_company(1, NOW)
    create_user(MANAGER, PASSWORD, companies=[1, 2], name="Sam Naidoo")


def test_every_page_works_without_breaking_the_content_security_policy(page, sign_in, two_stations,
                                                                        csp_violations):
    page.goto("/login")
    sign_in(MANAGER)
    expect(page).to_have_url(re.compile(r"/stations$"))
    page.get_by_role("link", name=re.compile("Jozi FM")).first.click()
    expect(page.get_by_test_id("station-name")).to_have_text("Jozi FM")

    page.get_by_role("navigation", name="Station pages").get_by_role("link", name="Explorer").click()
    expect(page.get_by_test_id("match-count")).to_have_text("5")
    page.get_by_test_id("group-declared").locator("summary").click()
    page.get_by_test_id("filter-gender").get_by_label("Female").check()
    expect(page.get_by_test_id("match-count")).to_have_text("4")
    expect(page).to_have_url(re.compile(r"gender=female"))
    expect(page).not_to_have_url(re.compile(r"=&|=$"))  # empty fields were left out of the request
    page.get_by_test_id("group-contact").locator("summary").click()
    page.get_by_test_id("filter-name").get_by_role("textbox").fill("Fan 2")
    expect(page.get_by_test_id("match-count")).to_have_text("1")

    page.get_by_test_id("listener-row").first.get_by_role("link").click()
    expect(page.get_by_test_id("listener-name")).to_have_text("Fan 2")
    page.get_by_test_id("erase-open").click()
    expect(page.get_by_test_id("erase-dialog")).to_be_visible()
    page.get_by_test_id("erase-dialog").get_by_role("button", name="Cancel").click()
    expect(page.get_by_test_id("erase-dialog")).to_be_hidden()

    page.goto("/stations/2/")
    expect(page.get_by_test_id("station-name")).to_have_text("Coast Radio")
    page.goto("/stations/1/listeners/27899999999")
    expect(page.get_by_test_id("error-page")).to_be_visible()
    page.goto("/stations/1/")
    page.get_by_test_id("logout").click()
    expect(page).to_have_url(re.compile(r"/login$"))
    assert csp_violations == []
