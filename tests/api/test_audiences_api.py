"""The five audience operations over HTTP: create (200, as every success of the contract; its body, defaults and
bounds, names unique per station as a reader sees them, charged 2), list without members, detail with members
enriched and the reachable count, refresh (the saved strategy re-run: who joined, who left, who stayed), delete,
expiry, tenancy and erasure."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from core import personal
from core.audiences import store
from core.audiences.models import Audience
from core.clock import utcnow
from core.credits.ledger import load, set_paused
from core.credits.models import CreditEntry
from core.search import vectors
from core.segmentation.runs import segment_company
from tests.conftest import restored, seeded
from tests.factories import set_fields
from tests.memory import NOW
from tests.themes import (
    CREDITS,
    EVERYONE_THEME,
    GOSPEL,
    GOSPEL_THEME,
    of_theme,
    originator,
    person,
    split_both_ways,
    themed_station,
)

pytestmark = pytest.mark.db

URL = "/api/v1/audiences/{}"
GOSPEL_BODY = {"name": "Gospel lovers", "theme": GOSPEL_THEME, "limit": 4, "min_score": 0}


@pytest.fixture
def station(app):
    return restored("themed-1", themed_station)


def create(client, headers, body: dict, company_id: int = 1, **filters):
    return client.post(URL.format(company_id), json=body, query_string=filters, headers=headers)


def created(client, headers, body: dict = GOSPEL_BODY, **filters) -> dict:
    answer = create(client, headers, body, **filters)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def read(client, headers, audience_id: str, company_id: int = 1):
    return client.get(URL.format(company_id) + f"/{audience_id}", headers=headers)


def refresh(client, headers, audience_id: str, company_id: int = 1):
    return client.put(URL.format(company_id) + f"/{audience_id}/refresh", headers=headers)


def balance(client, headers):
    return client.get("/api/v1/agent/1/credits", headers=headers).get_json()["balance"]


def test_creating_saves_the_theme_s_members_with_the_strategy_and_costs_2(client, station, key_for):
    body = created(client, key_for(1))
    assert {m["originator"] for m in body["members"]} == of_theme(1, "gospel")
    assert (body["member_count"], body["status"], body["cost"], body["balance"]) == (4, "active", 2, CREDITS - 2)
    assert body["queries"][0]["query"] == GOSPEL_THEME and body["provider"] == "local"
    again = client.get(f"/api/v1/audiences/1/{body['audience_id']}", headers=key_for(1)).get_json()
    assert again["queries"] == body["queries"] and again["name"] == body["name"]
    stored = Audience.objects.get(audience_id=body["audience_id"])
    assert "queries" not in stored.strategy and stored.company_id == 1  # sealed with the name and the theme
    assert {m["originator"] for m in stored.members} == {personal.key_of(1, o) for o in of_theme(1, "gospel")}
    entry = CreditEntry.objects(company_id=1, operation="audience").first()
    assert (entry.amount, entry.subject) == (-200, body["audience_id"])


def test_defaults_are_limit_500_min_score_0_68_and_30_days(client, station, key_for):
    body = created(client, key_for(1), {"name": "Gospel", "theme": GOSPEL_THEME})
    assert (body["limit"], body["min_score"], body["expiry_days"], body["description"]) == (500, 0.68, 30, None)
    made, expires = (datetime.fromisoformat(body[k]) for k in ("created_at", "expires_at"))
    assert expires - made == timedelta(days=30) and body["refreshed_at"] is None
    assert all(m["score"] >= 0.68 for m in body["members"])


@pytest.mark.parametrize("change", [{"limit": 0}, {"limit": 5001}, {"expiry_days": 0}, {"expiry_days": 366},
                                    {"min_score": 1.1}, {"min_score": -0.5}, {"name": " "}, {"name": "n" * 121},
                                    {"theme": ""}, {"limit": "5"}, {"expiry_days": 2.5}, {"members": []}])
def test_out_of_bounds_or_unknown_fields_are_422_and_cost_nothing(client, station, key_for, change):
    answer = create(client, key_for(1), {**GOSPEL_BODY, **change})
    assert answer.status_code == 422, answer.get_json()
    assert balance(client, key_for(1)) == CREDITS and Audience.objects.count() == 0


@pytest.mark.parametrize("percent", [-1, 51, 10.5, "10", None])
def test_a_holdout_percent_outside_0_to_50_is_422_naming_the_field_and_costs_nothing(client, station, key_for,
                                                                                      percent):
    answer = create(client, key_for(1), {**GOSPEL_BODY, "holdout_percent": percent})
    assert answer.status_code == 422, answer.get_json()
    assert "holdout_percent" in str(answer.get_json())
    assert balance(client, key_for(1)) == CREDITS and Audience.objects.count() == 0


def test_an_audience_has_no_holdout_unless_asked_and_up_to_half_may_be_held_out(client, station, key_for,
                                                                                 monkeypatch):
    plain = created(client, key_for(1), {**GOSPEL_BODY, "name": "Plain"})
    assert (plain["holdout_percent"], plain["target_count"], plain["holdout_count"]) == (0, 4, 0)
    assert {m["arm"] for m in plain["members"]} == {"target"}
    split_both_ways(monkeypatch, of_theme(1, "gospel"))
    half = created(client, key_for(1), {**GOSPEL_BODY, "holdout_percent": 50})
    detail = read(client, key_for(1), half["audience_id"]).get_json()
    arms = [m["arm"] for m in detail["members"]]
    assert set(arms) == {"target", "holdout"} and detail["holdout_percent"] == 50
    assert (detail["target_count"], detail["holdout_count"]) == (arms.count("target"), arms.count("holdout"))
    assert [m["arm"] for m in refresh(client, key_for(1), half["audience_id"]).get_json()["members"]] == arms


def test_the_largest_limit_and_expiry_are_allowed(client, station, key_for):
    body = created(client, key_for(1), {**GOSPEL_BODY, "limit": 5000, "expiry_days": 365})
    assert (body["limit"], body["expiry_days"], body["member_count"]) == (5000, 365, 4)  # who holds the theme


@pytest.mark.parametrize("again", ["Gospel lovers", "GOSPEL LOVERS", "  gospel   Lovers ", "Gos\u200bpel lovers",
                                   "G\u043espel lovers", "Gospel\u00a0lovers", "\uff27ospel lovers",
                                   "Gospel lovers\u200d"])
def test_a_name_already_used_by_the_station_is_409_as_a_reader_sees_it_and_costs_nothing(client, station, key_for,
                                                                                          again):
    created(client, key_for(1))
    answer = create(client, key_for(1), {**GOSPEL_BODY, "name": again})
    assert answer.status_code == 409 and "already has an audience" in answer.get_json()["detail"]
    assert balance(client, key_for(1)) == CREDITS - 2 and Audience.objects.count() == 1


def test_another_station_may_use_the_same_name(client, station, key_for):
    themed_station(2)
    created(client, key_for(1))
    assert create(client, key_for(2), GOSPEL_BODY, company_id=2).status_code == 200


def test_the_list_shows_every_audience_newest_first_without_members(client, station, key_for):
    first = created(client, key_for(1))
    second = created(client, key_for(1), {**GOSPEL_BODY, "name": "Soccer", "theme": "soccer and football"})
    body = client.get(URL.format(1), headers=key_for(1)).get_json()
    assert body["total"] == 2
    assert [a["audience_id"] for a in body["audiences"]] == [second["audience_id"], first["audience_id"]]
    assert all("members" not in a for a in body["audiences"])
    assert body["audiences"][1]["member_count"] == 4 and body["audiences"][1]["reachable"] == 2


def test_the_detail_enriches_each_member_with_its_profile_and_counts_the_reachable(client, station, key_for):
    audience_id = created(client, key_for(1))["audience_id"]
    body = read(client, key_for(1), audience_id).get_json()
    members = {m["originator"]: m for m in body["members"]}
    zero, one, three = (members[originator(1, "gospel", n)] for n in (0, 1, 3))
    assert (zero["gender"], zero["location"], zero["opt_in"], zero["permission"], zero["reachable"]) == (
        "female", "Soweto", True, True, True)
    assert (one["location"], one["opt_in"], one["permission"], one["reachable"]) == ("Durban", True, False, False)
    assert (three["opt_in"], three["reachable"]) == (None, False)
    assert zero["segment"] and sorted(zero["channels"]) == ["SMS", "WhatsApp"]
    assert body["reachable"] == 2 and body["member_count"] == 4


def test_filters_are_saved_and_narrow_before_ranking(client, station, key_for):
    body = created(client, key_for(1), {**GOSPEL_BODY, "theme": EVERYONE_THEME}, gender="male")
    assert len(body["members"]) == 4 and all(m["gender"] == "male" for m in body["members"])
    assert body["filters"] == {"gender": ["male"]}


def test_a_refresh_re_runs_the_saved_strategy_and_says_who_joined_left_and_stayed(client, station, key_for):
    body = created(client, key_for(1), {**GOSPEL_BODY, "limit": 1000}, location="Soweto")
    gospel_in_soweto = {originator(1, "gospel", n) for n in (0, 2)}
    assert gospel_in_soweto <= {m["originator"] for m in body["members"]}
    saved_queries = body["queries"]
    newcomer = "27819999999"
    person(1, newcomer, GOSPEL, location="Soweto", gender="female")
    set_fields(1, originator(1, "gospel", 0), location="Durban")
    segment_company(1, NOW)
    vectors.refresh_embeddings(1)
    answer = refresh(client, key_for(1), body["audience_id"])
    assert answer.status_code == 200, answer.get_json()
    again = answer.get_json()
    assert again["changes"]["joined"] == [newcomer] and again["changes"]["left"] == [originator(1, "gospel", 0)]
    assert again["changes"]["stayed"] == body["member_count"] - 1
    assert [q["query"] for q in again["queries"]] == [q["query"] for q in saved_queries]
    assert (again["cost"], again["refreshed_at"] is not None) == (2, True)
    listed = client.get(URL.format(1), headers=key_for(1)).get_json()["audiences"][0]
    assert listed["last_changes"] == {"joined": 1, "left": 1, "stayed": body["member_count"] - 1}


def test_an_audience_expires_after_its_days_stays_readable_and_a_refresh_renews_it(client, station, key_for,
                                                                                    monkeypatch):
    body = created(client, key_for(1), {**GOSPEL_BODY, "expiry_days": 1})
    later = utcnow() + timedelta(days=1, minutes=1)
    monkeypatch.setattr(store, "utcnow", lambda: later)
    expired = read(client, key_for(1), body["audience_id"]).get_json()
    assert expired["status"] == "expired" and len(expired["members"]) == 4
    renewed = refresh(client, key_for(1), body["audience_id"]).get_json()
    assert renewed["status"] == "active"
    assert datetime.fromisoformat(renewed["expires_at"]) - later < timedelta(days=1, seconds=1)


def test_a_deleted_audience_is_gone_and_404_after(client, station, key_for):
    audience_id = created(client, key_for(1))["audience_id"]
    answer = client.delete(URL.format(1) + f"/{audience_id}", headers=key_for(1))
    assert answer.status_code == 200 and answer.get_json()["deleted"] is True
    assert read(client, key_for(1), audience_id).status_code == 404
    assert client.delete(URL.format(1) + f"/{audience_id}", headers=key_for(1)).status_code == 404
    assert refresh(client, key_for(1), audience_id).status_code == 404
    assert client.get(URL.format(1), headers=key_for(1)).get_json()["total"] == 0


def test_another_company_s_audience_is_out_of_reach(client, station, key_for):
    themed_station(2)
    theirs = create(client, key_for(2), GOSPEL_BODY, company_id=2).get_json()["audience_id"]
    assert read(client, key_for(1), theirs, company_id=2).status_code == 403
    assert read(client, key_for(1), theirs).status_code == 404
    assert refresh(client, key_for(1), theirs).status_code == 404
    assert client.delete(URL.format(1) + f"/{theirs}", headers=key_for(1)).status_code == 404
    assert Audience.objects(audience_id=theirs).count() == 1


def test_an_unknown_audience_is_404_without_repeating_the_id(client, station, key_for):
    answer = read(client, key_for(1), "nope-" + "x" * 40)
    assert answer.status_code == 404 and "xxxx" not in answer.get_json()["detail"]


def test_erasing_a_listener_takes_it_out_of_every_audience_and_the_receipt_counts_them(client, station, key_for):
    gone = originator(1, "gospel", 2)
    ids = [created(client, key_for(1), {**GOSPEL_BODY, "name": name})["audience_id"] for name in ("A", "B")]
    created(client, key_for(1), {**GOSPEL_BODY, "name": "C", "theme": "soccer", "limit": 2})
    receipt = client.delete(f"/api/v1/listeners/1/{gone}", headers=key_for(1)).get_json()
    assert receipt["stores"]["audiences"] == 2
    for audience_id in ids:
        body = read(client, key_for(1), audience_id).get_json()
        assert gone not in {m["originator"] for m in body["members"]} and body["member_count"] == 3
        assert personal.key_of(1, gone) not in str(Audience.objects.get(audience_id=audience_id).members)
    refreshed = refresh(client, key_for(1), ids[0]).get_json()
    assert gone not in refreshed["changes"]["left"] + refreshed["changes"]["joined"]


def test_creating_and_refreshing_need_credits_and_an_unpaused_company(client, station, key_for):
    audience_id = created(client, key_for(1))["audience_id"]
    set_paused(1, True, "budget review")
    assert create(client, key_for(1), {**GOSPEL_BODY, "name": "Other"}).status_code == 403
    assert refresh(client, key_for(1), audience_id).status_code == 403
    assert read(client, key_for(1), audience_id).status_code == 200  # reading is free
    set_paused(1, False)
    themed_station(2, credits=1)
    assert create(client, key_for(2), GOSPEL_BODY, company_id=2).status_code == 402
    assert Audience.objects(company_id=2).count() == 0


def test_soccer_fans_are_not_gospel_lovers(client, station, key_for):
    """The merged queries stay on the theme. The station is too small to calibrate, so scores are raw similarities,
    lower than calibrated ones: at a min_score that keeps the soccer fans, no listener of another theme is kept."""
    body = created(client, key_for(1), {"name": "Soccer", "theme": "soccer fans", "limit": 4, "min_score": 0.62})
    assert body["members"] and {m["originator"] for m in body["members"]} <= of_theme(1, "soccer")


def test_an_audience_says_how_many_members_have_each_thing_its_theme_asks_for(client, key_for, app):
    """Every member has what the theme asks for, read as search reads it: the gospel tag and a competition entry."""
    seeded(200, embedded=True)
    load(1, CREDITS)
    body = created(client, key_for(1), {"name": "Gospel entrants", "theme": "gospel lovers who enter competitions",
                                        "limit": 500})
    detail = client.get(f"/api/v1/audiences/1/{body['audience_id']}", headers=key_for(1)).get_json()
    traits = {t["field"]: t for t in detail["traits"]}
    assert set(traits) == {"tags", "campaign_type"}
    assert traits["tags"]["labels"] == ["gospel"]
    assert traits["tags"]["members"] == traits["campaign_type"]["members"] == detail["member_count"] > 0
