"""Import jobs: a file uploaded to one station (dashboard or API), imported in the background and watched.

The upload is streamed to DATA_DIR/uploads first (core.ingest.uploads: mode 0600, it names listeners; its lines
counted on the way, for the progress bar), then imported by the one importer (core.ingest.importer.import_file, for
this station only) in a daemon thread of the worker that took the upload, and deleted whether the import ends done or
failed. What the station sent (the file's name, the columns its mapping names, a sheet, a failure's words that quote
the file) is kept sealed (core.ingest.sealed_names): the job's plain message names the problem, and no log line says
them. The job's progress lives in a document, so that any gunicorn worker answers the polls (core.ingest.watching
reads it). One import per station at a time, by a lease in the database (core.db.leases): a second upload while one
runs is queued (its job says so) and starts when the first has finished, never interleaved with it.

A job may carry a mapping of the file's columns to fields (core.ingest.mapped), checked against the file when the job
runs, and may be a dry run: the whole import read, checked and counted, nothing written but its report. The
dashboard's uploads first wait in the mapping step with their file kept (core.ingest.staging), at most an hour.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import BinaryIO

from bson import ObjectId

from core.clock import utcnow
from core.db.leases import lease
from core.errors import ValidationFailed
from core.ingest.importer import KINDS, import_file
from core.ingest.models import ImportJob, ImportReport
from core.ingest.preview import file_date_order, read_start, station_mapping
from core.ingest.remembered import remember
from core.ingest.sealed_names import (
    Sealed,
    given_mapping,
    pairs_of,
    problem_of,
    seal_failure,
    sealed_fields,
    sheet_of,
)
from core.ingest.uploads import save_upload
from core.segmentation.models import SegmentRun
from core.stations.companies import get_company
from core.text.wording import plural

log = logging.getLogger(__name__)

IMPORT_LEASE = timedelta(minutes=2)
"""How long the station's import lock outlives a process that died holding it (its holder renews it while alive)."""
IMPORT_WAIT_S = 6 * 3600  # how long an upload waits for the station's import under way before it gives up
PROGRESS_EVERY_S = 0.5  # the page polls every second


def start_import(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path, actor: str = "",
                 wait: bool = False, mapping: dict | None = None, sheet: str | None = None,
                 dry_run: bool = False) -> ImportJob:
    """Save the upload and import it in the background, after any import of this station still under way; with
    `mapping` ({column: field or None}) its columns are read into those fields, and a `dry_run` writes nothing but its
    report. `wait` joins the thread (tests)."""
    job, path = save_job(company_id, kind, filename, stream, data_dir, actor, mapping=mapping, sheet=sheet,
                         dry_run=dry_run)
    run_in_background(job, path, wait=wait)
    return job


def save_job(company_id: int, kind: str, filename: str, stream: BinaryIO, data_dir: Path, actor: str = "",
             **fields) -> tuple[ImportJob, Path]:
    """The upload saved under DATA_DIR/uploads and its job stored, the file's name, mapping and sheet sealed (nothing
    is read of it yet but, for a workbook, its start: WorkbookRefused, and nothing kept, past a bound)."""
    get_company(company_id)
    _check_kind(kind)
    held = Sealed(Path(filename).name, pairs_of(fields.pop("mapping", None)), fields.pop("sheet", None) or "")
    job_id = ObjectId()
    path, lines = save_upload(stream, Path(data_dir) / "uploads" / str(job_id), filename)
    try:
        if path.suffix == ".xlsx":
            _within_bounds(path, held.sheet or None)
        job = ImportJob(id=job_id, company_id=company_id, kind=kind, actor=actor, lines=lines, upload=str(path),
                        **sealed_fields(job_id, held), **fields).save()
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return job, path


def _within_bounds(path: Path, sheet: str | None) -> None:
    """WorkbookRefused when the workbook is past a bound (its archive, or its sheet's span, known once the reader has
    the sheet): a 422 now rather than a failed job later. A file that cannot be read at all is left to its job, which
    says why."""
    try:
        read_start(path, sheet)
    except ValueError:
        pass


def run_in_background(job: ImportJob, path: Path, wait: bool = False, check: bool = False) -> None:
    """The job's import (or, with `check`, the dry run of a file kept for its import) in a daemon thread."""
    worker = threading.Thread(target=_work, args=(job, path, check), daemon=True, name=f"import-{job.company_id}")
    worker.start()
    if wait:
        worker.join()


def _check_kind(kind: str) -> None:
    """Unknown kinds are refused (422) before anything is written."""
    if kind not in KINDS:
        raise ValidationFailed.one(["path", "kind"], f"unknown kind {kind!r}: expected one of {', '.join(KINDS)}")




