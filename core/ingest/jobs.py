"""Import jobs: a file uploaded to one station (dashboard or API), imported in the background and watched.

The upload is streamed to DATA_DIR/uploads first (its lines counted on the way, for the progress bar), then imported
by the one importer (core.ingest.importer.import_file, for this station only) in a daemon thread of the worker that
took the upload, and deleted. The job's progress lives in a document, so that any gunicorn worker answers the polls.
One import per station at a time, by a lease in the database (core.db.leases): a second upload while one runs is
queued (its job says so) and starts when the first has finished, never interleaved with it.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import BinaryIO

from bson import ObjectId
from bson.errors import InvalidId
from mongoengine import DateTimeField, Document, IntField, ObjectIdField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.db.leases import lease
from core.errors import NotFound, ValidationFailed
from core.ingest.importer import KINDS, import_file
from core.ingest.models import ImportReport
from core.segmentation.models import SegmentRun
from core.stations.companies import get_company

log = logging.getLogger(__name__)

SUFFIXES = (".csv", ".jsonl")
IMPORT_TTL = timedelta(hours=6)  # a lease older than this belonged to a worker that died mid-import
CHUNK = 1 << 20
PROGRESS_EVERY_S = 0.5  # the page polls every second


@stored
class ImportJob(Document):
    """One uploaded file: its station, kind and name, its state (queued, running, done, failed), the lines so far
    of how many, and when done its saved report and how many listeners changed segment."""

    company_id = IntField(required=True)
    kind = StringField(required=True)
    filename = StringField(default="")
    actor = StringField(default="")
    state = StringField(default="queued")
    lines = IntField(default=0)
    done = IntField(default=0)
    report_id = ObjectIdField()
    segment_changes = IntField(default=0)
    message = StringField(default="")
    started_at = DateTimeField(default=utcnow)
    finished_at = DateTimeField()
    meta = {"collection": "import_jobs", "indexes": [("company_id", "-started_at")]}


class ImportJobNotFound(NotFound):
    """No such import job for this station."""


def start_import(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path, actor: str = "",
                 wait: bool = False) -> ImportJob:
    """Save the upload and import it in the background, after any import of this station still under way.
    `wait` joins the thread (tests)."""
    get_company(company_id)
    _check_kind(kind)
    job = ImportJob(id=ObjectId(), company_id=company_id, kind=kind, filename=Path(filename).name, actor=actor)
    path = Path(data_dir) / "uploads" / str(job.id)
    try:
        path, job.lines = save_upload(stream, path, filename)
        job.save()
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    worker = threading.Thread(target=_work, args=(job, path), daemon=True, name=f"import-{company_id}")
    worker.start()
    if wait:
        worker.join()
    return job


def _check_kind(kind: str) -> None:
    """Unknown kinds are refused (422) before anything is written."""
    if kind not in KINDS:
        raise ValidationFailed.one(["path", "kind"], f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")


def save_upload(stream: BinaryIO, path: Path, filename: str) -> tuple[Path, int]:
    """Stream the upload to `path` plus its format's suffix, in chunks; the path and the number of lines (the
    progress bar's length)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    first = stream.read(CHUNK)
    path = path.with_name(path.name + format_of(filename, first))
    lines, last = 0, b"\n"
    with open(path, "wb") as out:
        for chunk in _chunks(first, stream):
            out.write(chunk)
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return path, lines + (last != b"\n")


def _chunks(first: bytes, stream: BinaryIO):
    """The chunk already read, then the rest of the stream."""
    if first:
        yield first
    yield from iter(lambda: stream.read(CHUNK), b"")


def format_of(filename: str, start: bytes) -> str:
    """.csv or .jsonl: the file name's when it says, else JSON Lines for a file that starts with `{` and CSV for any
    other (a file that is neither fails to read, and its job says why)."""
    suffix = Path(filename or "").suffix.lower()
    if suffix in SUFFIXES:
        return suffix
    return ".jsonl" if start.lstrip().startswith(b"{") else ".csv"


