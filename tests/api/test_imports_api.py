"""Uploads through the API: POST /api/v1/imports/{company_id}/{kind} answers 202 and a Location to poll."""
from __future__ import annotations

import io
import json
import time

import pytest

from core.listeners.models import Listener
from tests.factories import make_company, stored_listener

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
    assert job["state"] == "failed"
    assert job["message"] == "cannot read logo.png: not a text file (CSV in UTF-8 or Windows-1252)"


def test_a_field_other_than_file_is_refused(client, stations, key_for):
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), content_type="multipart/form-data",
                         data={"file": (io.BytesIO(jsonl(PROFILES[:1])), "a.jsonl"), "kind": "shows"})
    assert answer.status_code == 422


def test_another_stations_job_is_not_found(client, stations, key_for):
    location = upload(client, key_for(1), jsonl(PROFILES[:1])).headers["Location"]
    finished(client, key_for(1), location)
    job_id = location.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/imports/2/jobs/{job_id}", headers=key_for(2)).status_code == 404


# --- issue 26: the mapping step, mappings, dry runs ---

NATURAL = "Name,Cell,Gender,Age,Suburb\nThandi Mokoena,082 123 4567,F,34,Soweto\nSipho,no number,M,51,Umlazi\n"


def preview(client, headers, body: bytes, name: str = "people.csv", kind: str = "profiles", **parts):
    data = {"file": (io.BytesIO(body), name), **{k: json.dumps(v) if k == "mapping" else v for k, v in parts.items()}}
    return client.post(f"/api/v1/imports/1/{kind}/preview", headers=headers, data=data,
                       content_type="multipart/form-data")


def test_a_preview_proposes_a_mapping_and_shows_the_first_rows_as_stored(client, stations, key_for):
    answer = preview(client, key_for(1), NATURAL.encode())
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["mapping"] == {"Name": "name", "Cell": "mobile_number", "Gender": "gender", "Age": "age_group",
                               "Suburb": "location"}
    assert body["mapping_source"] == "proposed" and body["missing"] == [] and body["problems"] == []
    first, second = body["rows"]
    assert first["values"] == {"company_id": 1, "originator": "27821234567", "name": "Thandi Mokoena",
                               "mobile_number": "+27821234567", "gender": "female", "age_group": "25-34",
                               "location": "Soweto"}
    assert second["bad_row"]["columns"] == ["Cell"] and "no originator column" in second["bad_row"]["reason"]
    assert Listener.objects.count() == 0


def test_a_mapping_naming_a_column_the_file_lacks_is_a_problem_of_the_preview(client, stations, key_for):
    body = preview(client, key_for(1), NATURAL.encode(), mapping={"Cellphone": "mobile_number"}).get_json()
    assert body["problems"] == ["Cellphone: Unknown column 'Cellphone'; did you mean 'Cell'? (the file's columns)"]
    assert body["rows"] == []


def test_an_upload_with_a_mapping_imports_the_files_own_headers(client, stations, key_for):
    headers = key_for(1)
    mapping = {"Name": "name", "Cell": "mobile_number", "Gender": "gender", "Age": "age_group", "Suburb": None}
    answer = client.post("/api/v1/imports/1/profiles", headers=headers, content_type="multipart/form-data",
                         data={"file": (io.BytesIO(NATURAL.encode()), "people.csv"), "mapping": json.dumps(mapping)})
    job = finished(client, headers, answer.headers["Location"])
    assert job["state"] == "done" and job["mapping"] == mapping
    assert job["report"]["imported"] == 1 and job["report"]["bad_rows"] == 1
    assert job["report"]["bad_rows_by_field"] == {"mobile_number": 1}
    thandi = stored_listener(1, "27821234567")
    assert (thandi.name, thandi.gender, thandi.location) == ("Thandi Mokoena", "female", None)


def test_a_dry_run_answers_the_report_and_writes_nothing(client, stations, key_for):
    headers = key_for(1)
    answer = client.post("/api/v1/imports/1/profiles?dry_run=true", headers=headers,
                         content_type="multipart/form-data",
                         data={"file": (io.BytesIO(jsonl(PROFILES[:2])), "people.jsonl")})
    job = finished(client, headers, answer.headers["Location"])
    assert job["dry_run"] is True and job["report"]["dry_run"] is True
    assert (job["report"]["imported"], job["report"]["listeners_new"]) == (2, 2)
    assert Listener.objects(company_id=1).count() == 0


def test_an_unknown_query_parameter_or_part_is_422(client, stations, key_for):
    body = {"file": (io.BytesIO(jsonl(PROFILES[:1])), "a.jsonl")}
    answer = client.post("/api/v1/imports/1/profiles?dryrun=true", headers=key_for(1), data=body,
                         content_type="multipart/form-data")
    assert answer.status_code == 422 and "dry_run" in json.dumps(answer.get_json())
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), content_type="multipart/form-data",
                         data={"file": (io.BytesIO(b"{}"), "a.jsonl"), "maping": "{}"})
    assert answer.status_code == 422 and "mapping" in json.dumps(answer.get_json())


@pytest.mark.parametrize("data, loc, said", [
    ({"maping": "{}"}, ["body", "maping"], "Unknown part 'maping'; did you mean 'mapping'?"),
    ({"sheet": ["June", "July"]}, ["body", "sheet"], "Give this parameter once."),
    ({"sheet": ""}, ["body", "sheet"], "Empty value"),
], ids=["unknown part", "sheet twice", "blank sheet"])
def test_an_uploads_parts_are_read_as_every_form_is(client, stations, key_for, data, loc, said):
    body = {"file": (io.BytesIO(jsonl(PROFILES[:1])), "a.jsonl"), **data}
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), data=body,
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    [item] = answer.get_json()["detail"]
    assert item["loc"] == loc and item["msg"].startswith(said)
    assert client.get("/api/v1/imports/1/jobs", headers=key_for(1)).get_json()["jobs"] == []


@pytest.mark.parametrize("data", [{}, {"file": "27820000001,Lerato"}], ids=["no file", "file as text"])
def test_an_upload_without_a_file_part_is_422_saying_how_to_send_it(client, stations, key_for, data):
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), data=data,
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    [item] = answer.get_json()["detail"]
    assert item["loc"] == ["body", "file"] and "multipart/form-data in the field `file`" in item["msg"]


def test_a_mapping_to_a_field_that_no_kind_has_is_422_naming_the_closest(client, stations, key_for):
    answer = preview(client, key_for(1), NATURAL.encode(), mapping={"Cell": "mobile_nr"})
    assert answer.status_code == 422
    assert answer.get_json()["detail"][0]["msg"] == "Unknown field 'mobile_nr'; did you mean 'mobile_number'?"


def test_a_field_of_another_kind_is_a_problem_of_the_preview_and_fails_the_upload(client, stations, key_for):
    body = preview(client, key_for(1), NATURAL.encode(), kind="shows", mapping={"Cell": "mobile_number"}).get_json()
    assert body["problems"] and "shows field" in body["problems"][0]
    answer = client.post("/api/v1/imports/1/shows", headers=key_for(1), content_type="multipart/form-data",
                         data={"file": (io.BytesIO(NATURAL.encode()), "people.csv"),
                               "mapping": json.dumps({"Cell": "mobile_number"})})
    job = finished(client, key_for(1), answer.headers["Location"])
    assert job["state"] == "failed" and "Unknown shows field 'mobile_number'" in job["message"]