def _work(job: ImportJob, path: Path, check: bool = False) -> None:
    """The import itself, once the station's lease is ours; whatever happens the job says how it ended, and the file
    is deleted unless a check leaves it for its import. A job expired while it waited (its hour passed, or an erasure
    removed its file) is not started, and keeps the end it was given."""
    update = {"set__state": "failed"}
    try:
        with lease(f"import:{job.company_id}", IMPORT_LEASE, wait_s=IMPORT_WAIT_S):
            _abandoned(job)
            if not _live(job).update_one(set__state="checking" if check else "running", set__started_at=utcnow(),
                                         set__done=0):
                update = {}
                return
            job.reload()
            update = _import(job, path, _live(job), check)
    except Exception:  # noqa: BLE001 - the page must learn that it failed; the log keeps why
        log.exception("import %s of company %s failed", job.id, job.company_id)
        update["set__message"] = "The import failed on our side; the error has been logged."
    finally:
        _ended(job, path, update)


def _live(job: ImportJob):
    """The job, unless it has expired meanwhile: an expired job's end is already said."""
    return ImportJob.objects(id=job.id, state__ne="expired")


def _ended(job: ImportJob, path: Path, update: dict) -> None:
    """The job's end stored (unless it expired meanwhile), and its file deleted unless its check keeps it for its
    import."""
    kept = update.get("set__state") == "checked"
    if not kept:
        path.unlink(missing_ok=True)  # before the end is said: whoever reads the end finds the file gone
    stored = bool(update) and _live(job).update_one(set__finished_at=utcnow(), **update)
    if kept and not stored:
        path.unlink(missing_ok=True)


def _abandoned(job: ImportJob) -> None:
    """The station's other imports said to be under way, failed: with the station's lock ours, their process died
    (their files are deleted here when they are on this host)."""
    for other in ImportJob.objects(company_id=job.company_id, state__in=("running", "checking"), id__ne=job.id):
        other.update(set__state="failed", set__finished_at=utcnow(),
                     set__message="The import stopped when the process running it ended; upload the file again.")
        if other.upload:
            Path(other.upload).unlink(missing_ok=True)


def _import(job: ImportJob, path: Path, found, check: bool) -> dict:
    """Run the importer for the job's station (a dry run for a check or a dry-run job); the job's final fields."""
    dry_run = check or job.dry_run
    try:
        mapping = _mapping(job, path)
        report = import_file(job.kind, path, progress=_Progress(found), company_id=job.company_id, mapping=mapping,
                             sheet=sheet_of(job), dry_run=dry_run, source=f"upload:{job.id}")
    except (ValueError, ValidationFailed) as exc:  # the file cannot be read, or its mapping does not fit it
        message = "; ".join(f"{item['loc'][-1]}: {item['msg']}" for item in exc.items) \
            if isinstance(exc, ValidationFailed) else str(exc)
        seal_failure(job, message.replace(str(path), path.name))
        return {"set__state": "failed", "set__message": problem_of(exc)}
    if check:
        return {"set__state": "checked", "set__check_report_id": report.id, "set__done": job.lines,
                "set__date_order": mapping.date_order if mapping else ""}
    if not importable(report):
        return {"set__state": "failed", "set__report_id": report.id, "set__done": job.lines,
                "set__message": nothing_imported(report)}
    if mapping is not None and not dry_run:
        remember(job.company_id, job.kind, list(mapping.pairs), mapping.date_order)
    return {"set__state": "done", "set__report_id": report.id, "set__done": job.lines,
            "set__segment_changes": 0 if dry_run else _segment_changes(job)}


def importable(report: ImportReport) -> int:
    """The rows of a report (a check's, or an import's) that are not bad rows: what "Import N rows" offers."""
    return report.rows - report.error_count


def nothing_imported(report: ImportReport) -> str:
    """Why an import of no importable row ended as failed rather than finished (its report says the rest)."""
    if not report.rows:
        return "Nothing was imported: the file (or the sheet read) holds no rows under its header."
    rows = "its one row is a bad row" if report.rows == 1 else f"all {plural(report.rows, 'row')} are bad rows"
    return f"Nothing was imported: {rows}; the report says why."


def _mapping(job: ImportJob, path: Path):
    """The job's Mapping, checked against the file's columns (dates in the order given, else the one its first rows
    show); None for a file whose columns are the field names."""
    given = given_mapping(job)
    if given is None:
        return None
    table, sample = read_start(path, sheet_of(job))
    order = job.date_order or file_date_order(sample, job.company_id)[0]
    return station_mapping(job.kind, job.company_id, given, table.columns, order)


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
