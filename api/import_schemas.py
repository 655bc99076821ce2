"""What the imports API answers and takes: jobs and their reports, the mapping step's preview, and the multipart bodies
of an upload and a preview (documented by hand: flask-smorest does not describe multipart files)."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields
from werkzeug.datastructures import FileStorage

from api.arguments import NOT_BLANK, RequestSchema
from api.bodies import longest
from core.ingest.columns import ALL_FIELDS


class RowNoteSchema(Schema):
    line = fields.Int()
    field = fields.Str(metadata={"description": "the optional field left out (warnings only)"})
    reason = fields.Str()
    rows = fields.Int(metadata={"description": "an unknown name (a channel) is listed once, at its first line: "
                                               "how many rows wrote it"})


class ImportReportSchema(Schema):
    rows = fields.Int()
    imported = fields.Int()
    duplicates = fields.Int(metadata={"description": "rows that changed nothing"})
    suppressed = fields.Int()
    bad_rows = fields.Int(metadata={"description": "rows skipped, all counted; the first 1000 in errors"})
    warning_count = fields.Int(metadata={"description": "optional values left out of kept rows"})
    listeners_new = fields.Int(metadata={"description": "listeners created (a dry run: that would be)"})
    listeners_updated = fields.Int(metadata={"description": "listeners that were there and whose data changed"})
    bad_rows_by_field = fields.Dict(keys=fields.Str(), values=fields.Int(), metadata={
        "description": "bad rows by the field their reason is about; `row` for a row that could not be read"})
    warnings_by_field = fields.Dict(keys=fields.Str(), values=fields.Int())
    dry_run = fields.Bool(metadata={"description": "true: nothing was written but this report"})
    segment_changes_expected = fields.Int(allow_none=True, metadata={
        "description": "a dry run's listeners whose segment the import would change or give for the first time"})
    errors = fields.List(fields.Nested(RowNoteSchema))
    warnings = fields.List(fields.Nested(RowNoteSchema))


MAPPING = fields.Dict(keys=fields.Str(), values=fields.Str(allow_none=True), allow_none=True, metadata={
    "description": "column of the file -> field (null: skipped)"})


class ImportJobSchema(Schema):
    job_id = fields.Str()
    company_id = fields.Int()
    kind = fields.Str()
    filename = fields.Str()
    state = fields.Str(metadata={"description": "queued, running, done or failed (the dashboard's mapping step also "
                                                "has mapping, checking, checked and expired)"})
    lines = fields.Int(metadata={"description": "lines of the file"})
    done = fields.Int(metadata={"description": "lines imported so far"})
    percent = fields.Int()
    message = fields.Str(metadata={"description": "why a failed import failed"})
    started_at = fields.Str()
    finished_at = fields.Str(allow_none=True)
    dry_run = fields.Bool(metadata={"description": "true: the report says what the import would do; nothing written"})
    mapping = MAPPING
    sheet = fields.Str(allow_none=True)
    date_order = fields.Str(allow_none=True)
    segment_changes = fields.Int(metadata={"description": "listeners whose segment the import changed"})
    report = fields.Nested(ImportReportSchema, allow_none=True)
    check = fields.Nested(ImportReportSchema, allow_none=True, metadata={
        "description": "the dry run of a file checked on the dashboard before its import"})


class ImportJobsSchema(Schema):
    company_id = fields.Int()
    jobs = fields.List(fields.Nested(ImportJobSchema))


class CellNoteSchema(Schema):
    reason = fields.Str()
    field = fields.Str(allow_none=True)
    columns = fields.List(fields.Str(), metadata={"description": "the file's columns the note is about"})
    value = fields.Str(metadata={"description": "the cell as written in those columns"})


class PreviewRowSchema(Schema):
    line = fields.Int()
    cells = fields.Dict(keys=fields.Str(), values=fields.Str(), metadata={"description": "the row as written"})
    values = fields.Dict(keys=fields.Str(), values=fields.Raw(), metadata={
        "description": "field -> the value the import would store"})
    warnings = fields.List(fields.Nested(CellNoteSchema))
    bad_row = fields.Nested(CellNoteSchema, allow_none=True, metadata={"description": "why the row would be skipped"})


class ProposedSchema(Schema):
    field = fields.Str(allow_none=True)
    why = fields.Str(metadata={"description": "name, spelling or values: what the proposal went by"})


class ImportPreviewSchema(Schema):
    company_id = fields.Int()
    kind = fields.Str()
    filename = fields.Str()
    format = fields.Str(metadata={"description": "csv, xlsx or jsonl"})
    written = fields.Str(metadata={"description": "how the file is written: encoding and separator, or the sheet"})
    sheets = fields.List(fields.Str(), metadata={"description": "a workbook's sheets"})
    sheet = fields.Str(allow_none=True)
    sheets_with_data = fields.List(fields.Str(), metadata={
        "description": "a workbook's sheets that hold data; without a sheet given, the first of them is read"})
    nothing_to_import = fields.Str(allow_none=True, metadata={
        "description": "why there is nothing to import (the file or sheet holds no rows); null when there is"})
    columns = fields.List(fields.Str())
    mapping = MAPPING
    mapping_source = fields.Str(metadata={"description": "given, remembered (the station's last mapping of these "
                                                         "headers) or proposed"})
    remembered_at = fields.Str(allow_none=True)
    proposed = fields.Dict(keys=fields.Str(), values=fields.Nested(ProposedSchema))
    date_order = fields.Str(metadata={"description": "day_first or month_first"})
    date_order_source = fields.Str(metadata={"description": "values, country (none of the dates says) or given"})
    missing = fields.List(fields.Str(), metadata={"description": "required fields no column is mapped to"})
    problems = fields.List(fields.Str(), metadata={
        "description": "why the file cannot be read, or the mapping names a column or field that is not there"})
    rows = fields.List(fields.Nested(PreviewRowSchema), metadata={"description": "the first 20 rows"})


SHEET_NAME_MAX = 31
"""Excel's bound on a sheet's name: Excel makes no longer one (a longer `sheet` names no sheet of its workbooks)."""
FILE = {"type": "string", "format": "binary",
        "description": "a .csv (UTF-8 or Windows-1252; comma, semicolon or tab), .xlsx or .jsonl file, up to "
                       "MAX_UPLOAD_MB; a name without one of these suffixes is read as a workbook when it is a zip "
                       "archive, as JSON Lines when it starts with `{`, else as CSV"}
MAPPING_PART = {"type": "object", "additionalProperties": {"type": "string", "nullable": True,
                                                           "enum": [*sorted(ALL_FIELDS), None],
                                                           "maxLength": longest(ALL_FIELDS)},
                "description": "column of the file (text without NUL) -> field of the kind (null: the column is "
                               "skipped; `tags` keeps a profiles column as tags). Without it the columns must be the "
                               "field names. A column the file lacks or a field the kind lacks: the preview says so "
                               "in `problems`, an upload's job fails saying so"}
SHEET_PART = {"type": "string", **NOT_BLANK, "maxLength": SHEET_NAME_MAX,
              "description": "the sheet of a workbook to read (default: its first)"}


def multipart(required: list[str], **properties) -> dict:
    """A multipart/form-data request body of these parts, none other allowed; the mapping is a JSON part."""
    return {"required": True, "content": {"multipart/form-data": {
        "schema": {"type": "object", "required": required, "additionalProperties": False, "properties": properties},
        "encoding": {"mapping": {"contentType": "application/json"}}}}}


UPLOAD_BODY = multipart(["file"], file=FILE, mapping=MAPPING_PART, sheet=SHEET_PART)
PREVIEW_BODY = UPLOAD_BODY


class UploadArgsSchema(RequestSchema):
    dry_run = fields.Bool(load_default=False, metadata={
        "description": "run the whole import and answer its report (the job's) without writing anything"})


class Upload(fields.Raw):
    """The `file` part: a file, not a text field of that name."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, FileStorage):
            raise ValidationError(SEND_FILE)
        return value


