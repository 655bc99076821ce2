"""What a station sent is personal until shown otherwise (issue 48, item 3): a file exported without its header row
has a listener's row for columns, so an import job keeps the columns its mapping names, the sheet as the station
typed it and a failure's words that quote the file sealed with its file's name, in one envelope; the producer sees
them as before. Jobs stored plain before still read and `encrypt` seals them; erasure writes again what names the
listener."""
from __future__ import annotations

import io

import bson
import pytest
import xlsxwriter
from bson import ObjectId

from core import personal
from core.db.connection import get_db
from core.ingest.jobs import start_import
from core.ingest.sealed_names import key_name, seal_plain
from core.ingest.staging import check_staged, preview_staged, remap_staged, stage_upload
from core.ingest.watching import get_job, job_status, recent_jobs
from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from tests.factories import make_company

pytestmark = pytest.mark.db

NUMBER, NAME = "27829990001", "Zanele Qwertyuiop"
HEADERLESS_CSV = f"{NUMBER},{NAME},female,Soweto\n27829990002,Sipho Dlamini,male,Soweto\n".encode()
HEADERLESS = {NUMBER: "originator", NAME: "name", "female": "gender", "Soweto": "location"}
"""The mapping of that export's columns, as the mapping step shows them: by its first row, a listener's."""
SHEET = "call 0829990001"


@pytest.fixture
def station(app, tmp_path):
    make_company(1)
    return tmp_path


def stored(collection: str = "import_jobs") -> bytes:
    """Every document of the collection as the database holds it."""
    return b"".join(bson.encode(doc) for doc in get_db()[collection].find())


def holds_the_listener(raw: bytes) -> bool:
    return b"9990001" in raw or b"zanele" in raw.lower()


def uploaded(data_dir, body: bytes = HEADERLESS_CSV, name: str = "export.csv", kind: str = "profiles", **options):
    job = start_import(1, kind, name, io.BytesIO(body), data_dir, wait=True, **options)
    job.reload()
    return job


def channels_workbook(sheet: str) -> bytes:
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    rows = book.add_worksheet(sheet)
    for n, row in enumerate([["channel_type", "name"], [2, "WhatsApp"]]):
        rows.write_row(n, 0, row)
    book.close()
    return out.getvalue()


def test_the_mapping_of_a_file_without_headers_is_stored_sealed_and_shown_as_given(station):
    job = uploaded(station, mapping=HEADERLESS)
    assert job.state == "done"
    assert not holds_the_listener(stored())
    assert job_status(get_job(1, str(job.id)))["mapping"] == HEADERLESS
    assert [status["mapping"] for status in map(job_status, recent_jobs(1))] == [HEADERLESS]


def test_the_mapping_step_shows_the_columns_the_producer_chose_though_they_are_stored_sealed(station):
    job = stage_upload(1, "profiles", "export.csv", io.BytesIO(HEADERLESS_CSV), station)
    check_staged(1, str(job.id), HEADERLESS, None, "day_first", wait=True)
    assert get_job(1, str(job.id)).state == "checked"
    assert not holds_the_listener(stored())
    remap_staged(1, str(job.id))
    step = preview_staged(1, str(job.id))
    assert (step["mapping"], step["mapping_source"]) == (HEADERLESS, "given")


def test_a_sheet_named_after_a_listener_is_stored_sealed_and_shown_as_typed(station):
    job = uploaded(station, channels_workbook(SHEET), "channels.xlsx", "channels", sheet=SHEET)
    assert job.state == "done", job_status(job)["message"]
    assert not holds_the_listener(stored()) and not holds_the_listener(stored("import_reports"))
    assert job_status(get_job(1, str(job.id)))["sheet"] == SHEET


def test_a_failed_mappings_message_quotes_the_files_columns_only_sealed(station):
    job = uploaded(station, mapping={"MSISDN": "originator"})
    assert job.state == "failed"
    assert not holds_the_listener(stored())
    assert job.message == "The mapping does not fit the file's columns."
    shown = job_status(get_job(1, str(job.id)))["message"]
    assert shown.startswith("MSISDN: Unknown column 'MSISDN'") and NUMBER in shown  # as the producer read it


