"""The explorer and the listener page in headless Chromium, driven as a producer would."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from core.segmentation.runs import segment_company
from core.stations.models import Show
from tests.conftest import kept, seeded
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

PRODUCER = "thandi@jozi.fm"


def busy(i: int) -> list[dict]:
    """Twenty interactions over the last two weeks on two channels: a super fan."""
    return [event(0.5 + 0.7 * k + i / 100, channel=1 + k % 2, timeslot=3 if k % 3 == 0 else None) for k in range(20)]


@pytest.fixture
@kept
def jozi(app):
    """Jozi FM: 30 women and 5 men who are super fans, 5 dormant women; a producer of the station (built by the
    module's first test, restored for the others)."""
    make_company(1, name="Jozi FM")
    for i in range(30):
        make_listener(1, f"278200{i:05d}", busy(i), name=f"Fan {i:02d}", gender="female", location="Soweto")
    for i in range(5):
        make_listener(1, f"278210{i:05d}", busy(i), name=f"Male fan {i}", gender="male")
        make_listener(1, f"278220{i:05d}", [event(120 + i)], name=f"Sleeper {i}", gender="female")
    segment_company(1, NOW)
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")


def mark_document(page) -> None:
    """A marker that only survives as long as the page is not loaded again."""
    page.evaluate("window.__sameDocument = true")


def same_document(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


def test_producer_filters_paginates_opens_and_erases_a_listener(page, sign_in, jozi, screenshot):
    sign_in(PRODUCER)
    page.get_by_role("navigation", name="Station pages").get_by_role("link", name="Explorer").click()
    expect(page).to_have_url(re.compile(r"/stations/1/explorer$"))
    expect(page.get_by_test_id("match-count")).to_have_text("40")
    mark_document(page)

    page.get_by_test_id("filter-segment").get_by_label("Super fans").check()
    expect(page.get_by_test_id("match-count")).to_have_text("35")
    page.get_by_test_id("group-declared").locator("summary").click()
    page.get_by_test_id("filter-gender").get_by_label("Female").check()
    expect(page.get_by_test_id("match-count")).to_have_text("30")
    expect(page).to_have_url(re.compile(r"segment=super_fan"))
    expect(page).to_have_url(re.compile(r"gender=female"))
    expect(page.get_by_test_id("chip")).to_have_count(2)
    assert same_document(page), "the filters reloaded the whole page"
    screenshot(page, "explorer-filtered")

    page.reload()
    expect(page.get_by_test_id("match-count")).to_have_text("30")
    expect(page.get_by_test_id("filter-segment").get_by_label("Super fans")).to_be_checked()
    expect(page.get_by_test_id("filter-gender").get_by_label("Female")).to_be_checked()
    expect(page.get_by_test_id("listener-row")).to_have_count(25)
    mark_document(page)

    page.get_by_test_id("page-next").click()
    expect(page).to_have_url(re.compile(r"page=2"))
    expect(page.get_by_test_id("listener-row")).to_have_count(5)
    assert same_document(page)
    row = page.get_by_test_id("listener-row").first
    originator = row.get_attribute("data-originator")

    row.get_by_role("link", name=originator).click()
    expect(page).to_have_url(re.compile(rf"/stations/1/listeners/{originator}$"))
    expect(page.get_by_test_id("listener-originator")).to_have_text(originator)
    expect(page.get_by_test_id("reason").first).to_contain_text("interactions in the last 30 days")

    page.get_by_test_id("erase-open").click()
    dialog = page.get_by_test_id("erase-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("irreversible")
    screenshot(page, "listener-erase-confirmation")
    dialog.get_by_test_id("erase-confirm").click()

    expect(page).to_have_url(re.compile(r"/stations/1/explorer\?.*segment=super_fan"))
    expect(page.locator(".flash")).to_contain_text(f"Listener {originator} was erased")
    expect(page.get_by_test_id("match-count")).to_have_text("29")
    expect(page.locator(f'[data-originator="{originator}"]')).to_have_count(0)
    screenshot(page, "explorer-after-erasure")
    page.goto(f"/stations/1/listeners/{originator}")
    expect(page.get_by_test_id("error-page")).to_be_visible()


def test_cancelling_the_confirmation_erases_nobody(page, signed_in_as, jozi):
    signed_in_as(PRODUCER)
    page.goto("/stations/1/listeners/27820000000")
    page.get_by_test_id("erase-open").click()
    page.get_by_test_id("erase-dialog").get_by_role("button", name="Cancel").click()
    expect(page.get_by_test_id("erase-dialog")).to_be_hidden()
    page.reload()
    expect(page.get_by_test_id("listener-name")).to_have_text("Fan 00")


def test_typing_a_name_filters_as_you_type_and_a_chip_removes_it(page, signed_in_as, jozi):
    signed_in_as(PRODUCER)
    page.goto("/stations/1/explorer")
    page.get_by_test_id("group-contact").locator("summary").click()
    page.get_by_test_id("filter-name").get_by_role("textbox").fill("Male fan")
    expect(page.get_by_test_id("match-count")).to_have_text("5")
    expect(page).to_have_url(re.compile(r"name=Male(\+|%20)fan"))

    page.get_by_test_id("chip").click()
    expect(page.get_by_test_id("match-count")).to_have_text("40")
    expect(page).to_have_url(re.compile(r"/stations/1/explorer$"))
    expect(page.locator('#explorer-filters input[name="name"]')).to_have_value("")


def test_an_exclusion_of_the_address_stays_while_other_filters_change_and_its_chip_removes_it(page, signed_in_as, jozi):
    signed_in_as(PRODUCER)
    page.goto("/stations/1/explorer?exclude_gender=male")
    expect(page.get_by_test_id("match-count")).to_have_text("35")
    chip = page.locator('[data-testid="chip"][data-filter="exclude_gender"]')
    expect(chip).to_contain_text("Gender")
    expect(chip).to_contain_text("not Male")
    page.get_by_test_id("filter-segment").get_by_label("Super fans").check()
    expect(page.get_by_test_id("match-count")).to_have_text("30")
    expect(page).to_have_url(re.compile(r"exclude_gender=male"))

    page.locator('[data-testid="chip"][data-filter="exclude_gender"]').click()
    expect(page.get_by_test_id("match-count")).to_have_text("35")
    expect(page).not_to_have_url(re.compile(r"exclude_gender"))


def test_page_size_and_the_back_button(page, signed_in_as, jozi):
    signed_in_as(PRODUCER)
    page.goto("/stations/1/explorer")
    page.get_by_test_id("page-size").select_option("50")
    expect(page.get_by_test_id("listener-row")).to_have_count(40)
    expect(page).to_have_url(re.compile(r"page_size=50"))
    page.get_by_test_id("filter-segment").get_by_label("Dormant").check()
    expect(page.get_by_test_id("match-count")).to_have_text("5")
    page.go_back()
    expect(page.get_by_test_id("match-count")).to_have_text("40")


def test_an_invalid_value_in_the_address_is_explained(page, signed_in_as, jozi, screenshot):
    signed_in_as(PRODUCER)
    page.goto("/stations/1/explorer?segment=super_fan&peak_hour=99")
    problem = page.locator('[data-testid="problem"][data-param="peak_hour"]')
    expect(problem).to_contain_text("Must be between 0 and 23.")
    screenshot(page, "explorer-invalid-filter")
    problem.get_by_role("link", name="Remove it").click()
    expect(page.get_by_test_id("match-count")).to_have_text("35")


def test_demo_station_explorer_and_listener_page(page, sign_in, app, screenshot):
    seeded(1000)  # big enough for a count with a thousands separator; 2,000 took twice as long to import
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")
    sign_in(PRODUCER)
    page.goto("/stations/1/explorer")
    expect(page.get_by_test_id("match-count")).to_have_text("1,000")
    expect(page.get_by_test_id("listener-row")).to_have_count(25)
    expect(page.get_by_test_id("heat-map")).to_be_visible()
    screenshot(page, "explorer")

    page.get_by_test_id("filter-segment").get_by_label("At risk").check()
    expect(page.get_by_test_id("chip")).to_have_count(1)
    screenshot(page, "explorer-at-risk")

    row = page.get_by_test_id("listener-row").first
    row.get_by_role("link").click()
    expect(page.get_by_test_id("listener-page")).to_be_visible()
    expect(page.get_by_test_id("reason").first).to_be_visible()
    screenshot(page, "listener")


def schedule_day(i: int) -> dict:
    """Interaction `i` of a listener heard every hour back from 19 Nov 2026, 14:00 SAST: the show of that local hour
    (Breakfast Club 06:00-09:00, Drive Time 15:00-19:00), a channel in turn and now and then a message."""
    hour = (14 - i) % 24
    show = 3 if 6 <= hour < 9 else 7 if 15 <= hour < 19 else None
    message = "Please play some gqom for my mom in Tembisa!" if i % 7 == 0 else None
    return event(1 + i / 24, channel=1 + i % 3, timeslot=show, message=message,
                 campaign=("song_request", "competition", "shoutout")[i % 3])


@pytest.fixture
def regular(app):
    """Jozi FM with two shows, Lerato with 120 interactions an hour apart, and a producer of the station."""
    make_company(1, name="Jozi FM")
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=list(range(1, 8)), start="06:00", end="09:00").save()
    Show(company_id=1, timeslot_id=7, title="Drive Time", days=list(range(1, 8)), start="15:00", end="19:00").save()
    make_listener(1, "27820000001", [schedule_day(i) for i in range(120)], name="Lerato Mokoena", gender="female")
    segment_company(1, NOW)
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")
    return "/stations/1/listeners/27820000001"


def test_the_listener_page_pages_through_the_interaction_timeline(page, sign_in, regular, screenshot,
                                                                   csp_violations):
    sign_in(PRODUCER)
    page.goto(regular)
    timeline = page.get_by_test_id("timeline")
    expect(timeline.get_by_test_id("timeline-total")).to_have_text("120 interactions, newest first")
    entries = timeline.get_by_test_id("interaction")
    expect(entries).to_have_count(50)
    expect(entries.first.get_by_test_id("interaction-time")).to_have_text("19 Nov 2026, 14:00 SAST")
    expect(entries.first.get_by_test_id("interaction-message")).to_contain_text("gqom")
    expect(entries.nth(1)).to_contain_text("13:00 SAST")
    expect(entries.nth(1)).to_contain_text("outside every show")
    expect(entries.nth(6)).to_contain_text("19 Nov 2026, 08:00 SAST")
    expect(entries.nth(6).get_by_test_id("interaction-show")).to_have_text("Breakfast Club")
    for size, viewport in (("phone", {"width": 390, "height": 844}), ("laptop", {"width": 1280, "height": 800})):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, f"listener-timeline-{size}")
    mark_document(page)

    page.get_by_test_id("timeline-older").click()
    expect(entries).to_have_count(100)
    expect(entries.nth(50)).to_be_focused()
    expect(entries.nth(50).get_by_test_id("interaction-time")).to_have_text("17 Nov 2026, 12:00 SAST")
    expect(page).to_have_url(re.compile(rf"{regular}$"))
    page.get_by_test_id("timeline-older").click()
    expect(entries).to_have_count(120)
    expect(page.get_by_test_id("timeline-older")).to_have_count(0)
    assert same_document(page), "the older interactions reloaded the whole page"
    assert csp_violations == []
