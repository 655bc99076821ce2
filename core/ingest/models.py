"""The stored documents of ingest: one job per upload, one report per import, and the mappings stations confirmed."""
from __future__ import annotations

from mongoengine import (
    BinaryField,
    BooleanField,
    DateTimeField,
    DictField,
    Document,
    IntField,
    ListField,
    ObjectIdField,
    StringField,
)

from core.clock import utcnow
from core.db.documents import stored


@stored
class ImportJob(Document):
    """One uploaded file (core.ingest.jobs): its station and kind, its state (queued, running, done, failed; for the
    dashboard's mapping step also mapping, checking, checked and expired), the lines so far of how many, and when
    done its saved report and how many listeners changed segment. `check_report_id` is the dry run's report of a file
    checked before its import. What the station sent (the file's name, the columns its mapping names, the sheet, a
    failure's words quoting the file) may name a listener, so it is stored in one envelope, sealed
    (core.ingest.sealed_names)."""

    company_id = IntField(required=True)
    kind = StringField(required=True)
    sealed = BinaryField()  # the file's name, mapping and sheet, a failure's words: sealed (core.ingest.sealed_names)
    sealed_key = StringField()  # the version in the name of the key they are sealed under
    filename = StringField()  # stored before sealing: the name, plain
    sealed_filename = BinaryField()  # stored before the envelope held the rest: the name alone, sealed
    filename_key = StringField()  # the version of its key, which the envelope keeps
    actor = StringField(default="")
    state = StringField(default="queued")
    lines = IntField(default=0)
    done = IntField(default=0)
    report_id = ObjectIdField()
    segment_changes = IntField(default=0)
    message = StringField(default="")  # names the problem, never quotes the file (its own words are sealed)
    started_at = DateTimeField(default=utcnow)
    finished_at = DateTimeField()
    mapping = ListField(default=None)  # stored before sealing: [{"column", "field"}], plain
    sheet = StringField()  # stored before sealing, plain
    date_order = StringField(default="")
    dry_run = BooleanField(default=False)
    upload = StringField(default="")  # where the file is kept while it waits or is imported
    check_report_id = ObjectIdField()
    meta = {"collection": "import_jobs",
            "indexes": [("company_id", "-started_at"), ("state", "started_at")]}  # the second: the uploads' sweep


@stored
class ImportReport(Document):
    """The outcome of one import, kept so that operators can see what was skipped and why."""

    company_ids = ListField(IntField())
    kind = StringField(required=True)
    source = StringField(default="")  # the kind of source ("file", "upload:<job id>", "demo"), never a path
    at = DateTimeField(default=utcnow)
    rows = IntField(default=0)
    imported = IntField(default=0)
    duplicates = IntField(default=0)
    suppressed = IntField(default=0)
    errors = ListField(DictField())  # stored before sealing; since, in memory only (the importer's answer)
    sealed_errors = BinaryField()  # bad rows, skipped: [{"line": n, "reason": "..."}] (first 1000), sealed
    errors_key = StringField()  # the version in the name of the key they are sealed under (core.ingest.reports)
    error_count = IntField(default=0)
    warnings = ListField(DictField())  # optional values left out of kept rows: [{"line", "field", "reason"}]
    warning_count = IntField(default=0)
    bad_rows_by_field = DictField()  # {field: bad rows whose reason is about it}; "row" for the others
    warnings_by_field = DictField()  # {field: warnings}
    listeners_new = IntField(default=0)  # listeners the import created (would create, in a dry run)
    listeners_updated = IntField(default=0)  # listeners that were there and whose data changed
    dry_run = BooleanField(default=False)  # validated and counted, nothing written but this report
    segment_changes_expected = IntField()  # a dry run's listeners whose segment the import would change
    meta = {"collection": "import_reports"}


@stored
class RememberedMapping(Document):
    """The mapping last confirmed for a station's files of one kind with these headers, and how its dates were read.
    Headers may be a listener's row (a file exported without its header row), so they are found by a keyed hash and
    the mapping is sealed (core.ingest.remembered)."""

    company_id = IntField(required=True)
    kind = StringField(required=True)
    headers = StringField(required=True)  # the key: a keyed hash of the station and its normalised headers, sorted
    sealed = BinaryField()  # [[column, field or None]], sealed
    sealed_key = StringField()  # the version in the name of the key it is sealed under
    pairs = ListField(default=None)  # stored before sealing: [{"column", "field"}], plain
    date_order = StringField(default="")
    updated_at = DateTimeField(default=utcnow)
    meta = {"collection": "import_mappings",
            "indexes": [{"fields": ["company_id", "kind", "headers"], "unique": True}]}