def test_a_file_that_cannot_be_read_is_said_plainly_and_its_words_shown_sealed(station):
    job = uploaded(station, b"\x89PNG\r\n\x00\xff", f"{NAME}.png", "channels")
    assert job.message == "The file cannot be read." and not holds_the_listener(stored())
    assert job_status(get_job(1, str(job.id)))["message"].startswith(f"cannot read {NAME}.png: not a text file")


def plain_job(**fields) -> ObjectId:
    """A failed job as stored before its envelope: its name, mapping, sheet and message plain."""
    job_id = ObjectId()
    get_db()["import_jobs"].insert_one({
        "_id": job_id, "company_id": 1, "kind": "profiles", "filename": f"{NAME}.csv", "state": "failed",
        "message": f"MSISDN: Unknown column 'MSISDN'; known: {NUMBER}, {NAME}.", "lines": 2, "done": 0,
        "upload": f"/var/uploads/{job_id}.csv", "dry_run": False, "sheet": SHEET,
        "mapping": [{"column": column, "field": name} for column, name in HEADERLESS.items()], **fields})
    return job_id


def shown(job_id: ObjectId) -> tuple:
    status = job_status(get_job(1, str(job_id)))
    return status["filename"], status["mapping"], status["sheet"], status["message"]


BEFORE = (f"{NAME}.csv", HEADERLESS, SHEET, f"MSISDN: Unknown column 'MSISDN'; known: {NUMBER}, {NAME}.")


def test_a_job_stored_plain_before_still_reads(station):
    assert shown(plain_job()) == BEFORE


def test_encrypt_seals_a_job_stored_plain_before_and_it_reads_as_it_did(station):
    job_id = plain_job()
    encrypt_stations()
    raw = get_db()["import_jobs"].find_one({"_id": job_id})
    assert not holds_the_listener(stored()) and raw["sealed"] and raw["message"] == ""
    assert not {"filename", "mapping", "sheet"} & set(raw)
    assert shown(job_id) == BEFORE
    assert seal_plain(1) == 0  # resumable: nothing is sealed twice


def test_a_job_whose_name_alone_was_sealed_before_is_sealed_whole_under_the_same_key(station):
    job_id, version = ObjectId(), str(ObjectId())
    envelope = personal.seal(key_name(job_id, version), f"{NAME}.csv".encode())
    plain_job(_id=job_id, filename_key=version, sealed_filename=envelope, filename=None)
    get_db()["import_jobs"].update_one({"_id": job_id}, {"$unset": {"filename": ""}})
    assert shown(job_id) == BEFORE
    assert seal_plain(1) == 1
    raw = get_db()["import_jobs"].find_one({"_id": job_id})
    assert raw["sealed_key"] == version and "sealed_filename" not in raw and not holds_the_listener(stored())
    assert shown(job_id) == BEFORE


def test_erasure_writes_again_the_columns_sheet_and_words_that_name_the_listener(station):
    assert uploaded(station, f"originator,name\n{NUMBER},{NAME}\n".encode()).state == "done"
    mapped = uploaded(station, mapping=HEADERLESS, sheet=None)
    failed = uploaded(station, mapping={"MSISDN": "originator"})
    old = get_db()["import_jobs"].find_one({"_id": mapped.id})
    erase_listener(1, NUMBER, "test-secret")
    for job_id in (mapped.id, failed.id):
        status = job_status(get_job(1, str(job_id)))
        said = " ".join([*(status["mapping"] or {}), status["message"]])
        assert NUMBER not in said and NAME not in said and "female" in said
    assert job_status(get_job(1, str(failed.id)))["message"].startswith("MSISDN: Unknown column 'MSISDN'")
    assert personal.opened(old["sealed"]) is None
