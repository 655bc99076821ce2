"""Credits over HTTP: the balance and usage history for any key of the station, load and pause for the admin only,
checked before anything else; amounts exact to the hundredth; tenancy."""
from __future__ import annotations

from dataclasses import replace

import pytest

from core.config import activate, active
from core.credits.charges import charge
from core.errors import AiPaused

pytestmark = pytest.mark.db

CREDITS = "/api/v1/agent/{}/credits"


@pytest.fixture
def admin(app, key_for):
    """Headers of company 1's key with the server's admin key."""
    return {**key_for(1), "X-Admin-Key": active().admin_key}


@pytest.fixture
def no_admin_key(app):
    """The server runs without ADMIN_KEY for the test."""
    previous = active()
    activate(replace(previous, admin_key=None))
    yield
    activate(previous)


def load(client, headers, body, company_id: int = 1):
    return client.post(CREDITS.format(company_id) + "/load", headers=headers, json=body)


def pause(client, headers, body, company_id: int = 1):
    return client.patch(CREDITS.format(company_id) + "/pause", headers=headers, json=body)


def balance(client, headers, company_id: int = 1):
    return client.get(CREDITS.format(company_id), headers=headers).get_json()["balance"]


def test_a_new_station_has_0_credits_and_is_not_paused(client, key_for):
    body = client.get(CREDITS.format(1), headers=key_for(1)).get_json()
    assert (body["company_id"], body["balance"], body["paused"], body["reason"]) == (1, 0, False, None)


def test_loads_of_10_5_and_0_25_make_exactly_10_75(client, admin):
    assert load(client, admin, {"credits": 10.5}).status_code == 200
    answer = load(client, admin, {"credits": 0.25, "note": "top-up"}).get_json()
    assert (answer["balance"], answer["loaded"], answer["totals"]["loaded"]) == (10.75, 0.25, 10.75)


def test_a_whole_balance_reads_as_a_whole_number_and_others_with_their_decimals(client, admin):
    assert isinstance(load(client, admin, {"credits": 10.0}).get_json()["balance"], int)
    assert load(client, admin, {"credits": 0.5}).get_json()["balance"] == 10.5


@pytest.mark.parametrize("credits", [0, -1, "10", True, 1e7, 0.001, None, [5], {"value": 5}])
def test_a_load_that_is_not_a_positive_amount_of_at_most_2_decimals_is_422_and_changes_nothing(client, admin,
                                                                                             credits):
    load(client, admin, {"credits": 5})
    response = load(client, admin, {"credits": credits})
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"] == ["body", "credits"]
    assert balance(client, admin) == 5


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_a_load_of_nan_or_infinity_is_422(client, admin, literal):
    response = client.post(CREDITS.format(1) + "/load", headers={**admin, "Content-Type": "application/json"},
                           data=f'{{"credits": {literal}}}')
    assert response.status_code == 422 and balance(client, admin) == 0


def test_an_unknown_body_field_is_422_naming_the_closest_one(client, admin):
    response = load(client, admin, {"credits": 5, "notes": "typo"})
    assert response.status_code == 422
    assert any("did you mean 'note'" in item["msg"] for item in response.get_json()["detail"])
    assert balance(client, admin) == 0


def test_a_load_needs_the_credits(client, admin):
    response = load(client, admin, {"note": "forgot the amount"})
    assert response.status_code == 422 and response.get_json()["detail"][0]["loc"] == ["body", "credits"]


@pytest.mark.parametrize("admin_key", [None, "wrong", ""])
def test_load_and_pause_without_the_right_admin_key_are_403_and_change_nothing(client, key_for, admin_key):
    headers = key_for(1) if admin_key is None else {**key_for(1), "X-Admin-Key": admin_key}
    assert load(client, headers, {"credits": 5}).status_code == 403
    assert pause(client, headers, {"paused": True}).status_code == 403
    body = client.get(CREDITS.format(1), headers=key_for(1)).get_json()
    assert (body["balance"], body["paused"]) == (0, False)


def test_the_admin_key_is_checked_before_the_body_is_read(client, key_for):
    response = load(client, {**key_for(1), "X-Admin-Key": "wrong"}, {"credits": "lots", "extra": 1})
    assert response.status_code == 403 and "X-Admin-Key" in response.get_json()["detail"]


