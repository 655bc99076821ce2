"""Uploads at rest (issue 48, item 6): an upload names listeners, so its file is readable by the service alone and is
kept no longer than its job needs it: gone when the import ends done or failed, when its process died, and when it
waited an hour for its mapping (the worker's sweep, every minute); a check keeps it for its import."""
from __future__ import annotations

import io
import os
import stat
from datetime import timedelta

import pytest

from core.clock import utcnow
from core.db.connection import get_db
from core.ingest import staging
from core.ingest.jobs import ImportJob, run_in_background, save_job, start_import
from core.ingest.staging import check_staged, import_staged, preview_upload, stage_upload
from core.service.worker import Worker
from tests.factories import make_company

pytestmark = pytest.mark.db

CHANNELS = b"channel_type,name\n1,WhatsApp\n2,SMS\n"
MAPPING = {"channel_type": "channel_type", "name": "name"}


@pytest.fixture
def data_dir(app):
    """The data folder of the app's settings (the worker sweeps its uploads), station 1 made."""
    make_company(1)
    return app.config["SETTINGS"].data_dir


def uploads(data_dir) -> set[str]:
    folder = data_dir / "uploads"
    return {path.name for path in folder.iterdir()} if folder.exists() else set()


def staged(data_dir, body: bytes = CHANNELS, name: str = "channels.csv") -> ImportJob:
    return stage_upload(1, "channels", name, io.BytesIO(body), data_dir)


def an_hour_later(monkeypatch, minutes: int = 61) -> None:
    """The clock the uploads' expiry reads, moved on."""
    later = utcnow() + timedelta(minutes=minutes)
    monkeypatch.setattr(staging, "utcnow", lambda: later)


def test_an_upload_is_written_readable_by_the_service_alone(data_dir):
    job = staged(data_dir)
    assert stat.S_IMODE(os.stat(job.upload).st_mode) == 0o600


def test_a_preview_is_written_readable_by_the_service_alone(data_dir, monkeypatch):
    modes = []
    real = staging.preview_file

    def seen(kind, path, *args):
        modes.append(stat.S_IMODE(os.stat(path).st_mode))
        return real(kind, path, *args)

    monkeypatch.setattr(staging, "preview_file", seen)
    preview_upload(1, "channels", "channels.csv", io.BytesIO(CHANNELS), data_dir)
    assert modes == [0o600]


def test_an_upload_whose_import_is_done_leaves_no_file(data_dir):
    before = uploads(data_dir)
    job = start_import(1, "channels", "channels.csv", io.BytesIO(CHANNELS), data_dir, wait=True)
    job.reload()
    assert job.state == "done" and uploads(data_dir) == before


def test_an_upload_whose_import_failed_leaves_no_file(data_dir):
    before = uploads(data_dir)
    job = start_import(1, "channels", "logo.png", io.BytesIO(b"\x89PNG\r\n\x00\xff"), data_dir, wait=True)
    job.reload()
    assert job.state == "failed" and uploads(data_dir) == before


def test_a_checked_upload_keeps_its_file_for_its_import_which_deletes_it(data_dir):
    job = staged(data_dir)
    check_staged(1, str(job.id), MAPPING, None, "day_first", wait=True)
    job.reload()
    assert job.state == "checked" and os.path.exists(job.upload)
    import_staged(1, str(job.id), wait=True)
    job.reload()
    assert job.state == "done" and not os.path.exists(job.upload)


def test_an_upload_left_running_by_a_process_that_died_is_deleted_by_the_next_import(data_dir):
    dead, _ = save_job(1, "channels", "dead.csv", io.BytesIO(CHANNELS), data_dir, state="running")
    get_db()["locks"].insert_one({"_id": "import:1", "owner": "the dead process",
                                  "until": utcnow() - timedelta(seconds=1)})
    start_import(1, "channels", "channels.csv", io.BytesIO(CHANNELS), data_dir, wait=True)
    dead.reload()
    assert dead.state == "failed" and not os.path.exists(dead.upload)


def test_an_upload_waiting_an_hour_for_its_mapping_is_deleted_by_the_workers_sweep(app, data_dir, monkeypatch):
    mapping, checked = staged(data_dir), staged(data_dir)
    check_staged(1, str(checked.id), MAPPING, None, "day_first", wait=True)
    an_hour_later(monkeypatch)
    Worker(app.config["SETTINGS"]).sweep()
    for job in (mapping, checked):
        job.reload()
        assert job.state == "expired" and "an hour" in job.message and not os.path.exists(job.upload)


def test_an_upload_waiting_less_than_an_hour_is_kept(app, data_dir, monkeypatch):
    job = staged(data_dir)
    an_hour_later(monkeypatch, minutes=59)
    Worker(app.config["SETTINGS"]).sweep()
    job.reload()
    assert job.state == "mapping" and os.path.exists(job.upload)


def test_an_upload_waiting_an_hour_is_also_deleted_at_the_stations_next_upload(data_dir, monkeypatch):
    job = staged(data_dir)
    an_hour_later(monkeypatch)
    staged(data_dir)
    job.reload()
    assert job.state == "expired" and not os.path.exists(job.upload)


def test_the_sweep_deletes_a_file_whose_job_ended_elsewhere_and_keeps_one_still_being_saved(app, data_dir):
    ended = staged(data_dir)
    ImportJob.objects(id=ended.id).update_one(set__state="expired")  # expired by another host's sweep
    saving = data_dir / "uploads" / "0123456789abcdef01234567.csv"  # no job yet: its upload is being saved
    saving.write_bytes(CHANNELS)
    Worker(app.config["SETTINGS"]).sweep()
    assert not os.path.exists(ended.upload) and saving.exists()
    saving.unlink()


def test_a_job_expired_while_it_was_queued_is_not_started(data_dir):
    job, path = save_job(1, "channels", "channels.csv", io.BytesIO(CHANNELS), data_dir)
    ImportJob.objects(id=job.id).update_one(set__state="expired", set__message="erased")
    run_in_background(job, path, wait=True)
    job.reload()
    assert job.state == "expired" and job.message == "erased" and not path.exists()
