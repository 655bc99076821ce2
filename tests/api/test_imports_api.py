"""Uploads through the API: POST /api/v1/imports/{company_id}/{kind} answers 202 and a Location to poll."""
from __future__ import annotations

import io
import json
import time

import pytest

from core.listeners.models import Listener
from tests.factories import make_company

pytestmark = pytest.mark.db

PROFILES = [{"originator": "27820000001", "first_name": "Lerato"},
            {"company_id": 1, "originator": "27820000002", "mobile_number": "082 123 4567"},
            {"company_id": 2, "originator": "27820000003", "first_name": "Intruder"}]


def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def upload(client, headers, body: bytes, name: str = "people.jsonl", kind: str = "profiles", company_id: int = 1):
    return client.post(f"/api/v1/imports/{company_id}/{kind}", headers=headers,
                       data={"file": (io.BytesIO(body), name)}, content_type="multipart/form-data")


def finished(client, headers, location: str) -> dict:
    """Poll the job until it has finished (the import runs in a thread of this process)."""
    for _ in range(600):
        job = client.get(location, headers=headers).get_json()
        if job["state"] in ("done", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"the import did not finish: {job}")


@pytest.fixture
def stations(app):
    make_company(1)
    make_company(2)


def test_an_upload_answers_202_with_a_location_that_polls_to_the_report(client, stations, key_for):
    headers = key_for(1)
    answer = upload(client, headers, jsonl(PROFILES[:2]))
    assert answer.status_code == 202
    assert answer.get_json()["state"] in ("queued", "running", "done")
    job = finished(client, headers, answer.headers["Location"])
    assert job["state"] == "done"
    assert job["report"]["rows"] == 2 and job["report"]["imported"] == 2 and job["report"]["bad_rows"] == 0
    assert job["segment_changes"] == 2  # two new listeners, each given its first segment
    listed = client.get("/api/v1/imports/1/jobs", headers=headers).get_json()["jobs"]
    assert [j["job_id"] for j in listed] == [job["job_id"]]


def test_a_row_of_another_station_is_a_bad_row_and_is_not_written_there(client, stations, key_for):
    headers = key_for(1)
    job = finished(client, headers, upload(client, headers, jsonl(PROFILES)).headers["Location"])
    assert job["report"]["imported"] == 2 and job["report"]["bad_rows"] == 1
    assert job["report"]["errors"][0]["line"] == 3 and "another station" in job["report"]["errors"][0]["reason"]
    assert Listener.objects(company_id=2).count() == 0
    assert Listener.objects(company_id=1).count() == 2


def test_a_file_over_the_size_limit_answers_413_with_the_limit(app, client, stations, key_for, monkeypatch):
    monkeypatch.setitem(app.config, "MAX_CONTENT_LENGTH", 2**20)
    body = (b'--cut\r\nContent-Disposition: form-data; name="file"; filename="big.jsonl"\r\n\r\n'
            + b"x" * 2**20 + b"\r\n--cut--\r\n")  # built by hand: the test client would spool it to a file
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), data=body,
                         content_type="multipart/form-data; boundary=cut")
    assert answer.status_code == 413
    assert "larger than 1 MB" in answer.get_json()["detail"]
    assert client.get("/api/v1/imports/1/jobs", headers=key_for(1)).get_json()["jobs"] == []


def test_a_file_named_neither_csv_nor_jsonl_is_read_by_its_first_character(client, stations, key_for):
    answer = upload(client, key_for(1), jsonl(PROFILES[:1]), name="export")
    job = finished(client, key_for(1), answer.headers["Location"])
    assert job["report"]["imported"] == 1
    job = finished(client, key_for(1), upload(client, key_for(1), b"\x89PNG\r\n\x00\xff", name="logo.png")
                   .headers["Location"])
    assert job["state"] == "failed" and job["message"] == "cannot read logo.png: not UTF-8 text"


def test_a_field_other_than_file_is_refused(client, stations, key_for):
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), content_type="multipart/form-data",
                         data={"file": (io.BytesIO(jsonl(PROFILES[:1])), "a.jsonl"), "kind": "shows"})
    assert answer.status_code == 422


def test_another_stations_job_is_not_found(client, stations, key_for):
    location = upload(client, key_for(1), jsonl(PROFILES[:1])).headers["Location"]
    finished(client, key_for(1), location)
    job_id = location.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/imports/2/jobs/{job_id}", headers=key_for(2)).status_code == 404
