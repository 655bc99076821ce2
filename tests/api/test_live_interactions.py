"""POST /api/v1/interactions/{company_id}: live events stored, answered per row and re-segmented before the answer."""
from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from core import personal
from core.clock import utcnow
from core.db.connection import get_db
from core.listeners import snapshot
from core.listeners.models import InteractionBatch, SnapshotDelta
from core.segmentation import rollups
from core.segmentation.models import SegmentRun
from core.segmentation.overview import latest_run
from core.segmentation.recording import counted
from core.segmentation.runs import segment_company
from core.stations.models import Company
from tests.factories import make_listener
from tests.memory import event

pytestmark = pytest.mark.db

URL = "/api/v1/interactions/1"


@pytest.fixture
def live_station(app):
    """Company 1 segmented as of the real clock (live events are profiled as of the time they arrive): a dormant
    listener, last heard 120 days ago, and a new one."""
    now = utcnow()
    make_listener(1, "27820000001", [event(120, now=now), event(150, now=now)])
    make_listener(1, "27820000002", [event(2, now=now)])
    segment_company(1, now)
    return 1


def interaction(originator: str = "27820000001", days_ago: float = 1, **fields) -> dict:
    """One row in the import format, `days_ago` before the real clock."""
    when = (utcnow() - timedelta(days=days_ago)).isoformat()
    return {"company_id": 1, "originator": originator, "timestamp": when, "channel_type": 2,
            "campaign_type": "song_request", **fields}


def segment_counts(client, headers) -> dict:
    return client.get("/api/v1/segments/1/summary", headers=headers).get_json()["segments"]


def test_a_live_event_moves_a_dormant_listener_to_occasional_engager_before_the_answer(client, live_station,
                                                                                      key_for):
    headers = key_for(1)
    before = segment_counts(client, headers)
    body = client.post(URL, json=[interaction()], headers=headers).get_json()
    assert body["listeners"] == [{"originator": "27820000001", "segment": "occasional_engager"}]
    assert body["rows"] == [{"index": 0, "status": "stored"}]
    after = segment_counts(client, headers)
    assert (after["dormant"], after["occasional_engager"]) == (before["dormant"] - 1,
                                                                before["occasional_engager"] + 1)
    profile = client.get("/api/v1/listeners/1/27820000001", headers=headers).get_json()
    assert profile["segment"]["key"] == "occasional_engager"
    assert profile["profile"]["interactions_30d"] == 1
    found = client.get("/api/v1/segments/1/filter?segment=occasional_engager", headers=headers).get_json()
    assert [row["originator"] for row in found["listeners"]] == ["27820000001"]


def test_another_process_sees_the_live_event_from_the_file_and_its_delta(client, live_station, key_for):
    headers = key_for(1)
    client.get("/api/v1/segments/1/filter?segment=dormant", headers=headers)  # this process caches the file
    client.post(URL, json=[interaction()], headers=headers)
    snapshot.clear_cache()  # a process that has never read the company
    assert _filtered(client, headers, "occasional_engager") == ["27820000001"]
    assert _filtered(client, headers, "dormant") == []


def test_a_process_that_cached_the_company_before_the_event_applies_the_delta(client, live_station, key_for):
    headers = key_for(1)
    stale = snapshot.current(1)
    client.post(URL, json=[interaction()], headers=headers)
    snapshot._cache[1] = snapshot._Cached(Company.objects.get(company_id=1).snapshot_file, 0, -1, stale)
    assert _filtered(client, headers, "occasional_engager") == ["27820000001"]


def _filtered(client, headers, segment: str) -> list[str]:
    found = client.get(f"/api/v1/segments/1/filter?segment={segment}", headers=headers).get_json()
    return [row["originator"] for row in found["listeners"]]


def test_a_live_batch_writes_a_delta_not_a_new_snapshot_file(client, live_station, key_for):
    file_before = Company.objects.get(company_id=1).snapshot_file
    client.post(URL, json=[interaction(), interaction("27820000003")], headers=key_for(1))
    assert Company.objects.get(company_id=1).snapshot_file == file_before
    assert get_db()["snapshots.files"].count_documents({}) == 1
    assert SnapshotDelta.objects(company_id=1).count() == 1


def test_the_next_full_run_folds_the_deltas_in_and_deletes_them(client, live_station, key_for):
    client.post(URL, json=[interaction()], headers=key_for(1))
    segment_company(1)
    snapshot.clear_cache()
    assert SnapshotDelta.objects(company_id=1).count() == 0
    assert _filtered(client, key_for(1), "occasional_engager") == ["27820000001"]


def test_the_same_batch_twice_is_all_duplicates_and_stores_nothing_more(client, live_station, key_for):
    batch = [interaction(), interaction(days_ago=2), interaction("27820000002", interaction_id="sms-77")]
    first = client.post(URL, json=batch, headers=key_for(1)).get_json()
    stored = InteractionBatch.objects(company_id=1).count()
    again = client.post(URL, json=batch, headers=key_for(1)).get_json()
    assert first["counts"] == {"stored": 3, "duplicate": 0, "suppressed": 0, "bad": 0}
    assert again["counts"] == {"stored": 0, "duplicate": 3, "suppressed": 0, "bad": 0}
    assert again["listeners"] == []
    assert InteractionBatch.objects(company_id=1).count() == stored