SEND_FILE = "send the file as multipart/form-data in the field `file`"


class UploadPartsSchema(RequestSchema):
    """The parts of an upload's multipart body: the file, and the mapping (a text field or a file of JSON) and the
    sheet when given; read by the one parser as a form of both its fields and files."""

    NAMES = "part"
    file = Upload(required=True, error_messages={"required": SEND_FILE})
    mapping = fields.Raw()
    sheet = fields.Str()



class PlacedValueSchema(Schema):
    value = fields.Str(metadata={"description": "the location as the station's listeners declared it"})
    listeners = fields.Int()
    place = fields.Str(metadata={"description": "the place of the gazetteer it was read as"})
    level = fields.Str(metadata={"description": "country, province, metro, district or town or suburb"})
    within = fields.List(fields.Str(), metadata={"description": "the areas it lies in, smallest first"})


class UnknownValueSchema(Schema):
    value = fields.Str(metadata={"description": "kept as written; matched only by its own spelling"})
    listeners = fields.Int()


class StationPlacesSchema(Schema):
    company_id = fields.Int()
    placed = fields.List(fields.Nested(PlacedValueSchema), metadata={"description": "most listeners first"})
    unknown = fields.List(fields.Nested(UnknownValueSchema), metadata={
        "description": "locations the gazetteer does not know, most listeners first"})
    placed_listeners = fields.Int()
    unknown_listeners = fields.Int()
