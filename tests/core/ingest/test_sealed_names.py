"""Import file names are personal until shown otherwise (issue 48, item 3): a job stores the name the station gave its
file sealed under a key of the job's own, never plain, not in its message, its report or a log line; what it shows
says the name. Jobs stored before sealing still read, and `seal_plain` seals them in place, once."""
from __future__ import annotations

import io
import logging

import bson
import pytest
from bson import ObjectId

from core import personal
from core.db.connection import get_db
from core.ingest import jobs
from core.ingest.jobs import start_import
from core.ingest.sealed_names import forget_names, seal_plain
from core.ingest.watching import get_job, job_status, recent_jobs
from tests.factories import make_company

pytestmark = pytest.mark.db

NAME = "zanele-qwertyuiop-0829990001.csv"
CHANNELS = b"channel_type,name\n1,WhatsApp\n"


@pytest.fixture
def station(app, tmp_path):
    make_company(1)
    return tmp_path


def stored(collection: str) -> bytes:
    """Every document of the collection as the database holds it."""
    return b"".join(bson.encode(doc) for doc in get_db()[collection].find())


def test_a_jobs_file_name_is_stored_sealed_and_shown_unsealed(station):
    job = start_import(1, "channels", NAME, io.BytesIO(CHANNELS), station, wait=True)
    raw = get_db()["import_jobs"].find_one({"_id": job.id})
    assert "filename" not in raw and "sealed_filename" not in raw and raw["sealed"]
    assert b"zanele" not in stored("import_jobs").lower() and b"zanele" not in stored("import_reports").lower()
    assert job_status(get_job(1, str(job.id)))["filename"] == NAME
    assert [status["filename"] for status in map(job_status, recent_jobs(1))] == [NAME]


def test_a_failed_jobs_message_says_the_file_by_its_name_but_stores_it_without(station):
    job = start_import(1, "channels", "zanele.png", io.BytesIO(b"\x89PNG\r\n\x00\xff"), station, wait=True)
    assert b"zanele" not in stored("import_jobs").lower()
    shown = job_status(get_job(1, str(job.id)))
    assert shown["state"] == "failed" and shown["message"].startswith("cannot read zanele.png: ")


def test_an_import_that_fails_on_our_side_logs_the_job_not_the_file_name(station, monkeypatch, caplog):
    def broken(kind, path, **options):
        raise RuntimeError(f"fell over reading {path}")

    monkeypatch.setattr(jobs, "import_file", broken)
    with caplog.at_level(logging.INFO):
        job = start_import(1, "channels", NAME, io.BytesIO(CHANNELS), station, wait=True)
    assert str(job.id) in caplog.text and "zanele" not in caplog.text.lower()


def plain_job(name: str, message: str = "") -> ObjectId:
    """A job as stored before names were sealed."""
    job_id = ObjectId()
    get_db()["import_jobs"].insert_one({"_id": job_id, "company_id": 1, "kind": "channels", "filename": name,
                                        "state": "failed", "message": message, "lines": 2, "done": 0,
                                        "upload": f"/var/uploads/{job_id}.png", "mapping": [], "dry_run": False})
    return job_id


def test_a_job_stored_before_sealing_still_reads(station):
    job_id = plain_job(NAME)
    assert job_status(get_job(1, str(job_id)))["filename"] == NAME


def test_seal_plain_seals_the_names_of_jobs_stored_plain_once(station):
    named = plain_job(NAME, message=f"cannot read {NAME}: not a text file")
    plain_job("")
    assert seal_plain(1) == 2
    assert b"zanele" not in stored("import_jobs").lower()
    assert all("filename" not in doc for doc in get_db()["import_jobs"].find())
    shown = job_status(get_job(1, str(named)))
    assert shown["filename"] == NAME and shown["message"] == f"cannot read {NAME}: not a text file"
    assert seal_plain(1) == 0
    assert job_status(get_job(1, str(named)))["filename"] == NAME


def test_seal_plain_leaves_other_stations_alone(station):
    make_company(2)
    theirs = plain_job(NAME)
    get_db()["import_jobs"].update_one({"_id": theirs}, {"$set": {"company_id": 2}})
    assert seal_plain(1) == 0
    assert get_db()["import_jobs"].find_one({"_id": theirs})["filename"] == NAME


def test_erasure_writes_again_the_file_names_that_spell_the_listener_and_their_old_keys_go(station):
    named = start_import(1, "channels", NAME, io.BytesIO(CHANNELS), station, wait=True)
    other = start_import(1, "channels", "sipho.csv", io.BytesIO(CHANNELS), station, wait=True)
    old = get_db()["import_jobs"].find_one({"_id": named.id})
    assert forget_names(1, ["082 999 0001", "0829990001", "Zanele Qwertyuiop"]) == 1
    assert job_status(get_job(1, str(named.id)))["filename"] == "(erased)-(erased).csv"
    assert job_status(get_job(1, str(other.id)))["filename"] == "sipho.csv"
    assert personal.opened(old["sealed"]) is None
