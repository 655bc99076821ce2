"""Hostile workbooks through the API (issue 47, item 2): a preview or an upload of one past a bound is a 422 naming
the bound and keeps nothing, and an import whose reader dies ends its job with the reason, frees the station's lock at
once and removes its file, so that the station's next import runs. The process
answering (here, this one) never grows by what a hostile workbook asks for."""
from __future__ import annotations

import io
import resource
import sys
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.db.connection import get_db
from core.ingest import workbook
from core.ingest.jobs import ImportJob, run_in_background, save_job
from tests import workbooks
from tests.api.test_imports_api import finished, upload
from tests.factories import make_company

pytestmark = pytest.mark.db


@pytest.fixture
def headers(app, key_for):
    make_company(1)
    return key_for(1)


class Uploads:
    """The folder uploads wait in; what a test leaves there (`left()`) is a file it failed to remove."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self._kept = data_dir / "uploads"
        self._before = self._files()

    def _files(self) -> set:
        return set(self._kept.glob("*")) if self._kept.exists() else set()

    def __call__(self) -> set:
        return self._files() - self._before


@pytest.fixture
def uploads(app):
    return Uploads(app.config["SETTINGS"].data_dir)


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


@pytest.mark.parametrize(("name", "said"), [("sparse", "memory"), ("inflating", "100 times")])
def test_an_upload_of_a_workbook_past_a_bound_is_422_and_nothing_is_kept(client, headers, uploads, name, said):
    answer = upload(client, headers, workbooks.HOSTILE[name](), "channels.xlsx", "channels")
    assert answer.status_code == 422
    assert said in answer.get_json()["detail"][0]["msg"]
    assert ImportJob.objects(company_id=1).count() == 0 and not uploads()


def test_an_import_whose_reader_dies_fails_with_the_reason_and_the_next_import_runs(app, client, headers, uploads,
                                                                                     monkeypatch):
    job, path = save_job(1, "channels", "channels.xlsx", io.BytesIO(workbooks.plain()), uploads.data_dir)
    monkeypatch.setattr(workbook, "READER", [sys.executable, "-c", "import os; os.abort()"])
    run_in_background(job, path, wait=True)
    job.reload()
    assert job.state == "failed" and "memory" in job.message
    assert get_db()["locks"].find_one({"_id": "import:1"}) is None
    monkeypatch.undo()
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
