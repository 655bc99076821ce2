"""Audiences in headless Chromium on the demo station: a theme previewed (queries, members with scores, the price)
then saved; the detail with its members; the CSV download; a refresh that says who joined; deletion behind its
confirmation; "Save as audience" from a search and from the explorer. Each page fits a phone and a laptop, passes
axe and breaks no Content-Security-Policy rule; screenshots under screenshots/."""
from __future__ import annotations

import csv
import re

import pytest
from playwright.sync_api import expect

from core.access.users import create_user
from core.audiences import store
from core.credits.ledger import account
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.conftest import kept, seeded
from tests.factories import make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD, SIZES
from tests.webapp.test_ai_browser import check_page

pytestmark = pytest.mark.db

PRODUCER = "thandi@jozi.fm"
THEME = "gospel music and church worship"
GOSPEL = ["Please play Rebecca Malope, praise and worship this Sunday", "Amen, the gospel choir was a blessing"]


@pytest.fixture
@kept
def demo(app):
    """The demo station (200 listeners, its demo credits), embedded; a producer of it."""
    seeded(200, embedded=True)
    create_user(PRODUCER, PASSWORD, companies=[1], name="Thandi Mokoena")
    return 1


@pytest.fixture
def signed_in(page, signed_in_as, demo):
    """The producer's tab, signed in (each test goes to its page first)."""
    signed_in_as(PRODUCER)
    return page


def saved(name: str = "Sunday gospel", theme: str = THEME, **overrides) -> dict:
    return store.create_audience(1, name, theme, **{"min_score": 0.5, "limit": 60, **overrides})


def test_a_theme_is_previewed_then_saved_with_the_previewed_searches(signed_in, csp_violations):
    tab = signed_in
    tab.goto("/stations/1/audiences")
    expect(tab.get_by_test_id("audiences-empty")).to_be_visible()
    tab.get_by_test_id("audience-new").click()
    tab.get_by_label("Name").fill("Sunday gospel")
    tab.get_by_label("Theme").fill(THEME)
    tab.get_by_label("Lowest score").fill("0.5")
    before = account(1)["balance"]
    tab.get_by_role("button", name="Preview · 2 credits").click()
    preview = tab.get_by_test_id("audience-preview")
    expect(preview.get_by_test_id("preview-receipt")).to_contain_text("This preview cost 2 credits")
    expect(preview.get_by_test_id("preview-query").first).to_be_visible()
    expect(preview.get_by_test_id("preview-member").first).to_be_visible()
    queries = preview.get_by_test_id("preview-query").locator(".audience-query").evaluate_all(
        "els => els.map(e => e.textContent)")
    assert preview.get_by_test_id("member-query").first.inner_text() in queries
    assert account(1)["balance"] == before - 2
    tab.get_by_role("button", name="Save audience · 2 credits").click()
    tab.wait_for_url(re.compile(r".*/stations/1/audiences/[\w-]+$"))
    expect(tab.get_by_test_id("audience-name")).to_have_text("Sunday gospel")
    expect(tab.locator(".flash")).to_contain_text("saved with")
    expect(tab.get_by_test_id("member").first).to_be_visible()
    made = store.list_audiences(1)["audiences"][0]
    assert made["provider"] == "given" and [f"“{q['query']}”" for q in made["queries"]] == queries
    assert account(1)["balance"] == before - 4
    assert csp_violations == []


