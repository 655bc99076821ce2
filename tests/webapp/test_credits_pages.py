"""The credits pages over HTTP: balance, pause and totals; the usage of chosen days as a chart and a table; the
administrator's load and pause (refused values said by their field, nothing changed); admins only, CSRF, tenancy."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from core.access.users import create_user
from core.clock import station_today, utcnow
from core.credits import ledger
from core.credits.charges import cached, charge
from core.credits.ledger import account, load, set_paused
from tests.factories import make_company
from tests.webapp.conftest import PASSWORD
from tests.webapp.test_ai_pages import words

pytestmark = pytest.mark.db

CREDITS, ADMIN = "/stations/1/credits", "/stations/1/credits/admin"
LOAD, PAUSE = ADMIN + "/load", ADMIN + "/pause"
ZONE = "Africa/Johannesburg"  # the stations' zone: usage days are the station's days, not UTC's


@pytest.fixture
def station(app):
    """Station 1 (Jozi FM): 100 credits loaded, then two paid AI profiles and a cached one today, and an insight
    paid three days ago; station 2 (Coast Radio) with nothing."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    load(1, 100, note="launch")
    with charge(1, "ai_segment_insights"):
        pass
    ledger_entries_at(1, utcnow() - timedelta(days=3))
    for originator in ("27820000001", "27820000002"):
        with charge(1, "ai_listener_profile", subject=originator) as bill:
            bill.record(provider="local", model="lookalike-knn-1", tokens_in=0, tokens_out=0)
    cached(1, "ai_listener_profile", "27820000001", "local", "lookalike-knn-1")
    return 1


def ledger_entries_at(company_id: int, moment: datetime) -> None:
    """Move the station's spend entries so far to that moment (as if they were made then)."""
    ledger.entries().update_many({"company_id": company_id, "kind": "spend"}, {"$set": {"at": moment}})


def sign_in(client, email: str, admin: bool = False) -> None:
    create_user(email, PASSWORD, companies=[] if admin else [1], admin=admin)
    client.post("/login", data={"email": email, "password": PASSWORD})


@pytest.fixture
def producer(client, station):
    sign_in(client, "thandi@jozi.fm")
    return client


@pytest.fixture
def admin(client, station):
    sign_in(client, "ops@group.fm", admin=True)
    return client


def test_the_credits_page_shows_the_balance_totals_and_the_navigation_entry(producer):
    response = producer.get(CREDITS)
    assert response.status_code == 200
    text = words(response.text)
    assert "Balance 93 credits left · AI running" in text
    assert "Spent 7 3 paid AI answers" in text and "Free from the cache 1" in text and "Loaded 100" in text
    assert f'href="{CREDITS}" aria-current="page"' in response.text
    assert 'data-testid="credits-admin-link"' not in response.text  # for admins only


def test_the_usage_of_the_last_30_days_is_charted_per_day(producer):
    html = producer.get(CREDITS).text
    bars = re.findall(r'data-testid="credits-bar" data-day="([\d-]+)" data-credits="([\d.]+)"', html)
    today, earlier = station_today(ZONE), station_today(ZONE, utcnow() - timedelta(days=3))
    assert len(bars) == 30 and bars[-1] == (today.isoformat(), "2") and (earlier.isoformat(), "5") in bars
    assert "7 credits spent on 4 AI answers over 30 days; the busiest day took 5 credits." in words(html)
    assert len(re.findall(r'data-testid="credits-row"', html)) == 4


def test_the_dates_narrow_the_chart_and_the_history(producer):
    today = station_today(ZONE).isoformat()
    html = producer.get(CREDITS, query_string={"from_date": today, "to_date": today}).text
    assert len(re.findall(r'data-testid="credits-bar"', html)) == 1
    assert re.findall(r'data-testid="credits-row" data-kind="(\w+)"', html) == ["cached", "spend", "spend"]
    assert f'name="from_date" value="{today}"' in html


def test_a_bad_date_is_said_by_its_field(producer):
    response = producer.get(CREDITS, query_string={"from_date": "2026-02-30"})
    assert response.status_code == 200
    assert re.search(r'data-testid="problem-from_date">Not a valid date: give YYYY-MM-DD.<', response.text)
    assert 'data-testid="credits-chart"' not in response.text


def test_a_range_over_a_year_is_refused_by_the_end_date(producer):
    html = producer.get(CREDITS, query_string={"from_date": "2025-01-01", "to_date": "2026-06-30"}).text
    assert 'data-testid="problem-to_date">Pick at most 366 days.<' in html


def test_a_paused_station_says_so_with_the_reason(producer):
    set_paused(1, True, "budget review")
    assert "AI usage is paused: budget review." in words(producer.get(CREDITS).text)


