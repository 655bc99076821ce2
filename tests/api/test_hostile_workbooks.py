"""Hostile workbooks through the API (issue 47, item 2): a preview of one past a bound is a 422 naming the bound, an
upload whose archive is past one is a 422 and keeps nothing, and an import whose reading fails ends its job with the
reason, frees the station's lock at once and removes its file, so that the station's next import runs. The process
answering (here, this one) never grows by what a hostile workbook asks for."""
from __future__ import annotations

import io
import resource
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.db.connection import get_db
from core.ingest.jobs import ImportJob
from tests import workbooks
from tests.api.test_imports_api import finished, upload
from tests.factories import make_company

pytestmark = pytest.mark.db


@pytest.fixture
def headers(app, key_for):
    make_company(1)
    return key_for(1)


@pytest.fixture
def uploads(app):
    """The folder uploads wait in; what a test leaves there is a file it failed to remove."""
    folder = app.config["SETTINGS"].data_dir / "uploads"
    before = set(folder.glob("*")) if folder.exists() else set()
    yield lambda: set(folder.glob("*")) - before if folder.exists() else set()


def preview(client, headers, body: bytes):
    return client.post("/api/v1/imports/1/channels/preview", headers=headers,
                       data={"file": (io.BytesIO(body), "channels.xlsx")}, content_type="multipart/form-data")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.parametrize(("name", "said"), [("sparse", "memory"), ("inflating", "100 times"),
                                            ("billion laughs", "document type"),
                                            ("external entity", "document type")])
def test_a_preview_of_a_hostile_workbook_is_422_naming_the_bound_and_keeps_nothing(client, headers, uploads, name,
                                                                                   said):
    body = workbooks.HOSTILE[name]()
    before = peak_mb()
    answer = preview(client, headers, body)
    assert answer.status_code == 422, answer.get_json()
    assert answer.get_json()["detail"][0]["loc"] == ["file"] and said in answer.get_json()["detail"][0]["msg"]
    assert peak_mb() - before < 50
    assert not uploads()


def test_a_preview_of_a_plain_workbook_still_shows_its_rows(client, headers):
    answer = preview(client, headers, workbooks.plain())
    assert answer.status_code == 200
    assert answer.get_json()["columns"] == ["channel_type", "name"] and answer.get_json()["rows"]


def test_an_upload_whose_archive_inflates_past_the_bound_is_422_and_nothing_is_kept(client, headers, uploads):
    answer = upload(client, headers, workbooks.inflating(64), "channels.xlsx", "channels")
    assert answer.status_code == 422
    assert "100 times" in answer.get_json()["detail"][0]["msg"]
    assert ImportJob.objects(company_id=1).count() == 0 and not uploads()


def test_an_import_whose_reader_dies_fails_with_the_reason_and_the_next_import_runs(client, headers, uploads):
    dead = finished(client, headers, upload(client, headers, workbooks.sparse(), "far.xlsx", "channels")
                    .headers["Location"])
    assert dead["state"] == "failed" and "memory" in dead["message"]
    assert get_db()["locks"].find_one({"_id": "import:1"}) is None
    following = finished(client, headers, upload(client, headers, workbooks.plain(), "channels.xlsx", "channels")
                         .headers["Location"])
    assert following["state"] == "done" and following["report"]["imported"] == 2
    assert not uploads()


def test_an_import_left_running_by_a_process_that_died_is_failed_by_the_next_one(client, headers, tmp_path):
    left = tmp_path / "left.xlsx"
    left.write_bytes(workbooks.plain())
    stale = ImportJob(company_id=1, kind="channels", filename="left.xlsx", state="running", upload=str(left))
    stale.save()
    get_db()["locks"].insert_one({"_id": "import:1", "owner": "the dead process",
                                  "until": utcnow() - timedelta(seconds=1)})
    following = finished(client, headers, upload(client, headers, workbooks.plain(), "channels.xlsx", "channels")
                         .headers["Location"])
    assert following["state"] == "done"
    stale.reload()
    assert stale.state == "failed" and "process" in stale.message and not left.exists()