def test_two_clients_racing_with_one_batch_store_each_event_once(app, live_station, key_for):
    numbers = [f"2782100{n:04d}" for n in range(300)]
    batch = [interaction(number, days_ago=3) for number in numbers]  # wide enough for the two to overlap
    headers, start, answers = key_for(1), threading.Barrier(2), []

    def post():
        with app.test_client() as own:
            start.wait()
            answers.append(own.post(URL, json=batch, headers=headers).get_json()["counts"])

    racers = [threading.Thread(target=post) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(counts["stored"] for counts in answers) == [0, 300]
    keys = [personal.key_of(1, number) for number in numbers]
    assert sum(doc.n for doc in InteractionBatch.objects(company_id=1, originator__in=keys)) == 300


def test_a_live_event_from_an_unknown_number_creates_its_listener(client, live_station, key_for):
    body = client.post(URL, json=[interaction("27820000009", days_ago=0.1)], headers=key_for(1)).get_json()
    assert body["listeners"] == [{"originator": "27820000009", "segment": "new_listener"}]
    assert client.get("/api/v1/listeners/1/27820000009", headers=key_for(1)).status_code == 200


def test_a_row_repeated_in_one_batch_is_stored_once(client, live_station, key_for):
    row = interaction()  # one row twice: two calls read the clock twice, a millisecond apart on a busy machine
    body = client.post(URL, json=[row, dict(row)], headers=key_for(1)).get_json()
    assert [row["status"] for row in body["rows"]] == ["stored", "duplicate"]


def test_bad_rows_say_why_and_the_good_rows_are_stored(client, live_station, key_for):
    batch = [interaction(timestamp="yesterday"), interaction(company_id=2), interaction(channel_type="x"),
             interaction(originator=None), interaction(timeslot_id="breakfast")]
    body = client.post(URL, json=batch, headers=key_for(1)).get_json()
    rows = body["rows"]
    assert [row["status"] for row in rows] == ["bad", "bad", "bad", "bad", "stored"]
    assert "ISO 8601" in rows[0]["reasons"][0]
    assert rows[1]["reasons"] == ["company_id must be 1, the station of this request, got 2"]
    assert "channel_type" in rows[2]["reasons"][0]
    assert rows[3]["reasons"] == ["missing originator"]
    assert rows[4]["warnings"][0]["field"] == "timeslot_id"
    assert body["counts"]["bad"] == 4


@pytest.mark.parametrize("timestamp", ["0001-01-01", "1899-12-31", "1999-12-31T23:59:59.999Z", "9999-12-31"])
def test_a_live_interaction_dated_outside_the_accepted_range_is_bad_and_the_others_are_stored(client, live_station,
                                                                                             key_for, timestamp):
    body = client.post(URL, json=[interaction(timestamp=timestamp), interaction()], headers=key_for(1)).get_json()
    assert body["rows"] == [{"index": 0, "status": "bad",
                             "reasons": [f"timestamp outside the accepted range, got {timestamp!r}"]},
                            {"index": 1, "status": "stored"}]
    assert InteractionBatch.objects(company_id=1, import_id__ne="factory").count() == 1


def test_a_live_interaction_is_accepted_up_to_one_day_ahead_of_the_clock(client, live_station, key_for):
    rows = [interaction(days_ago=-1 + 1 / 1440), interaction(days_ago=-1 - 1 / 1440)]  # a minute within, and beyond
    body = client.post(URL, json=rows, headers=key_for(1)).get_json()
    assert [row["status"] for row in body["rows"]] == ["stored", "bad"]
    assert body["rows"][1]["reasons"][0].startswith("timestamp outside the accepted range")


def test_a_row_naming_another_station_writes_nothing_there(client, live_station, key_for):
    client.post(URL, json=[interaction("27820000009", company_id=2)], headers=key_for(1))
    assert InteractionBatch.objects(company_id=2).count() == 0
    keys = [personal.key_of(company_id, "27820000009") for company_id in (1, 2)]
    assert InteractionBatch.objects(originator__in=keys).count() == 0


def test_an_unknown_field_is_refused_naming_the_closest_known_one(client, live_station, key_for):
    response = client.post(URL, json=[interaction(chanel_type=2)], headers=key_for(1))
    assert response.status_code == 422
    assert "did you mean 'channel_type'" in str(response.get_json()["detail"])


def test_more_than_1000_rows_are_refused(client, live_station, key_for):
    response = client.post(URL, json=[interaction(days_ago=i / 100) for i in range(1001)], headers=key_for(1))
    assert response.status_code == 422
    assert InteractionBatch.objects(company_id=1).count() == 2


def test_another_company_key_is_refused_and_writes_nothing(client, live_station, key_for):
    response = client.post(URL, json=[interaction()], headers=key_for(2))
    assert response.status_code == 403
    assert InteractionBatch.objects(company_id=1).count() == 2


@pytest.mark.parametrize("body", [{"company_id": 1}, 5, "rows"])
def test_a_body_that_is_not_an_array_is_refused(client, live_station, key_for, body):
    assert client.post(URL, json=body, headers=key_for(1)).status_code == 422


def test_live_batches_keep_one_run_per_file_whose_overview_is_a_recount_of_the_snapshot(client, live_station,
                                                                                        key_for):
    client.post(URL, json=[interaction(), interaction("27820000003")], headers=key_for(1))
    client.post(URL, json=[interaction("27820000002", days_ago=3), interaction("27820000004", days_ago=40)],
                headers=key_for(1))
    live = SegmentRun.objects(company_id=1, kind="live")
    assert live.count() == 1
    company = Company.objects.get(company_id=1)
    recount = rollups.rollup(counted(snapshot.current(1)), company)
    assert latest_run(1).rollup == recount
    assert recount["total"] == 4
