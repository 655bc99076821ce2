"""The five filtered operations over HTTP: paging limits, shapes, CSV/JSON export and tenancy."""
from __future__ import annotations

import csv
import io
import json
from urllib.parse import quote

import pytest

from core.segmentation.runs import segment_company
from core.stations.models import Show
from tests.conftest import kept
from tests.factories import make_company, make_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

OPERATIONS = ["filter", "aggregate", "completeness", "cross-channel", "export"]


@pytest.fixture
@kept
def crowd(app):
    """25 listeners on company 1: channels 1 and 2 for the even ones, show 3 for every third."""
    make_company(1)
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=[1], start="06:00", end="09:00").save()
    for i in range(25):
        events = [event(1 + i, channel=1, timeslot=3 if i % 3 == 0 else None)]
        if i % 2 == 0:
            events.append(event(2 + i, channel=2))
        make_listener(1, f"2782000{i:04d}", events, name=f"Listener {i}", gender="female" if i < 10 else "male",
                      email=f"l{i}@example.com", tags=["music"] if i % 5 == 0 else [])
    segment_company(1, NOW)


def test_filter_pages_through_every_match(client, crowd, key_for):
    headers = key_for(1)
    first = client.get("/api/v1/segments/1/filter?page_size=10", headers=headers).get_json()
    assert (first["total"], first["page"], first["page_size"], first["pages"]) == (25, 1, 10, 3)
    last = client.get("/api/v1/segments/1/filter?page_size=10&page=3", headers=headers).get_json()
    assert len(first["listeners"]) == 10 and len(last["listeners"]) == 5
    seen = {row["originator"] for p in (1, 2, 3) for row in client.get(
        f"/api/v1/segments/1/filter?page_size=10&page={p}", headers=headers).get_json()["listeners"]}
    assert len(seen) == 25


def test_filter_defaults_to_page_1_of_100(client, crowd, key_for):
    body = client.get("/api/v1/segments/1/filter", headers=key_for(1)).get_json()
    assert (body["page"], body["page_size"], len(body["listeners"])) == (1, 100, 25)


@pytest.mark.parametrize("query, param", [("page=0", "page"), ("page_size=0", "page_size"),
                                          ("page_size=1001", "page_size"), ("page=x", "page"),
                                          ("gender=robot", "gender")])
def test_out_of_bounds_paging_is_422(client, crowd, key_for, query, param):
    response = client.get(f"/api/v1/segments/1/filter?{query}", headers=key_for(1))
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"] == ["query", param]


@pytest.mark.parametrize("query", ["page_size=1", "page_size=1000"])
def test_page_size_limits_are_inclusive(client, crowd, key_for, query):
    assert client.get(f"/api/v1/segments/1/filter?{query}", headers=key_for(1)).status_code == 200


def test_filter_listing_carries_profile_and_segment_but_no_id_number(client, crowd, key_for):
    make_listener(1, "withid", [event(1)], id_number="9001015009087")
    segment_company(1, NOW)
    body = client.get("/api/v1/segments/1/filter?originator=withid", headers=key_for(1)).get_json()
    listener = body["listeners"][0]
    assert listener["segment"] == "new_listener" and "rfm" in listener
    assert "id_number" not in listener and "9001015009087" not in json.dumps(body)


def test_aggregate_counts_listeners_of_the_filtered_set(client, crowd, key_for):
    body = client.get("/api/v1/segments/1/aggregate?gender=female", headers=key_for(1)).get_json()
    assert body["total"] == 10
    assert body["gender"] == {"female": 10}
    assert body["timeslot_counts"] == {"3": {"title": "Breakfast Club", "count": 4}}
    assert body["has_channel"]["2"] == {"name": "WhatsApp", "count": 5}
    assert body["tags"] == {"music": 2}


def test_completeness_uses_declared_fields_scoped_to_filters(client, crowd, key_for):
    body = client.get("/api/v1/segments/1/completeness?tags=music", headers=key_for(1)).get_json()
    assert body["total"] == 5
    assert body["fields"]["name"] == {"filled": 5, "filled_percentage": 100.0, "missing": 0,
                                      "missing_percentage": 0.0}
    assert body["fields"]["mobile_number"]["missing"] == 5
    assert body["complete"] == {"count": 0, "percentage": 0.0}


