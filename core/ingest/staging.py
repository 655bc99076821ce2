"""An upload's mapping step. The dashboard keeps a file while its producer maps its columns (state `mapping`),
checks it whole by a dry run (`checking`, then `checked` with the dry run's report) and only then imports it
(`queued`, `running`, `done`), so that nothing is written before the producer has seen what would be.

A file left waiting longer than STAGED_TTL is deleted and its job marked `expired`, at the station's next upload.
The API's preview reads an upload's start the same way and keeps nothing.
"""
from __future__ import annotations

import shutil
import uuid
from datetime import timedelta
from pathlib import Path
from typing import BinaryIO

from core.clock import utcnow
from core.errors import Conflict
from core.ingest.jobs import CHUNK, ImportJob, format_of, get_job, run_in_background, save_job
from core.ingest.preview import preview_file, read_start, station_mapping
from core.stations.companies import get_company

STAGED_TTL = timedelta(days=1)
WAITING = ("mapping", "checked")


def stage_upload(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path,
                 actor: str = "") -> ImportJob:
    """Keep the upload for its mapping step; nothing of it is imported yet (a workbook past a bound is not kept:
    WorkbookRefused)."""
    expire_staged(company_id)
    job, _ = save_job(company_id, kind, filename, stream, data_dir, actor, state="mapping")
    return job


def check_staged(company_id: int, job_id: str, mapping: dict, sheet: str | None, date_order: str,
                 wait: bool = False) -> ImportJob:
    """Keep the producer's mapping and run the whole file through the import as a dry run, in the background.
    ValidationFailed for a mapping that does not fit the file; Conflict when the file is no longer waiting."""
    job = _waiting(company_id, job_id)
    table, _ = read_start(job.upload, sheet)
    station_mapping(job.kind, company_id, mapping, table.columns, date_order)  # refused here, not in the thread
    job.update(set__mapping=[{"column": column, "field": name} for column, name in mapping.items()],
               set__sheet=sheet or None, set__date_order=date_order, set__state="checking", unset__check_report_id=1)
    job.reload()
    run_in_background(job, Path(job.upload), wait=wait, check=True)
    return job


def import_staged(company_id: int, job_id: str, wait: bool = False) -> ImportJob:
    """Import a checked file with the mapping it was checked with; Conflict unless its dry run has finished."""
    job = get_job(company_id, job_id)
    if job.state != "checked":
        raise Conflict("Check the whole file first: the import starts from its checked mapping.")
    job.update(set__state="queued")
    job.reload()
    run_in_background(job, Path(job.upload), wait=wait)
    return job


def remap_staged(company_id: int, job_id: str) -> ImportJob:
    """Back to the mapping step from a checked file (its dry run's report is dropped)."""
    job = _waiting(company_id, job_id)
    job.update(set__state="mapping", unset__check_report_id=1)
    job.reload()
    return job


def preview_staged(company_id: int, job_id: str, given: dict | None = None, sheet: str | None = None,
                   order: str | None = None) -> dict:
    """The mapping step of a kept file: as the producer last set it (or as `given`), with the rows as stored."""
    job = _waiting(company_id, job_id)
    return preview_file(job.kind, job.upload, company_id, given if given is not None else job.given_mapping(),
                        sheet or job.sheet or None, order or job.date_order or None)


def _waiting(company_id: int, job_id: str) -> ImportJob:
    """The station's job whose file waits for its mapping or its import; Conflict for any other."""
    job = get_job(company_id, job_id)
    if job.state not in WAITING or not job.upload or not Path(job.upload).exists():
        raise Conflict("This file is no longer waiting to be mapped: upload it again.")
    return job


def expire_staged(company_id: int) -> int:
    """Delete the files of the station's uploads that have waited longer than STAGED_TTL; how many."""
    stale = ImportJob.objects(company_id=company_id, state__in=WAITING, started_at__lt=utcnow() - STAGED_TTL)
    count = 0
    for job in stale:
        if job.upload:
            Path(job.upload).unlink(missing_ok=True)
        job.update(set__state="expired", set__message="Not imported: the file waited a day for its mapping.")
        count += 1
    return count


PREVIEW_BYTES = 1 << 20  # of a text file: far more than the rows a preview reads


def preview_upload(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path,
                   given: dict | None = None, sheet: str | None = None) -> dict:
    """The mapping step of an upload that is not kept (the API's preview): the start of a text file, or a whole
    workbook, saved for as long as it is read."""
    get_company(company_id)
    first = stream.read(PREVIEW_BYTES)
    path = Path(data_dir) / "uploads" / f"preview-{uuid.uuid4().hex}{format_of(filename, first)}"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "wb") as out:
            if path.suffix == ".xlsx":
                out.write(first)
                shutil.copyfileobj(stream, out, CHUNK)
            else:
                out.write(first[:first.rfind(b"\n") + 1] if len(first) == PREVIEW_BYTES else first)
        return {"company_id": company_id, "kind": kind, "filename": Path(filename).name,
                **preview_file(kind, path, company_id, given, sheet)}
    finally:
        path.unlink(missing_ok=True)
