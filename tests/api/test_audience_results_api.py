"""A campaign's window and goal, and its results, over HTTP: recorded with the audience or later (never to start
before the audience's day), read with the window and goal overridden by the query (never counting before the
audience was made), bad input a 422 naming the field, nothing counted before a campaign is recorded, the reason where
there is no holdout, and another station's key reading nothing."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.audiences import store
from core.segmentation.runs import segment_company
from tests.conftest import restored
from tests.factories import add_interactions
from tests.themes import EVERYONE_THEME, themed_station

pytestmark = pytest.mark.db

URL = "/api/v1/audiences/1"
BODY = {"name": "Everyone", "theme": EVERYONE_THEME, "limit": 1000, "min_score": 0, "holdout_percent": 50}
MADE = datetime(2026, 11, 9, 12, 0, tzinfo=UTC)  # the audiences are made then: 9 Nov in Johannesburg
WINDOW = {"starts": "2026-11-10", "ends": "2026-11-19"}


@pytest.fixture
def station(app, monkeypatch):
    """The themed station; audiences made on it are made at MADE."""
    monkeypatch.setattr(store, "utcnow", lambda: MADE)
    return restored("themed-1", themed_station)


def made(client, headers, body: dict) -> dict:
    answer = client.post(URL, json=body, headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def test_a_campaign_recorded_with_the_audience_is_what_its_results_count(client, station, key_for):
    audience = made(client, key_for(1), {**BODY, "campaign": {**WINDOW, "campaign_type": "song_request"}})
    assert audience["campaign"] == {**WINDOW, "campaign_type": "song_request", "channel_type": None,
                                    "timeslot_id": None, "hoped_lift_points": 2.0}
    answer = client.get(f"{URL}/{audience['audience_id']}/results", headers=key_for(1))
    assert answer.status_code == 200, answer.get_json()
    found = answer.get_json()
    members = {arm: found["arms"][arm]["members"] for arm in ("target", "holdout")}
    assert sum(members.values()) == 12 == audience["target_count"] + audience["holdout_count"]
    # every themed listener wrote 3 and 4 days before the tests' now (16 and 17 Nov): all responded
    assert all(found["arms"][arm]["responded"] == members[arm] for arm in members)
    assert found["window"]["from"] == "2026-11-10" and len(found["daily"]) == 10
    assert found["goal"]["words"] == "song_request interactions"
    assert set(found["lift"]) == {"absolute", "relative", "interval", "p_value", "significant"}
    assert found["verdict"] and found["reason"] is None


def test_the_query_overrides_the_window_and_goal_recorded(client, station, key_for):
    audience = made(client, key_for(1), {**BODY, "campaign": WINDOW})
    url = f"{URL}/{audience['audience_id']}/results"
    quiet = client.get(url, query_string={"from": "2026-11-18", "to": "2026-11-19"}, headers=key_for(1)).get_json()
    assert quiet["arms"]["target"]["responded"] == quiet["arms"]["holdout"]["responded"] == 0
    other = client.get(url, query_string={"channel_type": 1}, headers=key_for(1)).get_json()
    assert other["arms"]["target"]["responded"] == 0  # the window's interactions were all on channel 2


def test_a_campaign_recorded_later_replaces_the_first(client, station, key_for):
    audience = made(client, key_for(1), BODY)
    assert audience["campaign"]["starts"] is None
    answer = client.put(f"{URL}/{audience['audience_id']}/campaign", json={**WINDOW, "hoped_lift_points": 3},
                        headers=key_for(1))
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["campaign"]["hoped_lift_points"] == 3
    again = client.get(f"{URL}/{audience['audience_id']}", headers=key_for(1)).get_json()
    assert again["campaign"]["starts"] == "2026-11-10"


@pytest.mark.parametrize(("body", "field"), [({"starts": "2026-11-19", "ends": "2026-11-10"}, "ends"),
                                             ({"starts": "19/11/2026"}, "starts"),
                                             ({**WINDOW, "campaign_type": "unheard of"}, "campaign_type"),
                                             ({**WINDOW, "channel_type": 0}, "channel_type"),
                                             ({**WINDOW, "hoped_lift_points": 0}, "hoped_lift_points"),
                                             ({**WINDOW, "hoped_lift_points": 51}, "hoped_lift_points"),
                                             ({"starts": "2026-11-08"}, "starts"),
                                             ({"ends": "2026-11-19"}, "starts"),
                                             ({"budget": 5}, "budget")])
def test_a_bad_campaign_is_422_naming_the_field(client, station, key_for, body, field):
    audience = made(client, key_for(1), BODY)
    answer = client.put(f"{URL}/{audience['audience_id']}/campaign", json=body, headers=key_for(1))
    assert answer.status_code == 422 and field in str(answer.get_json()), answer.get_json()
    created = client.post(URL, json={**BODY, "name": "Another", "campaign": body}, headers=key_for(1))
    assert created.status_code == 422 and field in str(created.get_json()), created.get_json()


@pytest.mark.parametrize(("query", "field"), [({"from": "2026-11-19", "to": "2026-11-10"}, "to"),
                                              ({"from": "yesterday"}, "from"),
                                              ({"timeslot_id": -1}, "timeslot_id"),
                                              ({"channel": 2}, "channel")])
def test_bad_results_arguments_are_422_naming_the_field(client, station, key_for, query, field):
    audience = made(client, key_for(1), BODY)
    answer = client.get(f"{URL}/{audience['audience_id']}/results", query_string=query, headers=key_for(1))
    assert answer.status_code == 422 and field in str(answer.get_json()), answer.get_json()


def test_an_audience_without_a_holdout_answers_why_there_is_no_lift(client, station, key_for):
    audience = made(client, key_for(1), {**BODY, "holdout_percent": 0, "campaign": WINDOW})
    found = client.get(f"{URL}/{audience['audience_id']}/results", headers=key_for(1)).get_json()
    assert found["lift"] is None and "no holdout" in found["reason"]


def test_another_stations_key_reads_no_results_and_records_no_campaign(client, station, key_for):
    audience = made(client, key_for(1), BODY)
    for answer in (client.get(f"/api/v1/audiences/1/{audience['audience_id']}/results", headers=key_for(2)),
                   client.put(f"/api/v1/audiences/1/{audience['audience_id']}/campaign", json=WINDOW,
                              headers=key_for(2))):
        assert answer.status_code in (403, 404)
    assert client.get(f"/api/v1/audiences/2/{audience['audience_id']}/results", headers=key_for(2)).status_code == 404


def test_a_campaign_starting_the_day_the_audience_was_made_is_recorded_and_the_day_before_is_422_naming_starts(
        client, station, key_for):
    audience = made(client, key_for(1), BODY)
    url = f"{URL}/{audience['audience_id']}/campaign"
    refused = client.put(url, json={"starts": "2026-11-08", "ends": "2026-11-19"}, headers=key_for(1))
    assert refused.status_code == 422
    assert [item["loc"] for item in refused.get_json()["detail"]] == [["body", "starts"]]
    accepted = client.put(url, json={"starts": "2026-11-09"}, headers=key_for(1))
    assert accepted.status_code == 200 and accepted.get_json()["campaign"]["starts"] == "2026-11-09"


def test_before_a_campaign_is_recorded_the_results_count_nothing_and_say_so(client, station, key_for):
    audience = made(client, key_for(1), BODY)
    answer = client.get(f"{URL}/{audience['audience_id']}/results", query_string={"from": "2026-11-10"},
                        headers=key_for(1))
    assert answer.status_code == 200, answer.get_json()
    found = answer.get_json()
    assert (found["campaign"], found["arms"], found["window"], found["lift"], found["daily"]) == (
        None, None, None, None, [])
    assert "No campaign is recorded" in found["reason"] and "nothing is counted" in found["verdict"]


def test_the_results_count_from_the_second_the_audience_was_made_whatever_from_asks(client, station, key_for,
                                                                                    monkeypatch):
    monkeypatch.setattr(store, "utcnow", lambda: datetime(2026, 11, 24, 21, 47, tzinfo=UTC))  # 23:47 there
    audience = made(client, key_for(1), {**BODY, "holdout_percent": 0, "campaign": {"starts": "2026-11-24"}})
    before, after = (m["originator"] for m in client.get(f"{URL}/{audience['audience_id']}",
                                                         headers=key_for(1)).get_json()["members"][:2])
    for who, second in ((before, 59), (after, 1)):
        moment = datetime(2026, 11, 24, 21, 46 + (second == 1), second, tzinfo=UTC)
        add_interactions(1, who, [{"t": moment, "channel": 1, "campaign": "song_request", "timeslot": None,
                                   "message": None}])
    segment_company(1, datetime(2026, 11, 28, tzinfo=UTC))
    found = client.get(f"{URL}/{audience['audience_id']}/results", query_string={"from": "2026-11-01"},
                       headers=key_for(1)).get_json()
    assert found["arms"]["target"]["responded"] == 1
    assert found["window"]["counted_from"] == "2026-11-24T23:47:00+02:00"
    assert found["window"]["counted_words"].startswith("Counted from when the audience was made, 24 Nov 2026 at 23:47")
