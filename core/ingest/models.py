"""The stored documents of ingest: one report per import."""
from __future__ import annotations

from mongoengine import DateTimeField, DictField, Document, IntField, ListField, StringField

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
    errors = ListField(DictField())  # bad rows, skipped: [{"line": n, "reason": "..."}] (first 1000)
    error_count = IntField(default=0)
    warnings = ListField(DictField())  # optional values left out of kept rows: [{"line", "field", "reason"}]
    warning_count = IntField(default=0)
    meta = {"collection": "import_reports"}
