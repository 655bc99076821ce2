"""Uploads of a station's files: /api/v1/imports/{company_id}/{kind} (with a mapping, or as a dry run), its preview,
and .../jobs for their progress and reports."""
from __future__ import annotations

from flask import current_app, g, request, url_for
from flask.views import MethodView
from werkzeug.datastructures import FileStorage

from api.arguments import Blueprint, parser
from api.import_schemas import (
    PREVIEW_BODY,
    UPLOAD_BODY,
    ImportJobSchema,
    ImportJobsSchema,
    ImportPreviewSchema,
    StationPlacesSchema,
    UploadArgsSchema,
    UploadPartsSchema,
)
from core.errors import ValidationFailed
from core.ingest.columns import ALL_FIELDS, field_of
from core.ingest.jobs import start_import
from core.ingest.places import station_places
from core.ingest.staging import preview_upload
from core.ingest.watching import get_job, job_status, recent_jobs
from core.text import strict_json
from core.text.query import unknown_name
from core.text.storable import text_problem

LOCATION = {"Location": {"description": "the job to poll", "schema": {"type": "string"}}}
JOB_ID = {"in": "path", "name": "job_id", "required": True, "schema": {"type": "string", "pattern": "^[0-9a-f]{24}$"}}

blp = Blueprint("import_jobs", __name__, url_prefix="/api/v1/imports", description="Uploads of a station's files")


@blp.route("/<company:company_id>/<any(channels,shows,profiles,interactions):kind>")
class Upload(MethodView):
    @blp.arguments(UploadArgsSchema, location="query", as_kwargs=False)
    @blp.doc(requestBody=UPLOAD_BODY)
    @blp.response(202, ImportJobSchema, headers=LOCATION)
    @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
    def post(self, args: dict, company_id: int, kind: str):
        """Upload a file to import into this station (rows of other stations are bad rows); poll Location"""
        dry_run = args["dry_run"]
        upload, mapping, sheet = _parts()
        job = start_import(company_id, kind, upload.filename or "", upload.stream,
                           current_app.config["SETTINGS"].data_dir, actor=f"api:{g.api_scope.key_id}",
                           mapping=mapping, sheet=sheet, dry_run=dry_run)
        location = url_for("import_jobs.Job", company_id=company_id, job_id=str(job.id))
        return job_status(job), {"Location": location}


@blp.route("/<company:company_id>/<any(channels,shows,profiles,interactions):kind>/preview")
class Preview(MethodView):
    @blp.doc(requestBody=PREVIEW_BODY)
    @blp.response(200, ImportPreviewSchema)
    @blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
    def post(self, company_id: int, kind: str):
        """The mapping step: the proposed (or given, or remembered) mapping and the first rows as they would be stored;
        nothing is kept"""
        upload, mapping, sheet = _parts()
        return preview_upload(company_id, kind, upload.filename or "", upload.stream,
                              current_app.config["SETTINGS"].data_dir, given=mapping, sheet=sheet)


def _parts():
    """(the file, the mapping or None, the sheet or None) of a multipart upload, its parts read by the one parser
    (UploadPartsSchema: any other part, a part given twice or a missing file is a 422); a mapping that is not a JSON
    object of fields (or null) is a 422 too."""
    parts = parser.parse(UploadPartsSchema(), request, location="parts")
    return parts["file"], _mapping(parts.get("mapping")), parts.get("sheet")


def _mapping(part) -> dict | None:
    """The `mapping` part (a text field or a file): {column: field or null}, as JSON read by the strict reader (a
    column given twice is 422 naming it, not the last one silently winning)."""
    raw = part.read() if isinstance(part, FileStorage) else part
    if raw is None:
        return None
    try:
        mapping = strict_json.loads(raw)
    except strict_json.RefusedJson as refused:
        raise ValidationFailed.one(["mapping", *refused.loc], refused.msg) from None
    except strict_json.MalformedJson:
        raise ValidationFailed.one(["mapping"], "a JSON object: {\"column\": \"field\" or null}") from None
    if not isinstance(mapping, dict):
        raise ValidationFailed.one(["mapping"], "a JSON object: {\"column\": \"field\" or null}")
    for column, name in mapping.items():
        problem = text_problem(column) or (text_problem(name) if isinstance(name, str) else None)
        if problem:
            raise ValidationFailed.one(["mapping", column], problem)
        if name is not None and not isinstance(name, str):
            raise ValidationFailed.one(["mapping", column], "a field (a string) or null")
        if name is not None and field_of(name) not in ALL_FIELDS:
            raise ValidationFailed.one(["mapping", column], unknown_name(name, sorted(ALL_FIELDS), "field"))
    return mapping


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


@blp.route("/<company:company_id>/places")
class Places(MethodView):
    @blp.response(200, StationPlacesSchema)
    def get(self, company_id: int):
        """Where the station's listeners are: each declared location placed on the map, or not known to it"""
        return station_places(company_id)