def test_the_csv_export_downloads_every_member(signed_in):
    made = saved()
    signed_in.goto(f"/stations/1/audiences/{made['audience_id']}")
    with signed_in.expect_download() as download:
        signed_in.get_by_test_id("audience-export").click()
    assert download.value.suggested_filename == "audience_sunday-gospel.csv"
    with open(download.value.path(), newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == made["member_count"] > 0
    assert {"originator", "score", "query", "segment", "reachable"} <= set(rows[0])


def test_a_refresh_says_who_joined_who_left_and_how_many_stayed(signed_in):
    made = saved(limit=500)
    make_listener(1, "27829990001", [event(2 + i, message=m) for i, m in enumerate(GOSPEL * 3)], name="Newcomer",
                  tags=["gospel"])  # the theme asks for gospel, which the station knows as a tag
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    signed_in.goto(f"/stations/1/audiences/{made['audience_id']}")
    signed_in.get_by_role("button", name="Refresh · 2 credits").click()
    changes = signed_in.get_by_test_id("audience-changes")
    expect(changes).to_be_visible()
    joined = changes.get_by_test_id("changes-joined")
    expect(joined).to_have_text(re.compile(r"^[1-9]\d*$"))  # the newcomer; their words may tell of others too
    expect(changes.get_by_test_id("changes-left")).to_have_text("0")
    expect(changes.get_by_test_id("changes-stayed")).to_have_text(str(made["member_count"]))
    changes.get_by_text(f"Who joined ({joined.inner_text()})").click()
    expect(changes.get_by_test_id("changes-joined-list")).to_contain_text("27829990001")
    assert signed_in.url.endswith(f"/stations/1/audiences/{made['audience_id']}")  # not .../refresh
    count = joined.inner_text()
    signed_in.reload()  # reloading shows the page again; it refreshes (and spends) nothing
    expect(signed_in.get_by_test_id("changes-joined")).to_have_text(count)


def test_delete_asks_first_and_cancel_keeps_the_audience(signed_in):
    made = saved()
    signed_in.goto(f"/stations/1/audiences/{made['audience_id']}")
    signed_in.get_by_test_id("audience-delete").click()
    expect(signed_in.get_by_role("heading", name="Delete “Sunday gospel”?")).to_be_visible()
    signed_in.get_by_test_id("delete-cancel").click()
    expect(signed_in.get_by_test_id("audience-name")).to_have_text("Sunday gospel")
    signed_in.get_by_test_id("audience-delete").click()
    signed_in.get_by_role("button", name="Delete for good").click()
    signed_in.wait_for_url(re.compile(r".*/stations/1/audiences$"))
    expect(signed_in.locator(".flash")).to_have_text("Audience “Sunday gospel” was deleted.")
    expect(signed_in.get_by_test_id("audiences-empty")).to_be_visible()
    assert store.list_audiences(1)["total"] == 0


def test_a_search_is_saved_as_an_audience_with_its_query_and_filters(signed_in):
    signed_in.goto("/stations/1/search?q=song+requests+for+gospel+music&min_score=0.5&gender=female")
    signed_in.get_by_test_id("save-as-audience").click()
    expect(signed_in.get_by_label("Theme")).to_have_value("song requests for gospel music")
    expect(signed_in.locator("[data-testid=chip][data-filter=gender]")).to_contain_text("Female")
    signed_in.get_by_label("Name").fill("Gospel women")
    signed_in.get_by_label("Lowest score").fill("0.5")
    signed_in.get_by_role("button", name="Preview · 2 credits").click()
    expect(signed_in.get_by_test_id("preview-member").first).to_be_visible()
    signed_in.get_by_role("button", name="Save audience · 2 credits").click()
    expect(signed_in.get_by_test_id("audience-filters")).to_have_text("Gender: Female")
    genders = signed_in.get_by_test_id("member").evaluate_all("rows => rows.map(r => r.cells[3].textContent.trim())")
    assert genders and all(g.startswith("Female") for g in genders)


def test_an_explorer_view_is_saved_as_an_audience_with_its_filters(signed_in):
    signed_in.goto("/stations/1/explorer?segment=super_fan")
    signed_in.get_by_test_id("save-as-audience").click()
    expect(signed_in.locator("[data-testid=chip][data-filter=segment]")).to_contain_text("Super fan")
    expect(signed_in.get_by_label("Theme")).to_have_value("")


@pytest.mark.parametrize("size", SIZES)
def test_the_audience_pages_fit_a_phone_and_a_laptop(signed_in, screenshot, size):
    made = saved()
    saved(name="Soccer talk: fans who call in about the derby", theme="soccer and football talk")
    signed_in.set_viewport_size(SIZES[size])
    signed_in.goto("/stations/1/audiences")
    expect(signed_in.get_by_test_id("audience-row")).to_have_count(2)
    check_page(signed_in)
    screenshot(signed_in, f"audiences-{size}")
    signed_in.goto(f"/stations/1/audiences/{made['audience_id']}")
    expect(signed_in.get_by_test_id("member").first).to_be_visible()
    check_page(signed_in)
    screenshot(signed_in, f"audience-{size}")
    signed_in.goto("/stations/1/audiences/new?theme=gospel&gender=female")
    signed_in.get_by_label("Lowest score").fill("0.5")
    signed_in.get_by_role("button", name="Preview · 2 credits").click()
    expect(signed_in.get_by_test_id("preview-member").first).to_be_visible()
    check_page(signed_in)
    screenshot(signed_in, f"audience-new-{size}")