def test_cross_channel_pairs_and_uniques(client, crowd, key_for):
    body = client.get("/api/v1/segments/1/cross-channel", headers=key_for(1)).get_json()
    assert body["total"] == 25
    sms = next(c for c in body["channels"] if c["channel_type"] == 1)
    assert (sms["listeners"], sms["unique"], sms["unique_percentage"]) == (25, 12, 48.0)
    pair = next(p for p in body["pairs"] if p["channels"] == [1, 2])
    assert (pair["listeners"], pair["percentage"]) == (13, 52.0)


def test_export_is_json_by_default_with_every_match(client, crowd, key_for):
    response = client.get("/api/v1/segments/1/export?gender=male", headers=key_for(1))
    assert response.mimetype == "application/json"
    records = json.loads(response.get_data(as_text=True))
    assert len(records) == 15 and all(r["gender"] == "male" for r in records)


@pytest.mark.parametrize("how", [{"query": "format=csv"}, {"headers": {"Accept": "text/csv"}}])
def test_export_csv_when_asked(client, crowd, key_for, how):
    headers = {**key_for(1), **how.get("headers", {})}
    response = client.get(f"/api/v1/segments/1/export?{how.get('query', '')}", headers=headers)
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 25 and rows[0]["originator"].startswith("2782")


def test_export_channel_pair_keeps_listeners_active_on_both(client, crowd, key_for):
    response = client.get("/api/v1/segments/1/export?channel_pair=1,2", headers=key_for(1))
    assert len(json.loads(response.get_data(as_text=True))) == 13


def test_csv_export_shows_formula_cells_as_text_and_keeps_numbers_readable(client, crowd, key_for):
    make_listener(1, "+27821112222", [event(1)], name='=HYPERLINK("http://x")', location="-5")
    make_listener(1, "27821113333", [event(1)], name="@SUM(A1)", location="3.2")
    segment_company(1, NOW)
    response = client.get("/api/v1/segments/1/export?format=csv", headers=key_for(1))
    rows = {r["originator"]: r for r in csv.DictReader(io.StringIO(response.get_data(as_text=True)))}
    assert rows["+27821112222"]["name"] == "'=HYPERLINK(\"http://x\")"
    assert rows["27821113333"]["name"] == "'@SUM(A1)"
    assert (rows["+27821112222"]["location"], rows["27821113333"]["location"]) == ("-5", "3.2")
    assert rows["27821113333"]["interactions_total"] == "1"


def test_export_channel_pair_of_one_channel_twice_keeps_those_active_on_it(client, crowd, key_for):
    """The heat map's diagonal: 1,1 is everyone active on channel 1, as has_channel=1 is."""
    pair = client.get("/api/v1/segments/1/export?channel_pair=1,1", headers=key_for(1)).get_data(as_text=True)
    single = client.get("/api/v1/segments/1/export?has_channel=1", headers=key_for(1)).get_data(as_text=True)
    assert json.loads(pair) == json.loads(single) != []


@pytest.mark.parametrize("pair", ["1", "0,2", "a,b", "1,2,3", "%2B1,2", "+1,2", "١,2"])
def test_export_bad_channel_pair_is_422(client, crowd, key_for, pair):
    response = client.get(f"/api/v1/segments/1/export?channel_pair={pair}", headers=key_for(1))
    assert response.status_code == 422
    assert response.get_json()["detail"][0]["loc"] == ["query", "channel_pair"]


@pytest.mark.parametrize("operation", OPERATIONS)
def test_a_key_for_company_1_reads_nothing_of_company_2(client, crowd, key_for, operation):
    make_listener(2, "27830000001", [event(1)], name="Other Station Person")
    segment_company(2, NOW)
    response = client.get(f"/api/v1/segments/2/{operation}", headers=key_for(1))
    assert response.status_code == 403
    assert "Other Station" not in response.get_data(as_text=True)


