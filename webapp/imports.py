"""The import page: a producer uploads a station's file, maps its columns while seeing the first rows as they will be
stored, checks the whole file (a dry run), imports it, watches it import, and reads the reports of past imports."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from marshmallow import ValidationError, fields, validate, validates_schema

from api.arguments import RequestSchema
from core.errors import ValidationFailed
from core.ingest.columns import KIND_COLUMNS, field_of, named_tag
from core.ingest.importer import KINDS
from core.ingest.places import station_places
from core.ingest.staging import check_staged, import_staged, preview_staged, remap_staged, stage_upload
from core.ingest.templates import template_csv, template_xlsx
from core.ingest.watching import get_job, job_status, recent_jobs
from webapp.asking import PageForm, asked
from webapp.helpers import open_station, render_htmx, wants_fragment

bp = Blueprint("imports", __name__)
TEMPLATES = {"csv": ("text/csv; charset=utf-8", template_csv),
             "xlsx": ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", template_xlsx)}
SKIP = {"blank": "skip the column"}


class ShownArgs(RequestSchema):
    """The import shown (else the latest) and, for a workbook, the sheet read."""

    job = fields.Str()
    sheet = fields.Str()


class TemplateArgs(RequestSchema):
    format = fields.Str(load_default="csv", validate=validate.OneOf(TEMPLATES))


class UploadForm(PageForm):
    """The kind of file uploaded (the file itself is the request's file part)."""

    kind = fields.Str(required=True)


class MappingForm(PageForm):
    """The mapping step: each column of the file with the field it goes to (blank: skipped), in the file's order;
    the workbook's sheet and how its dates are written (blank: as read from the file)."""

    column = fields.List(fields.Str(), load_default=list, metadata={"blank": "a column without a header"})
    field = fields.List(fields.Str(), load_default=list, metadata=SKIP)
    sheet = fields.Str(load_default=None)
    date_order = fields.Str(load_default="", metadata={"blank": "as the file's dates say"})

    @validates_schema(skip_on_field_errors=False)
    def _a_field_for_every_column(self, data, **_kwargs):
        if len(data.get("column", [])) != len(data.get("field", [])):
            raise ValidationError("Choose a field (or Skip) for every column.", "field")


@bp.get("/stations/<int:company_id>/imports")
@login_required
def page(company_id: int):
    """The upload form, the import asked for (?job=, a workbook's ?sheet=) or the latest one, and past imports."""
    station = open_station(company_id)
    shown = asked(ShownArgs())
    return _render(station, shown.get("job"), sheet=shown.get("sheet"))


@bp.post("/stations/<int:company_id>/imports")
@login_required
def upload(company_id: int):
    """Keep the uploaded file (CSRF-checked) for its mapping step; a file that cannot be kept is said on the page."""
    station = open_station(company_id)
    upload, kind = request.files.get("file"), "profiles"
    try:
        kind = asked(UploadForm(), "form")["kind"]
        if upload is None or not upload.filename:
            raise ValidationFailed.one(["file"], "Choose a .csv, .xlsx or .jsonl file to upload.")
        job = stage_upload(company_id, kind, upload.filename, upload.stream, current_app.config["SETTINGS"].data_dir,
                           actor=current_user.email)
    except ValidationFailed as error:
        return _render(station, None, problem=error.items[0]["msg"], kind=kind), 422
    return redirect(url_for("imports.page", company_id=company_id, job=str(job.id)), code=303)


@bp.get("/stations/<int:company_id>/imports/<job_id>")
@login_required
def job(company_id: int, job_id: str):
    """One import's panel alone: what the page polls while a file is checked or imported (any worker answers)."""
    station = open_station(company_id)
    status = job_status(get_job(company_id, job_id))
    return render_template("imports/_job.html", station=station, job=status, mapping=_mapping_step(status))


@bp.post("/stations/<int:company_id>/imports/<job_id>/preview")
@login_required
def preview(company_id: int, job_id: str):
    """The first rows as the producer's mapping would store them: the preview alone for htmx (each change of a
    column's field), the whole page for a browser without scripts."""
    station = open_station(company_id)
    given, sheet, order = _mapping_form()
    if not wants_fragment():
        return _render(station, job_id, given=given, sheet=sheet, order=order)
    status = job_status(get_job(company_id, job_id))
    step = _mapping_step(status, given, sheet, order)
    return render_htmx("imports/_mapping_result.html", "imports/_mapping_result.html", station=station, job=status,
                       mapping=step)


@bp.post("/stations/<int:company_id>/imports/<job_id>/check")
@login_required
def check(company_id: int, job_id: str):
    """Check the whole file with the producer's mapping (a dry run, in the background) and show it."""
    station = open_station(company_id)
    given, sheet, order = _mapping_form()
    try:
        check_staged(company_id, job_id, given, sheet, order)
    except (ValidationFailed, ValueError) as error:
        problem = "; ".join(item["msg"] for item in error.items) if isinstance(error, ValidationFailed) else str(error)
        return _render(station, job_id, given=given, sheet=sheet, order=order, problem=problem), 422
    return redirect(url_for("imports.page", company_id=company_id, job=job_id), code=303)


@bp.post("/stations/<int:company_id>/imports/<job_id>/start")
@login_required
def start(company_id: int, job_id: str):
    """Import a checked file with the mapping it was checked with."""
    open_station(company_id)
    import_staged(company_id, job_id)
    return redirect(url_for("imports.page", company_id=company_id, job=job_id), code=303)


@bp.post("/stations/<int:company_id>/imports/<job_id>/remap")
@login_required
def remap(company_id: int, job_id: str):
    """Back from a checked file to its mapping."""
    open_station(company_id)
    remap_staged(company_id, job_id)
    return redirect(url_for("imports.page", company_id=company_id, job=job_id), code=303)


@bp.get("/stations/<int:company_id>/imports/template/<kind>")
@login_required
def template(company_id: int, kind: str):
    """A template of the kind's file (?format=csv or xlsx) with an example row, from the importer's own fields."""
    open_station(company_id)
    wanted = asked(TemplateArgs())["format"]
    if kind not in KINDS:
        raise ValidationFailed.one(["kind"], "No such template.")
    mimetype, build = TEMPLATES[wanted]
    return Response(build(kind), mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{kind}-template.{wanted}"'})


def _mapping_form() -> tuple[dict, str | None, str]:
    """({column: field or None}, the sheet, the date order) of the mapping form: its columns and fields in order."""
    form = asked(MappingForm(), "form")
    given = {column: name or None for column, name in zip(form["column"], form["field"], strict=True)}
    return given, form["sheet"], form["date_order"]


def _mapping_step(status: dict, given: dict | None = None, sheet: str | None = None, order: str | None = None):
    """What the mapping step shows of a file waiting for it: the preview and the kind's fields; None otherwise."""
    if status["state"] != "mapping":
        return None
    found = preview_staged(status["company_id"], status["job_id"], given, sheet, order or None)
    fields = [column.name for column in KIND_COLUMNS[status["kind"]]]
    table = [_shown_row(row, found["columns"], found["mapping"]) for row in found["rows"]]
    return {**found, "fields": fields, "table": table,
            "examples": {column: next((row["cells"][column] for row in found["rows"] if row["cells"].get(column)), "")
                         for column in found["columns"]},
            "tag_choices": _tag_choices(found),
            "derived": "originator" not in found["mapping"].values() and any(
                "originator" in row["values"] for row in found["rows"])}


def _tag_choices(found: dict) -> dict[str, str]:
    """{column: `tags:<tag>`} of the yes/no columns mapped or proposed as one of the station's tags: their choice."""
    choices = {column: found["proposed"].get(column, {}).get("field") for column in found["columns"]}
    choices.update({column: name for column, name in found["mapping"].items() if named_tag(name)})
    return {column: name for column, name in choices.items() if named_tag(name)}


def _shown_row(row: dict, columns: list[str], mapping: dict) -> dict:
    """A preview row cell by cell, in the file's columns: the value stored from it, or what it was and why it will
    not be stored (a warning, a bad row's reason), or that its column is skipped (a column the mapping leaves out
    too, as a form sent without some of its fields does)."""
    notes = {column: note["reason"] for note in row["warnings"] for column in note["columns"]}
    bad = row["bad_row"] or {}
    cells = {}
    for column, written in ((column, row["cells"].get(column, "")) for column in columns):
        name = field_of(mapping.get(column))
        if column in bad.get("columns", []):
            cells[column] = {"text": written, "note": bad["reason"], "state": "bad"}
        elif column in notes:
            cells[column] = {"text": written, "note": notes[column], "state": "warning"}
        elif name is None:
            cells[column] = {"text": written, "state": "skipped"}
        else:
            cells[column] = {"text": _as_written(row["values"].get(name, "")), "state": "stored"}
    return {"line": row["line"], "cells": cells, "bad": bad.get("reason"), "bad_shown": bool(bad.get("columns")),
            "originator": row["values"].get("originator", "")}


def _as_written(value) -> str:
    """A stored value as the import format writes it: lists joined, booleans true and false."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _render(station: dict, job_id: str | None, problem: str | None = None, kind: str = "profiles", **mapping):
    """The page (or its fragment for htmx) with the chosen import, or else the latest one; a file in its mapping step
    with the mapping given (or the one proposed)."""
    jobs = [job_status(found) for found in recent_jobs(station["company_id"])]
    shown = job_status(get_job(station["company_id"], job_id)) if job_id else (jobs[0] if jobs else None)
    step = _mapping_step(shown, mapping.get("given"), mapping.get("sheet"), mapping.get("order")) if shown else None
    return render_htmx("imports/page.html", "imports/_fragment.html", station=station, jobs=jobs, job=shown,
                       mapping=step, kinds=KINDS, kind=kind if kind in KINDS else "profiles", problem=problem,
                       places=station_places(station["company_id"]))
