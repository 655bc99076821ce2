"""GET /api/v1/segments/{company_id}/history: points by day, week or month with the segments, new and lost
listeners and the moves over the span; the contract's shape, refusals and tenancy."""
from __future__ import annotations

import pytest

from core.history.rebuild import rebuild_history
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

URL = "/api/v1/segments/{}/history"


@pytest.fixture
@kept
def station(app):
    """Company 1 with a listener heard every other day from 200 to 100 days ago and one first heard 5 days ago,
    its past rebuilt and the day's run recorded."""
    make_listener(1, "27820000001", [event(d) for d in range(100, 201, 2)])
    make_listener(1, "27820000002", [event(5)])
    segment_company(1, NOW)
    rebuild_history(1, NOW)
    return 1


def test_the_history_answers_points_of_every_segment_and_the_moves_over_the_span(client, station, key_for):
    body = client.get(URL.format(1), query_string={"from": "2026-11-01", "to": "2026-11-20", "interval": "week"},
                      headers=key_for(1)).get_json()
    assert (body["from"], body["to"], body["interval"]) == ("2026-11-01", "2026-11-20", "week")
    assert [p["date"] for p in body["points"]] == ["2026-11-01", "2026-11-08", "2026-11-15", "2026-11-20"]
    last = body["points"][-1]
    assert last["total"] == 2 and set(last["segments"]) == {"new_listener", "super_fan", "show_loyalist",
                                                            "competition_chaser", "occasional_engager", "at_risk",
                                                            "dormant"}
    assert body["moves"]["at_risk"] == {"dormant": 1}


def test_by_default_a_week_at_a_time_over_13_months_to_the_station_s_today(client, station, key_for):
    body = client.get(URL.format(1), headers=key_for(1)).get_json()
    assert body["interval"] == "week" and len(body["points"]) >= 1


@pytest.mark.parametrize(("params", "where"), [({"interval": "year"}, "interval"), ({"from": "2026-02-30"}, "from"),
                                               ({"since": "2026-11-01"}, "since")])
def test_a_bad_interval_date_span_or_unknown_parameter_is_a_422_at_its_name(client, station, key_for, params, where):
    answer = client.get(URL.format(1), query_string=params, headers=key_for(1))
    assert answer.status_code == 422
    assert answer.get_json()["detail"][0]["loc"][-1] == where


def test_a_span_that_ends_before_it_starts_holds_no_point_as_documented(client, station, key_for):
    answer = client.get(URL.format(1), query_string={"from": "2026-11-02", "to": "2026-11-01"}, headers=key_for(1))
    assert answer.status_code == 200
    assert answer.get_json()["points"] == [] and answer.get_json()["moves"] == {}


def test_a_key_for_company_2_reads_no_history_of_company_1(client, station, key_for):
    assert client.get(URL.format(1), headers=key_for(2)).status_code == 403
