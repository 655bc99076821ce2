"""The API shows an import's file name as the station gave it, though the job stores it sealed (issue 48, item 3)."""
from __future__ import annotations

import bson
import pytest

from core.db.connection import get_db
from tests.api.test_imports_api import PROFILES, finished, jsonl, upload
from tests.factories import make_company

pytestmark = pytest.mark.db

NAME = "zanele-qwertyuiop-0829990001.jsonl"


def test_a_jobs_file_name_is_shown_by_the_api_and_stored_by_no_document(client, key_for):
    make_company(1)
    headers = key_for(1)
    answer = upload(client, headers, jsonl(PROFILES[:1]), name=NAME)
    assert answer.get_json()["filename"] == NAME
    job = finished(client, headers, answer.headers["Location"])
    assert job["state"] == "done" and job["filename"] == NAME
    assert [j["filename"] for j in client.get("/api/v1/imports/1/jobs", headers=headers).get_json()["jobs"]] == [NAME]
    for collection in ("import_jobs", "import_reports"):
        assert all(b"zanele" not in bson.encode(doc).lower() for doc in get_db()[collection].find())