def test_another_station_s_credits_are_403(producer):
    assert producer.get("/stations/2/credits").status_code == 403


def test_the_admin_page_is_for_admins_only(producer):
    assert producer.get(ADMIN).status_code == 403
    assert producer.post(LOAD, data={"credits": "50"}).status_code == 403
    assert producer.post(PAUSE, data={"paused": "true", "reason": "mine"}).status_code == 403
    assert account(1)["balance"] == 93 and not account(1)["paused"]


def test_an_admin_is_linked_to_the_admin_page_and_opens_it(admin):
    assert f'href="{ADMIN}"' in admin.get(CREDITS).text
    response = admin.get(ADMIN)
    assert response.status_code == 200 and "Load credits" in response.text


def test_loading_credits_changes_the_balance_and_says_so(admin):
    response = admin.post(LOAD, data={"credits": "50.5", "note": "November top-up"})
    assert response.status_code == 303 and response.headers["Location"] == ADMIN
    assert account(1)["balance"] == 143.5
    assert "Loaded 50.50 credits for Jozi FM: the balance is now 143.50 credits." in words(admin.get(ADMIN).text)


@pytest.mark.parametrize(("amount", "message"), [
    ("", "Must be a number."), ("ten", "Must be a number."), ("0", "Load more than 0 credits."),
    ("-5", "Load more than 0 credits."), ("1.005", "Credits have at most 2 decimals."),
    ("2000000", "Load at most 1,000,000 credits at a time."), ("nan", "Must be a number.")])
def test_a_bad_amount_is_said_by_its_field_and_nothing_is_loaded(admin, amount, message):
    response = admin.post(LOAD, data={"credits": amount, "note": "kept"})
    assert response.status_code == 422
    assert f'data-testid="problem-credits">{message}<' in response.text
    assert 'value="kept"' in response.text  # the form keeps what was typed
    assert account(1)["balance"] == 93


def test_a_note_over_500_characters_is_refused(admin):
    response = admin.post(LOAD, data={"credits": "5", "note": "x" * 501})
    assert response.status_code == 422 and 'data-testid="problem-note">At most 500 characters.<' in response.text
    assert account(1)["balance"] == 93


def test_pausing_with_a_reason_then_resuming(admin):
    response = admin.post(PAUSE, data={"paused": "true", "reason": "budget review"})
    assert response.status_code == 303
    assert (account(1)["paused"], account(1)["reason"]) == (True, "budget review")
    page = words(admin.get(ADMIN).text)
    assert "AI usage is paused for Jozi FM: budget review." in page and "Resume AI usage" in page
    admin.post(PAUSE, data={"paused": "false"})
    assert (account(1)["paused"], account(1)["reason"]) == (False, None)
    assert "AI usage is running again for Jozi FM." in words(admin.get(ADMIN).text)


def test_a_pause_that_is_neither_true_nor_false_is_refused(admin):
    assert admin.post(PAUSE, data={"paused": "maybe"}).status_code == 422
    assert not account(1)["paused"]


def test_load_and_pause_need_the_csrf_token(admin, csrf_enabled):
    assert admin.post(LOAD, data={"credits": "50"}).status_code == 400
    assert admin.post(PAUSE, data={"paused": "true"}).status_code == 400
    assert account(1)["balance"] == 93 and not account(1)["paused"]
    token = re.search(r'name="csrf_token" value="([^"]+)"', admin.get(ADMIN).text).group(1)
    assert admin.post(LOAD, data={"credits": "50", "csrf_token": token}).status_code == 303
    assert account(1)["balance"] == 143


@pytest.mark.parametrize(("at", "day"), [(datetime(2026, 11, 10, 21, 59, 59, tzinfo=UTC), "2026-11-10"),
                                         (datetime(2026, 11, 10, 22, 0, 0, tzinfo=UTC), "2026-11-11")])
def test_a_day_s_spend_counts_in_the_station_s_days(producer, at, day):
    """Jozi FM keeps Johannesburg time (UTC+2): 22:00 UTC on the 10th is midnight on the 11th there."""
    ledger.entries().update_many({"company_id": 1, "kind": "spend"}, {"$set": {"at": at}})
    html = producer.get(CREDITS, query_string={"from_date": "2026-11-10", "to_date": "2026-11-11"}).text
    spent = dict(re.findall(r'data-day="([\d-]+)" data-credits="([\d.]+)"', html))
    assert spent[day] == "7" and sum(float(v) for v in spent.values()) == 7
    listed = producer.get(CREDITS, query_string={"from_date": day, "to_date": day}).text
    assert 'data-kind="spend"' in listed
