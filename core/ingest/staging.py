"""An upload's mapping step. The dashboard keeps a file while its producer maps its columns (state `mapping`),
checks it whole by a dry run (`checking`, then `checked` with the dry run's report) and only then imports it
(`queued`, `running`, `done`), so that nothing is written before the producer has seen what would be.

An upload names listeners, so it is kept no longer than its job needs it: a file left waiting longer than STAGED_TTL
(an hour) is deleted and its job marked `expired`, by the worker's sweep every minute (`sweep_uploads`, which also
removes any file of its host's DATA_DIR/uploads that no job holds any more) and at the station's next upload. Erasure
removes the waiting uploads that hold the erased listener (`forget_listener`). The API's preview reads an upload's
start the same way and keeps nothing.
"""
from __future__ import annotations

import shutil
import uuid
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import BinaryIO

from bson import ObjectId
from bson.errors import InvalidId

from core.clock import utcnow
from core.errors import Conflict
from core.ingest.jobs import ImportJob, importable, nothing_imported, run_in_background, save_job
from core.ingest.models import ImportReport
from core.ingest.preview import preview_file, read_start, station_mapping
from core.ingest.sealed_names import (
    contents,
    forget_names,
    given_mapping,
    pairs_of,
    seal_plain,
    sealing,
    sheet_of,
)
from core.ingest.upload_search import holds_any, search_forms
from core.ingest.uploads import CHUNK, format_of, private_file
from core.ingest.watching import get_job
from core.personal.registry import Erasure, Store, declare
from core.stations.companies import get_company

STAGED_TTL = timedelta(hours=1)
WAITING = ("mapping", "checked")
NOT_STARTED = (*WAITING, "checking", "queued")  # a file kept, nothing of it imported yet
HOLDING = (*NOT_STARTED, "running")  # a job that still needs its file
WAITED = "Not imported: the file waited an hour for its mapping, and was deleted."
ERASED = "Not imported: the file was deleted because a listener in it was erased."
NOT_WAITING = "This file is no longer waiting to be mapped: upload it again."


def stage_upload(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path,
                 actor: str = "") -> ImportJob:
    """Keep the upload for its mapping step; nothing of it is imported yet (a workbook past a bound is not kept:
    WorkbookRefused)."""
    expire_staged(company_id)
    job, _ = save_job(company_id, kind, filename, stream, data_dir, actor, state="mapping")
    return job


def check_staged(company_id: int, job_id: str, mapping: dict, sheet: str | None, date_order: str,
                 wait: bool = False) -> ImportJob:
    """Keep the producer's mapping (sealed, with the sheet) and run the whole file through the import as a dry run,
    in the background. ValidationFailed for a mapping that does not fit the file; Conflict when the file is no longer
    waiting."""
    job = _waiting(company_id, job_id)
    table, _ = read_start(job.upload, sheet)
    station_mapping(job.kind, company_id, mapping, table.columns, date_order)  # refused here, not in the thread
    held = replace(contents(job), mapping=pairs_of(mapping), sheet=sheet or "")
    _moved(job, WAITING, **sealing(job, held), set__date_order=date_order, set__state="checking",
           unset__check_report_id=1)
    run_in_background(job, Path(job.upload), wait=wait, check=True)
    return job


def import_staged(company_id: int, job_id: str, wait: bool = False) -> ImportJob:
    """Import a checked file with the mapping it was checked with; Conflict unless its dry run has finished and
    found rows to import."""
    job = get_job(company_id, job_id)
    if job.state != "checked":
        raise Conflict("Check the whole file first: the import starts from its checked mapping.")
    check = ImportReport.objects(id=job.check_report_id).first()
    if check is not None and not importable(check):
        raise Conflict(nothing_imported(check).replace("Nothing was imported", "Nothing to import"))
    _moved(job, ("checked",), set__state="queued")
    run_in_background(job, Path(job.upload), wait=wait)
    return job


def remap_staged(company_id: int, job_id: str) -> ImportJob:
    """Back to the mapping step from a checked file (its dry run's report is dropped)."""
    job = _waiting(company_id, job_id)
    _moved(job, WAITING, set__state="mapping", unset__check_report_id=1)
    return job


def preview_staged(company_id: int, job_id: str, given: dict | None = None, sheet: str | None = None,
                   order: str | None = None) -> dict:
    """The mapping step of a kept file: as the producer last set it (or as `given`), with the rows as stored."""
    job = _waiting(company_id, job_id)
    return preview_file(job.kind, job.upload, company_id, given if given is not None else given_mapping(job),
                        sheet or sheet_of(job), order or job.date_order or None)


def _waiting(company_id: int, job_id: str) -> ImportJob:
    """The station's job whose file waits for its mapping or its import; Conflict for any other."""
    job = get_job(company_id, job_id)
    if job.state not in WAITING or not job.upload or not Path(job.upload).exists():
        raise Conflict(NOT_WAITING)
    return job


def _moved(job: ImportJob, states: tuple[str, ...], **update) -> None:
    """Update the job (and reload it) if it is still in one of `states`; Conflict when it has left them meanwhile
    (its file expired or was erased)."""
    if not ImportJob.objects(id=job.id, state__in=states).update_one(**update):
        raise Conflict(NOT_WAITING)
    job.reload()


