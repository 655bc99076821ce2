"""The stored documents of ingest: one report per import, and the mappings stations confirmed."""
from __future__ import annotations

from mongoengine import (
    BinaryField,
    BooleanField,
    DateTimeField,
    DictField,
    Document,
    IntField,
    ListField,
    StringField,
)

from core.clock import utcnow
from core.db.documents import stored


@stored
class ImportReport(Document):
    """The outcome of one import, kept so that operators can see what was skipped and why."""

    company_ids = ListField(IntField())
    kind = StringField(required=True)
    source = StringField(default="")
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
    """The mapping last confirmed for a station's files of one kind with these headers: [{"column", "field"}] (a
    list, not a dict, since a header may hold a dot), and how its dates were read."""

    company_id = IntField(required=True)
    kind = StringField(required=True)
    headers = StringField(required=True)  # the key: a hash of the normalised headers, sorted
    pairs = ListField()
    date_order = StringField(default="")
    updated_at = DateTimeField(default=utcnow)
    meta = {"collection": "import_mappings",
            "indexes": [{"fields": ["company_id", "kind", "headers"], "unique": True}]}
