"""The imports page shows an upload's file name as the station gave it, though the job stores it sealed (issue 48,
item 3)."""
from __future__ import annotations

import io

import bson
import pytest

from core.db.connection import get_db
from core.ingest.jobs import ImportJob

pytestmark = pytest.mark.db

NAME = "zanele-qwertyuiop-0829990001.csv"


@pytest.fixture
def signed_in(auth, producer):
    auth.login(producer)
    return auth.client


def test_an_uploads_file_name_is_shown_on_the_page_and_stored_sealed(signed_in):
    sent = signed_in.post("/stations/1/imports", content_type="multipart/form-data",
                          data={"kind": "channels", "file": (io.BytesIO(b"channel_type,name\n1,WhatsApp\n"), NAME)})
    assert sent.status_code == 303
    job = ImportJob.objects(company_id=1).first()
    raw = get_db()["import_jobs"].find_one({"_id": job.id})
    assert "filename" not in raw and b"zanele" not in bson.encode(raw).lower()
    for page in (f"/stations/1/imports?job={job.id}", "/stations/1/imports", f"/stations/1/imports/{job.id}"):
        assert NAME in signed_in.get(page).get_data(as_text=True)
