"""AI in headless Chromium: the listener page's "Infer with AI" panel (confidences, the balance going down by the
price, then cached and free), promotion to declared, the pause an admin set shown before every paid button (each
off), and the AI insights page; each page fits a phone and a laptop and passes axe, with screenshots under
screenshots/."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from core.access.users import create_user
from core.config import activate, active
from core.credits.ledger import account, set_paused
from core.errors import Conflict
from core.listeners import snapshot
from core.listeners.models import Listener
from tests.factories import Stored, stored_listeners
from tests.openai_server import loopback_openai  # noqa: F401
from tests.webapp.conftest import PASSWORD, SCREENSHOTS, SIZES
from tests.webapp.test_every_page_browser import CONTROLS, overlaps

pytestmark = pytest.mark.db
AI_ANSWER_MS = 30_000
"""How long an AI answer may take: the first of a process builds the language detector and the station's models,
1.7 s on an idle machine and over 10 s on a loaded one (three test workers, their browsers and databases on two
cores). The tests ask what the answer says, not how soon."""


def signed_in_tab(browser, dashboard, email: str, size: str = "laptop", admin: bool = False):
    """A fresh tab signed in as this user (made on first use: an admin, or a producer of station 1)."""
    if not Listener.objects(company_id=1).count():
        pytest.fail("the dashboard fixture seeds station 1 first")
    try:
        create_user(email, PASSWORD, companies=[] if admin else [1], admin=admin, name=email.split("@")[0])
    except Conflict:  # made by an earlier test of the module
        pass
    context = browser.new_context(base_url=dashboard["url"], viewport=SIZES[size])
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.goto("/login")
    tab.get_by_label("Email").fill(email)
    tab.get_by_label("Password").fill(PASSWORD)
    tab.get_by_role("button", name="Sign in").click()
    tab.wait_for_url(re.compile(r".*/stations.*"))
    return tab


def check_page(tab) -> None:
    """What the every-page test checks: it fits the screen, its title shows, its controls neither overlap nor are
    too small on a phone, and axe finds no serious or critical violation."""
    assert tab.evaluate("document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    tab.evaluate("window.scrollTo(0, 0)")  # a click may have scrolled the title away
    expect(tab.locator("h1")).to_be_in_viewport()
    controls = tab.evaluate(CONTROLS)
    assert not overlaps(tab, controls)
    if tab.viewport_size["width"] < 500:
        small = [f"{c['name']} ({c['height']:.0f} px)" for c in controls if c["height"] < 44]
        assert not small, "controls under 44 px:\n" + "\n".join(small)
    serious = [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:5]]}"
               for v in Axe().run(tab).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, "\n".join(serious)


def balance_of(tab) -> float:
    return float(re.search(r"[\d,.]+", tab.get_by_test_id("ai-balance").inner_text()).group().replace(",", ""))


def test_infer_with_ai_shows_confidences_and_spends_the_price_once(open_tab, dashboard):
    tab = open_tab("listener")
    panel = tab.get_by_test_id("ai-panel")
    button = panel.get_by_role("button", name="Infer with AI · 1 credit")
    expect(button).to_be_visible()
    inferred = tab.get_by_test_id("inferred")
    expect(inferred).to_contain_text("Nothing inferred")
    before = balance_of(tab)
    button.click()
    expect(panel.get_by_test_id("ai-value")).to_have_count(5, timeout=AI_ANSWER_MS)
    expect(inferred).to_have_count(1)  # the card beside the panel was replaced with the answer, not left behind
    expect(inferred).not_to_contain_text("Nothing inferred")
    expect(inferred.locator("dt").first).to_be_visible()
    expect(panel.get_by_test_id("ai-cost")).to_have_text("1 credit")
    expect(panel.get_by_test_id("ai-balance")).to_contain_text(f"{before - 1:g} credits")
    expect(panel.get_by_text(re.compile(r"\d+% sure")).first).to_be_visible()
    tab.reload()
    expect(panel.get_by_test_id("ai-price")).to_contain_text("Cached on ")
    panel.get_by_role("button", name="Infer with AI · free").click()
    expect(panel.get_by_test_id("ai-cached")).to_be_visible()
    expect(panel.get_by_test_id("ai-balance")).to_contain_text(f"{before - 1:g} credits")


def test_without_scripts_the_panel_opens_as_a_page_and_its_button_still_infers(open_tab):
    tab = open_tab("listener", scripts=False)
    tab.get_by_test_id("ai-link").click()
    tab.wait_for_url("**/ai")
    tab.get_by_role("button", name=re.compile("Infer with AI")).click()
    expect(tab.get_by_test_id("ai-value")).to_have_count(5, timeout=AI_ANSWER_MS)
    expect(tab.get_by_test_id("ai-receipt")).to_be_visible()


@pytest.fixture
def openai_answers(openai_server):
    """The server asks the loopback OpenAI server for AI answers (the demo station is too small for the local
    provider to reach 0.70 on any field, so a promotable value comes from the other provider)."""
    previous = active()
    activate(replace(previous, ai_provider="openai", openai_base_url=openai_server.url, openai_model="test-model"))
    yield openai_server
    activate(previous)


def test_promote_copies_the_promotable_values_and_says_what_was_skipped(browser, dashboard, openai_answers):
    everyone = stored_listeners(1)
    listener = Stored(next((d for d in everyone if not d.get("gender") and not d.get("age_group")), None)
                                  or next(d for d in everyone if not d.get("gender")))
    openai_answers.script = [{"inferred_gender": {"value": "female", "confidence": 0.85},
                              "inferred_age_group": {"value": "25-34", "confidence": 0.6},
                              "inferred_language": None, "inferred_location": None, "inferred_lsm": None,
                              "inferred_interests": []}]
    tab = signed_in_tab(browser, dashboard, "sam@group.fm")
    tab.goto(f"/stations/1/listeners/{listener.originator}")
    panel = tab.get_by_test_id("ai-panel")
    panel.get_by_role("button", name=re.compile("Infer with AI")).click()
    expect(panel.get_by_test_id("ai-promotable")).to_have_count(1, timeout=AI_ANSWER_MS)
    panel.get_by_role("button", name="Promote to declared").click()
    expect(tab.locator(".flash").first).to_have_text("Promoted to declared: gender Female (0.85).")
    expect(tab.locator(".flash").filter(has_text="age group 25-34: confidence 0.60 is below 0.70")).to_be_visible()
    expect(tab.get_by_test_id("declared")).to_contain_text("Female")
    expect(tab.get_by_test_id("ai-history")).to_contain_text("gender female (0.85")
    tab.context.close()


def test_a_paused_ai_is_shown_with_the_admin_s_reason_before_any_paid_button_which_is_off(browser, dashboard):
    admin = signed_in_tab(browser, dashboard, "ops@group.fm", admin=True)
    try:
        admin.goto("/stations/1/credits/admin")
        admin.get_by_label("Reason").fill("budget review until December")
        admin.get_by_role("button", name="Pause AI usage").click()
        expect(admin.locator(".flash")).to_contain_text("AI usage is paused for")
        producer = signed_in_tab(browser, dashboard, "thandi@jozi.fm", size="phone")
        originator = max(o for o in snapshot.current(1).originators.tolist() if not o.startswith("erased-"))
        producer.goto(f"/stations/1/listeners/{originator}")
        panel = producer.get_by_test_id("ai-panel")
        expect(panel.get_by_test_id("ai-paused")).to_have_text(
            "AI usage is paused for this company: budget review until December. The paid buttons here are off while "
            "it is paused.")
        infer = panel.get_by_role("button", name=re.compile("Infer with AI"))
        expect(infer).to_be_disabled()
        expect(infer).to_have_accessible_description(re.compile("budget review until December"))
        for path, button in (("/stations/1/ai", "ai-get-insights"), ("/stations/1/briefs", "brief-read"),
                             ("/stations/1/audiences/new?theme=gospel", "audience-preview-button")):
            producer.goto(path)
            expect(producer.get_by_test_id("ai-paused").first).to_contain_text("budget review until December")
            expect(producer.get_by_test_id(button)).to_be_disabled()
        assert account(1)["paused"]
        producer.context.close()
    finally:
        set_paused(1, False)
        admin.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_listener_ai_panel_fits_the_screen(open_tab, screenshot, size):
    tab = open_tab("listener", size)
    panel = tab.get_by_test_id("ai-panel")
    panel.get_by_role("button", name=re.compile("Infer with AI")).click()
    expect(panel.get_by_test_id("ai-receipt")).to_be_visible(timeout=AI_ANSWER_MS)
    check_page(tab)
    screenshot(tab, f"ai-listener-{size}")
    panel.screenshot(path=str(SCREENSHOTS / f"ai-listener-panel-{size}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_the_ai_insights_page_shows_each_segment_and_the_measured_quality(open_tab, screenshot, size):
    tab = open_tab("/stations/1/ai", size)
    expect(tab.get_by_test_id("ai-quality-row")).to_have_count(4)
    expect(tab.get_by_test_id("ai-churn").get_by_test_id("churn-backtest")).to_be_visible()
    tab.get_by_role("button", name=re.compile(r"(Get AI insights|Ask again) · 5 credits")).click()
    expect(tab.get_by_test_id("ai-segment")).to_have_count(7, timeout=AI_ANSWER_MS)
    expect(tab.get_by_test_id("ai-receipt")).to_contain_text("Made on")
    expect(tab.get_by_test_id("ai-segment").first.get_by_text("What to do")).to_be_visible()
    check_page(tab)
    screenshot(tab, f"ai-insights-{size}")
