"""The four station overview endpoints."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.db


def test_summary_counts_every_segment(client, station, key_for):
    body = client.get("/api/v1/segments/1/summary", headers=key_for(1)).get_json()
    assert body["total_listeners"] == 4
    assert body["segments"] == {"new_listener": 1, "super_fan": 1, "show_loyalist": 0, "competition_chaser": 0,
                                "occasional_engager": 0, "at_risk": 0, "dormant": 2}


def test_breakdown_has_averages_per_segment(client, station, key_for):
    body = client.get("/api/v1/segments/1", headers=key_for(1)).get_json()
    fans = next(s for s in body["segments"] if s["segment"] == "super_fan")
    assert fans["count"] == 1 and fans["percentage"] == 25.0
    assert fans["averages"]["interactions_30d"] == 14
    assert fans["averages"]["channels"] == 2
    assert fans["averages"]["rfm_recency"] == 5


def test_insights_explain_with_the_station_numbers(client, station, key_for):
    body = client.get("/api/v1/segments/1/insights", headers=key_for(1)).get_json()
    dormant = next(i for i in body["insights"] if i["segment"] == "dormant")
    assert dormant["percentage"] == 50.0
    assert dormant["explanation"].startswith("2 of your 4 listeners (50%) are dormant: no recent engagement.")
    assert "4 listeners" in body["headline"]


def test_tags_are_counted_per_segment(client, station, key_for):
    body = client.get("/api/v1/segments/1/tags", headers=key_for(1)).get_json()
    assert body["tags"][0] == {"tag": "music", "total": 2, "segments": {
        "new_listener": 1, "super_fan": 1, "show_loyalist": 0, "competition_chaser": 0, "occasional_engager": 0,
        "at_risk": 0, "dormant": 0}}


def test_unknown_company_is_404_for_a_key_that_may_read_it(client, app, key_for):
    response = client.get("/api/v1/segments/99/summary", headers=key_for(all_companies=True))
    assert response.status_code == 404
    assert response.get_json() == {"detail": "Company 99 not found"}


def test_company_without_a_run_answers_zero_counts(client, app, key_for):
    from tests.factories import make_company

    make_company(5)
    body = client.get("/api/v1/segments/5/summary", headers=key_for(5)).get_json()
    assert body["total_listeners"] == 0 and body["as_of"] is None
