"""What the page and the API show of a station's import jobs: one job by its id (never another station's), the
latest jobs, and a job's state, progress and reports, with what the station sent opened (core.ingest.sealed_names).

Separate from running the jobs (core.ingest.jobs) because it only reads: the pages poll it from any web process
while the job runs in another.
"""
from __future__ import annotations

from bson import ObjectId
from bson.errors import InvalidId

from core.errors import NotFound
from core.ingest import reports
from core.ingest.models import ImportJob, ImportReport
from core.ingest.sealed_names import given_mapping, name_of, sheet_of, shown_message, with_opened


class ImportJobNotFound(NotFound):
    """No such import job for this station."""


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
    """The station's latest imports, newest first (what they keep sealed unsealed together)."""
    return with_opened(list(ImportJob.objects(company_id=company_id).order_by("-started_at").limit(limit)))


def job_status(job: ImportJob) -> dict:
    """What the page and the API show of a job: its state and progress, and when done its report."""
    report = ImportReport.objects(id=job.report_id).first() if job.report_id else None
    check = ImportReport.objects(id=job.check_report_id).first() if job.check_report_id else None
    ended = job.state in ("done", "failed", "checked", "expired")
    name = name_of(job)
    return {"job_id": str(job.id), "company_id": job.company_id, "kind": job.kind, "filename": name,
            "state": job.state, "lines": job.lines, "done": min(job.done, job.lines),
            "percent": 100 if ended else 100 * min(job.done, job.lines) // max(job.lines, 1),
            "message": shown_message(job, name), "started_at": job.started_at.isoformat(),
            "finished_at": job.finished_at.isoformat() if job.finished_at else None,
            "dry_run": job.dry_run, "mapping": given_mapping(job), "sheet": sheet_of(job),
            "date_order": job.date_order or None,
            "segment_changes": job.segment_changes, "report": None if report is None else _report(report),
            "check": None if check is None else _report(check)}


def _report(report: ImportReport) -> dict:
    """The counts, by field too, and the first bad rows and warnings of a saved report."""
    return {"rows": report.rows, "imported": report.imported, "duplicates": report.duplicates,
            "suppressed": report.suppressed, "bad_rows": report.error_count, "warning_count": report.warning_count,
            "listeners_new": report.listeners_new, "listeners_updated": report.listeners_updated,
            "bad_rows_by_field": dict(report.bad_rows_by_field or {}),
            "warnings_by_field": dict(report.warnings_by_field or {}), "dry_run": report.dry_run,
            "segment_changes_expected": report.segment_changes_expected,
            "errors": reports.opened_errors(report.to_mongo()), "warnings": list(report.warnings)}