def test_without_admin_key_configured_load_and_pause_are_403_saying_so(client, key_for, no_admin_key):
    headers = {**key_for(1), "X-Admin-Key": "test-admin-key"}
    for response in (load(client, headers, {"credits": 5}), pause(client, headers, {"paused": True})):
        assert response.status_code == 403 and "ADMIN_KEY is not configured" in response.get_json()["detail"]
    assert balance(client, key_for(1)) == 0


def test_pausing_with_a_reason_shows_it_and_ai_calls_are_refused_with_it(client, admin):
    answer = pause(client, admin, {"paused": True, "reason": "invoice overdue"}).get_json()
    assert (answer["paused"], answer["reason"]) == (True, "invoice overdue") and answer["paused_at"]
    with pytest.raises(AiPaused, match="AI usage is paused for this company: invoice overdue"), \
            charge(1, "ai_listener_profile"):
        pass


def test_unpausing_clears_the_reason(client, admin):
    pause(client, admin, {"paused": True, "reason": "audit"})
    answer = pause(client, admin, {"paused": False}).get_json()
    assert (answer["paused"], answer["reason"], answer["paused_at"]) == (False, None, None)


@pytest.mark.parametrize("paused", ["yes", "true", 1, 0, None])
def test_paused_must_be_a_real_boolean(client, admin, paused):
    response = pause(client, admin, {"paused": paused})
    assert response.status_code == 422 and response.get_json()["detail"][0]["loc"] == ["body", "paused"]
    assert client.get(CREDITS.format(1), headers=admin).get_json()["paused"] is False


def test_usage_lists_the_calls_newest_first_with_what_they_cost(client, admin):
    load(client, admin, {"credits": 10})
    for subject in ("first", "second"):
        with charge(1, "ai_listener_profile", subject=subject) as bill:
            bill.record(provider="local", model="rules", tokens_in=10, tokens_out=5)
    body = client.get(CREDITS.format(1) + "/usage", headers=admin).get_json()
    assert (body["total"], body["limit"], body["from_date"], body["to_date"]) == (2, 100, None, None)
    assert [row["subject"] for row in body["usage"]] == ["second", "first"]
    assert body["usage"][0]["credits"] == bill.cost and body["usage"][0]["provider"] == "local"


def test_usage_within_days_echoes_them(client, admin):
    body = client.get(CREDITS.format(1) + "/usage?from_date=2026-11-01&to_date=2026-11-30&limit=5",
                      headers=admin).get_json()
    assert (body["from_date"], body["to_date"], body["limit"], body["usage"]) == ("2026-11-01", "2026-11-30", 5, [])


@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "limit=ten", "from_date=2026-11-31",
                                   "from_date=yesterday", "to_date=",
                                   "form_date=2026-11-01"])
def test_usage_refuses_a_bad_limit_date_or_range_with_422(client, admin, query):
    response = client.get(CREDITS.format(1) + "/usage?" + query, headers=admin)
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"][0] == "query"


def test_a_range_that_runs_backwards_is_answered_with_nothing_as_the_document_allows_it(client, admin):
    load(client, admin, {"credits": 10})
    with charge(1, "ai_listener_profile"):
        pass
    body = client.get(CREDITS.format(1) + "/usage?from_date=2999-01-02&to_date=2000-01-01", headers=admin).get_json()
    assert (body["total"], body["usage"]) == (0, [])


def test_a_key_for_one_station_cannot_read_or_change_anothers_credits(client, admin, key_for):
    load(client, {**key_for(2), "X-Admin-Key": admin["X-Admin-Key"]}, {"credits": 7}, company_id=2)
    for response in (client.get(CREDITS.format(2), headers=admin),
                     client.get(CREDITS.format(2) + "/usage", headers=admin),
                     load(client, admin, {"credits": 5}, company_id=2),
                     pause(client, admin, {"paused": True}, company_id=2)):
        assert response.status_code == 403
    body = client.get(CREDITS.format(2), headers=key_for(2)).get_json()
    assert (body["balance"], body["paused"], body["totals"]["loaded"]) == (7, False, 7)


def test_credits_need_an_api_key(client, app):
    assert client.get(CREDITS.format(1)).status_code == 401
