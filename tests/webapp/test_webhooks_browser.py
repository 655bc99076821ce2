"""The Webhooks page in headless Chromium at a phone's and a laptop's width: an endpoint added through the form, a
test event that fails on a receiver answering 500 shown as a failure in the log, its replay delivered once the
receiver is back, a refused URL said beside its field, and removal; each state passes axe, with screenshots."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core.db import queue
from core.webhooks.delivery import DeliveryFailed, deliver_job
from core.webhooks.events import DELIVER_JOB
from tests.core.webhooks.receiver import receiving
from tests.webapp.conftest import SIZES
from tests.webapp.test_ai_browser import check_page

pytestmark = pytest.mark.db

PAGE = "/stations/1/webhooks"


def deliver_now() -> None:
    """What a worker does with the due delivery jobs, done here at once."""
    while (job := queue.claim("test", [DELIVER_JOB])) is not None:
        try:
            deliver_job(job["payload"])
            queue.finish(job)
        except DeliveryFailed as failure:
            queue.finish(job, str(failure))


def add_endpoint(tab, url: str) -> None:
    tab.get_by_label("URL").fill(url)
    tab.get_by_label("Secret").fill("a-secret-of-the-station-1")
    tab.get_by_label("A listener entered a segment").check()
    tab.get_by_label("Location").check()
    tab.get_by_role("button", name="Add endpoint").click()


@pytest.mark.parametrize("size", SIZES)
def test_an_endpoint_added_shows_a_failed_delivery_and_its_replay_delivered(open_tab, screenshot, size):
    with receiving() as receiver:
        tab = open_tab(PAGE, size)
        expect(tab.get_by_test_id("webhooks-empty")).to_be_visible()
        add_endpoint(tab, receiver.url)
        expect(tab.get_by_test_id("webhook-row")).to_have_count(1)
        receiver.mode = "fail"
        tab.get_by_test_id("webhook-test").click()
        expect(tab.get_by_test_id("deliveries-empty")).to_be_visible()
        deliver_now()
        tab.reload()
        failed = tab.get_by_test_id("delivery-row").first
        expect(failed).to_have_attribute("data-ok", "false")
        expect(failed).to_contain_text("Failed: the endpoint answered 500 (Internal Server Error)")
        expect(tab.get_by_test_id("webhook-row")).to_contain_text("1 event waiting")
        check_page(tab)
        screenshot(tab, f"webhooks-failed-{size}")
        receiver.mode = "ok"
        failed.get_by_test_id("delivery-replay").click()
        deliver_now()
        tab.reload()
        expect(tab.get_by_test_id("delivery-row").first).to_have_attribute("data-ok", "true")
        assert [e["type"] for e in receiver.events()] == ["webhook.test", "webhook.test"]
        check_page(tab)
        screenshot(tab, f"webhooks-{size}")
        tab.get_by_test_id("webhook-remove").click()
        expect(tab.get_by_test_id("webhooks-empty")).to_be_visible()


def test_a_url_to_a_private_address_is_refused_beside_its_field(open_tab, screenshot):
    tab = open_tab(PAGE, "phone")
    add_endpoint(tab, "https://10.0.0.7/hooks")
    expect(tab.get_by_test_id("webhook-problem")).to_contain_text("private or loopback address")
    expect(tab.get_by_label("URL")).to_have_attribute("aria-invalid", "true")
    expect(tab.get_by_label("A listener entered a segment")).to_be_checked()
    check_page(tab)
    screenshot(tab, "webhooks-refused-phone")