def _work(job: ImportJob, path: Path) -> None:
    """The import itself, once the station's lease is ours; whatever happens the job says how it ended and the
    file is deleted."""
    found = ImportJob.objects(id=job.id)
    update = {"set__state": "failed"}
    try:
        with lease(f"import:{job.company_id}", IMPORT_TTL, wait_s=IMPORT_TTL.total_seconds()):
            found.update_one(set__state="running", set__started_at=utcnow())
            job.reload()
            update = _import(job, path, found)
    except Exception:  # noqa: BLE001 - the page must learn that it failed; the log keeps why
        log.exception("import %s of company %s failed", job.id, job.company_id)
        update["set__message"] = "The import failed on our side; the error has been logged."
    finally:
        found.update_one(set__finished_at=utcnow(), **update)
        path.unlink(missing_ok=True)


def _import(job: ImportJob, path: Path, found) -> dict:
    """Run the importer for the job's station; the job's final fields."""
    try:
        report = import_file(job.kind, path, progress=_Progress(found), company_id=job.company_id)
    except ValueError as exc:  # the file cannot be read at all; bad rows never raise
        return {"set__state": "failed", "set__message": str(exc).replace(str(path), job.filename)}
    return {"set__state": "done", "set__report_id": report.id, "set__done": job.lines,
            "set__segment_changes": _segment_changes(job)}


class _Progress:
    """The rows done so far, written to the job at most every PROGRESS_EVERY_S: the importer reports every few
    rows, and a write per report made an upload import at a third of the CLI's speed."""

    def __init__(self, found):
        self._found, self._rows, self._written = found, 0, time.monotonic()

    def __call__(self, rows: int) -> None:
        self._rows += rows
        if time.monotonic() - self._written >= PROGRESS_EVERY_S:
            self._found.update_one(inc__done=self._rows)
            self._rows, self._written = 0, time.monotonic()


def _segment_changes(job: ImportJob) -> int:
    """Listeners whose segment the import's re-segmentation changed or gave for the first time (the station's import
    runs since the job began: the lease keeps other imports of the station out)."""
    runs = SegmentRun.objects(company_id=job.company_id, kind="import", started_at__gte=job.started_at)
    return sum(run.movements.get("moved", 0) + run.movements.get("first_assignments", 0)
               for run in runs.only("movements"))


def get_job(company_id: int, job_id: str) -> ImportJob:
    """The station's job by id; ImportJobNotFound for an unknown id or another station's job."""
    try:
        job = ImportJob.objects(id=ObjectId(job_id), company_id=company_id).first()
    except (InvalidId, TypeError):
        job = None
    if job is None:
        raise ImportJobNotFound(f"No import {job_id} for station {company_id}.")
    return job


def recent_jobs(company_id: int, limit: int = 20) -> list[ImportJob]:
    """The station's latest imports, newest first."""
    return list(ImportJob.objects(company_id=company_id).order_by("-started_at").limit(limit))


def job_status(job: ImportJob) -> dict:
    """What the page and the API show of a job: its state and progress, and when done its report."""
    report = ImportReport.objects(id=job.report_id).first() if job.report_id else None
    return {"job_id": str(job.id), "company_id": job.company_id, "kind": job.kind, "filename": job.filename,
            "state": job.state, "lines": job.lines, "done": min(job.done, job.lines),
            "percent": 100 if job.state in ("done", "failed") else 100 * min(job.done, job.lines) // max(job.lines, 1),
            "message": job.message, "started_at": job.started_at.isoformat(),
            "finished_at": job.finished_at.isoformat() if job.finished_at else None,
            "segment_changes": job.segment_changes, "report": None if report is None else _report(report)}


def _report(report: ImportReport) -> dict:
    """The counts and the first bad rows and warnings of a saved report."""
    return {"rows": report.rows, "imported": report.imported, "duplicates": report.duplicates,
            "suppressed": report.suppressed, "bad_rows": report.error_count, "warning_count": report.warning_count,
            "errors": list(report.errors), "warnings": list(report.warnings)}
