"""An import report says the kind of its source, never the path it was given (issue 48, item 3): a station or an
operator names a file as it likes, after a listener too. Reports stored before kept the path; `encrypt` forgets it."""
from __future__ import annotations

import io

import bson
import pytest
from bson import ObjectId

from core.db.connection import get_db
from core.ingest.importer import import_file
from core.ingest.jobs import start_import
from core.ingest.models import ImportReport
from core.privacy.encrypt import encrypt_stations
from tests.factories import make_company

pytestmark = pytest.mark.db

CHANNELS = b"company_id,channel_type,name\n1,2,WhatsApp\n"


@pytest.fixture
def station(app, tmp_path):
    make_company(1)
    return tmp_path


def stored() -> bytes:
    return b"".join(bson.encode(doc) for doc in get_db()["import_reports"].find())


def test_a_file_imported_by_the_cli_is_said_to_be_a_file_not_by_its_path(station):
    path = station / "zanele 0829990001.csv"
    path.write_bytes(CHANNELS)
    report = import_file("channels", path)
    assert ImportReport.objects.get(id=report.id).source == "file"
    assert b"9990001" not in stored() and b"zanele" not in stored().lower()


def test_an_uploads_report_is_said_to_be_its_jobs(station):
    job = start_import(1, "channels", "zanele 0829990001.csv", io.BytesIO(CHANNELS), station, wait=True)
    job.reload()
    assert ImportReport.objects.get(id=job.report_id).source == f"upload:{job.id}"
    assert b"9990001" not in stored()


def test_encrypt_forgets_the_paths_reports_kept_before(station):
    job_id = ObjectId()
    sources = {f"/srv/lss/data/uploads/{job_id}.csv": f"upload:{job_id}",
               "/home/operator/zanele 0829990001.csv": "file", "demo": "demo", "": ""}
    ids = {source: get_db()["import_reports"].insert_one({"company_ids": [1], "kind": "channels",
                                                          "source": source}).inserted_id for source in sources}
    nobody = get_db()["import_reports"].insert_one({"company_ids": [], "kind": "channels",
                                                    "source": "/tmp/zanele 0829990001.csv"}).inserted_id
    encrypt_stations()
    assert {source: ImportReport.objects.get(id=ids[source]).source for source in sources} == sources
    assert ImportReport.objects.get(id=nobody).source == "file"
    assert b"9990001" not in stored()
