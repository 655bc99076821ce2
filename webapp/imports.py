"""The import page: a producer uploads a station's file, watches it import, and reads the reports of past imports."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from core.errors import ValidationFailed
from core.ingest.importer import KINDS
from core.ingest.jobs import get_job, job_status, recent_jobs, start_import
from webapp.helpers import open_station, render_htmx

bp = Blueprint("imports", __name__)


@bp.get("/stations/<int:company_id>/imports")
@login_required
def page(company_id: int):
    """The upload form, the import asked for (?job=) or the latest one, and the list of past imports."""
    station = open_station(company_id)
    return _render(station, request.args.get("job"))


@bp.post("/stations/<int:company_id>/imports")
@login_required
def upload(company_id: int):
    """Start importing the uploaded file (CSRF-checked) and show it; a file that cannot be imported is said on the
    page, with the form kept."""
    station = open_station(company_id)
    upload, kind = request.files.get("file"), request.form.get("kind", "")
    try:
        if upload is None or not upload.filename:
            raise ValidationFailed.one(["file"], "Choose a .csv or .jsonl file to upload.")
        job = start_import(company_id, kind, upload.filename, upload.stream, current_app.config["SETTINGS"].data_dir,
                           actor=current_user.email)
    except ValidationFailed as error:
        return _render(station, None, problem=error.items[0]["msg"], kind=kind), 422
    return redirect(url_for("imports.page", company_id=company_id, job=str(job.id)), code=303)


@bp.get("/stations/<int:company_id>/imports/<job_id>")
@login_required
def job(company_id: int, job_id: str):
    """One import's panel alone: what the page polls while the import is queued or running (any worker answers)."""
    station = open_station(company_id)
    return render_template("imports/_job.html", station=station, job=job_status(get_job(company_id, job_id)))


def _render(station: dict, job_id: str | None, problem: str | None = None, kind: str = "profiles"):
    """The page (or its fragment for htmx) with the chosen import, or else the latest one."""
    jobs = [job_status(found) for found in recent_jobs(station["company_id"])]
    shown = job_status(get_job(station["company_id"], job_id)) if job_id else (jobs[0] if jobs else None)
    return render_htmx("imports/page.html", "imports/_fragment.html", station=station, jobs=jobs, job=shown,
                       kinds=KINDS, kind=kind if kind in KINDS else "profiles", problem=problem)
