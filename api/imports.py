"""Uploads of a station's files: /api/v1/imports/{company_id}/{kind}, and .../jobs for their progress and reports."""
from __future__ import annotations

from flask import current_app, g, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from core.errors import ValidationFailed
from core.ingest.jobs import get_job, job_status, recent_jobs, start_import


class RowNoteSchema(Schema):
    line = fields.Int()
    field = fields.Str(metadata={"description": "the optional field left out (warnings only)"})
    reason = fields.Str()


class ImportReportSchema(Schema):
    rows = fields.Int()
    imported = fields.Int()
    duplicates = fields.Int(metadata={"description": "rows that changed nothing"})
    suppressed = fields.Int()
    bad_rows = fields.Int(metadata={"description": "rows skipped, all counted; the first 1000 in errors"})
    warning_count = fields.Int(metadata={"description": "optional values left out of kept rows"})
    errors = fields.List(fields.Nested(RowNoteSchema))
    warnings = fields.List(fields.Nested(RowNoteSchema))


class ImportJobSchema(Schema):
    job_id = fields.Str()
    company_id = fields.Int()
    kind = fields.Str()
    filename = fields.Str()
    state = fields.Str(metadata={"description": "queued, running, done or failed"})
    lines = fields.Int(metadata={"description": "lines of the file"})
    done = fields.Int(metadata={"description": "lines imported so far"})
    percent = fields.Int()
    message = fields.Str(metadata={"description": "why a failed import failed"})
    started_at = fields.Str()
    finished_at = fields.Str(allow_none=True)
    segment_changes = fields.Int(metadata={"description": "listeners whose segment the import changed"})
    report = fields.Nested(ImportReportSchema, allow_none=True)


class ImportJobsSchema(Schema):
    company_id = fields.Int()
    jobs = fields.List(fields.Nested(ImportJobSchema))


UPLOAD_BODY = {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"], "additionalProperties": False,
    "properties": {"file": {"type": "string", "format": "binary",
                            "description": "a .csv or .jsonl file in the ingest format, up to MAX_UPLOAD_MB; "
                                           "a name without either suffix is read as JSON Lines when it starts "
                                           "with `{`, else as CSV"}}}}}}
LOCATION = {"Location": {"description": "the job to poll", "schema": {"type": "string"}}}
JOB_ID = {"in": "path", "name": "job_id", "required": True, "schema": {"type": "string", "pattern": "^[0-9a-f]{24}$"}}

blp = Blueprint("import_jobs", __name__, url_prefix="/api/v1/imports", description="Uploads of a station's files")


@blp.route("/<company:company_id>/<any(channels,shows,profiles,interactions):kind>")
class Upload(MethodView):
    @blp.doc(requestBody=UPLOAD_BODY)
    @blp.response(202, ImportJobSchema, headers=LOCATION)
    @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
    def post(self, company_id: int, kind: str):
        """Upload a file to import into this station (rows of other stations are bad rows); poll Location"""
        upload = request.files.get("file")
        if set(request.form) | set(request.files) - {"file"}:
            raise ValidationFailed.one(["file"], "send only the field `file` (multipart/form-data)")
        if upload is None:
            raise ValidationFailed.one(["file"], "send the file as multipart/form-data in the field `file`")
        job = start_import(company_id, kind, upload.filename or "", upload.stream,
                           current_app.config["SETTINGS"].data_dir, actor=f"api:{g.api_scope.key_id}")
        location = url_for("import_jobs.Job", company_id=company_id, job_id=str(job.id))
        return job_status(job), {"Location": location}


@blp.route("/<company:company_id>/jobs")
class Jobs(MethodView):
    @blp.response(200, ImportJobsSchema)
    def get(self, company_id: int):
        """The station's latest imports, newest first, with their reports"""
        return {"company_id": company_id, "jobs": [job_status(job) for job in recent_jobs(company_id)]}


@blp.route("/<company:company_id>/jobs/<job_id>")
class Job(MethodView):
    @blp.doc(parameters=[JOB_ID])
    @blp.response(200, ImportJobSchema)
    def get(self, company_id: int, job_id: str):
        """One import: its state and progress, and when done its report"""
        return job_status(get_job(company_id, job_id))