def expire_staged(company_id: int | None = None) -> int:
    """Delete the files of the uploads (of one station, or of all) that have waited longer than STAGED_TTL, their jobs
    marked expired; how many."""
    query = {"state__in": WAITING, "started_at__lt": utcnow() - STAGED_TTL}
    stale = ImportJob.objects(**query, **({} if company_id is None else {"company_id": company_id}))
    return sum(_expired(job, WAITING, WAITED) for job in stale.only("id", "upload", "state"))


def _expired(job: ImportJob, states: tuple[str, ...], message: str) -> bool:
    """Mark the job expired and delete its file, if the job is still in one of `states` (else it has moved on, and
    keeps its file); whether it was."""
    if not ImportJob.objects(id=job.id, state__in=states).update_one(set__state="expired", set__message=message,
                                                                     set__finished_at=utcnow()):
        return False
    if job.upload:
        Path(job.upload).unlink(missing_ok=True)
    return True


def sweep_uploads(data_dir: Path) -> int:
    """The worker's chore: every station's uploads that waited past STAGED_TTL expired, then every file of this host's
    DATA_DIR/uploads that no job holds any more deleted (a job expired or ended on another host, a preview or an
    upload whose process died); how many files this host deleted."""
    expire_staged()
    folder = Path(data_dir) / "uploads"
    ids = {path: _job_id(path) for path in (folder.iterdir() if folder.is_dir() else ())}
    states = {job["_id"]: job["state"] for job in ImportJob._get_collection().find(
        {"_id": {"$in": [job_id for job_id in ids.values() if job_id]}}, {"state": 1})}
    return sum(_unheld_deleted(path, job_id, states) for path, job_id in ids.items())


def _unheld_deleted(path: Path, job_id: ObjectId | None, states: dict) -> bool:
    """Delete the file unless its job holds it, or it may still be being saved (no job yet, written in the last
    STAGED_TTL); whether it was."""
    try:
        if states.get(job_id) in HOLDING or (job_id not in states and path.stat().st_mtime >
                                             (utcnow() - STAGED_TTL).timestamp()):
            return False
        path.unlink()
    except FileNotFoundError:  # deleted meanwhile by its own job
        return False
    return True


def _job_id(path: Path) -> ObjectId | None:
    """The job an upload's file belongs to (it is named by the job's id), None for any other file."""
    try:
        return ObjectId(path.name.split(".", 1)[0])
    except InvalidId:
        return None


def forget_listener(company_id: int, spellings: list[str]) -> int:
    """Delete the station's uploads not yet imported whose bytes hold any of an erased listener's spellings, their
    jobs marked expired with a message that names nobody; how many. An upload that cannot be searched here (a
    workbook past its bounds, a file kept on another host) is deleted as well: nothing shows that it does not hold
    them."""
    forms = search_forms(spellings)
    if not forms:
        return 0
    held = ImportJob.objects(company_id=company_id, state__in=NOT_STARTED).only("id", "upload", "state")
    return sum(_expired(job, NOT_STARTED, ERASED) for job in held if _may_hold(job, forms))


def _may_hold(job: ImportJob, forms: list[bytes]) -> bool:
    """Whether the job's file may hold any of `forms`: it does, or it cannot be read here."""
    path = Path(job.upload) if job.upload else None
    try:
        return path is None or holds_any(path, forms)
    except OSError:
        return True


PREVIEW_BYTES = 1 << 20  # of a text file: far more than the rows a preview reads


def preview_upload(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path,
                   given: dict | None = None, sheet: str | None = None) -> dict:
    """The mapping step of an upload that is not kept (the API's preview): the start of a text file, or a whole
    workbook, saved for as long as it is read."""
    get_company(company_id)
    first = stream.read(PREVIEW_BYTES)
    path = Path(data_dir) / "uploads" / f"preview-{uuid.uuid4().hex}{format_of(filename, first)}"
    try:
        with private_file(path) as out:
            if path.suffix == ".xlsx":
                out.write(first)
                shutil.copyfileobj(stream, out, CHUNK)
            else:
                out.write(first[:first.rfind(b"\n") + 1] if len(first) == PREVIEW_BYTES else first)
        return {"company_id": company_id, "kind": kind, "filename": Path(filename).name,
                **preview_file(kind, path, company_id, given, sheet)}
    finally:
        path.unlink(missing_ok=True)


def erase_listener(erasure: Erasure) -> int:
    """Uploads not yet imported that hold the listener deleted, and what jobs keep sealed (file names, the columns
    their mappings name, sheets, failures' words) written again where it spells them; how many jobs."""
    spellings = list(erasure.spellings.literals)
    return forget_listener(erasure.company_id, spellings) + forget_names(erasure.company_id, spellings,
                                                                         erasure.spellings)


STORE = declare(Store("import_jobs", "import_jobs", erase=erase_listener, migrate=seal_plain,
                      personal=("sealed",  # the file's name, mapping and sheet, a failure's words: sealed
                                "filename", "sealed_filename")))  # stored before: sealed by `seal_plain`