def test_listener_of_company_2_is_403_for_company_1_key(client, crowd, key_for):
    make_listener(2, "27830000001", [event(1)], name="Other Station Person")
    segment_company(2, NOW)
    assert client.get("/api/v1/listeners/2/27830000001", headers=key_for(1)).status_code == 403
    assert client.delete("/api/v1/listeners/2/27830000001", headers=key_for(1)).status_code == 403
    assert client.get("/api/v1/listeners/1/27830000001", headers=key_for(1)).status_code == 404


def test_listener_detail_has_segment_reasons_and_history(client, crowd, key_for):
    body = client.get("/api/v1/listeners/1/27820000000", headers=key_for(1)).get_json()
    assert body["segment"]["key"] == "new_listener"
    assert body["segment"]["reasons"][0].startswith("First interaction on 18 Nov 2026")  # a run of 20 Nov
    assert body["segment_history"][0]["to"] == "new_listener" and body["segment_history"][0]["from"] is None
    assert body["declared"]["name"] == "Listener 0"


EVERY_ALLOWED_CHARACTER = "a.b:c@d+e_f-1"


@pytest.mark.parametrize("written", [EVERY_ALLOWED_CHARACTER, quote(EVERY_ALLOWED_CHARACTER, safe="")])
def test_an_originator_of_every_allowed_character_can_be_opened_and_erased(client, crowd, key_for, written):
    make_listener(1, EVERY_ALLOWED_CHARACTER, [event(1)], name="Odd Form")
    segment_company(1, NOW)
    url = f"/api/v1/listeners/1/{written}"
    assert client.get(url, headers=key_for(1)).get_json()["originator"] == EVERY_ALLOWED_CHARACTER
    assert client.delete(url, headers=key_for(1)).get_json()["erased"] is True
    assert client.get(url, headers=key_for(1)).status_code == 404


@pytest.mark.parametrize("method", ["get", "delete"])
def test_a_404_echoes_at_most_a_short_prefix_of_the_originator_asked_for(client, crowd, key_for, method):
    asked = "27829876543" + "x" * 60
    response = getattr(client, method)(f"/api/v1/listeners/1/{asked}", headers=key_for(1))
    assert response.status_code == 404
    assert asked[:13] not in response.get_data(as_text=True)


def test_unknown_listener_is_404_and_unknown_db_alias_is_422(client, crowd, key_for):
    assert client.get("/api/v1/listeners/1/nobody", headers=key_for(1)).status_code == 404
    response = client.get("/api/v1/listeners/1/27820000000?db=archive", headers=key_for(1))
    assert response.status_code == 422 and response.get_json()["detail"][0]["loc"] == ["query", "db"]


@pytest.mark.parametrize("operation", OPERATIONS)
def test_exclude_segment_leaves_out_that_segment_on_every_operation(client, crowd, key_for, operation):
    segments = client.get("/api/v1/segments/1/aggregate", headers=key_for(1)).get_json()["segment"]
    left_out = max(segments, key=segments.get)
    answer = client.get(f"/api/v1/segments/1/{operation}", headers=key_for(1),
                        query_string={"exclude_segment": left_out})
    assert answer.status_code == 200
    body = json.loads(answer.get_data(as_text=True))
    assert (len(body) if operation == "export" else body["total"]) == 25 - segments[left_out]


def test_exclude_segment_keeps_the_other_listeners_of_the_filter(client, crowd, key_for):
    headers = key_for(1)
    kept = client.get("/api/v1/segments/1/filter", headers=headers, query_string=[
        ("gender", "female"), ("exclude_segment", "new_listener"), ("exclude_segment", "dormant")]).get_json()
    assert kept["listeners"] and all(row["segment"] not in ("new_listener", "dormant") for row in kept["listeners"])
    everyone = client.get("/api/v1/segments/1/filter", headers=headers, query_string={"gender": "female"}).get_json()
    dropped = [row for row in everyone["listeners"] if row["segment"] in ("new_listener", "dormant")]
    assert kept["total"] == everyone["total"] - len(dropped)


def test_an_unknown_segment_to_exclude_is_422_at_its_name(client, crowd, key_for):
    answer = client.get("/api/v1/segments/1/filter?exclude_segment=fans", headers=key_for(1))
    assert answer.status_code == 422
    problem = answer.get_json()["detail"][0]
    assert problem["loc"] == ["query", "exclude_segment"] and problem["msg"].startswith("Must be one of: new_listener")
