"""The stored documents. Bulk paths use `Doc._get_collection()` with plain dicts; the fields here are the schema.

Interactions are stored grouped: one `InteractionBatch` per listener per import, holding the events as parallel
arrays, because the embedded database pays per document (see core.database.QUIRKS). Derived data (behavioural
profiles, segments) lives in a columnar snapshot per company (core.snapshot), not in per-listener documents.
"""
from __future__ import annotations

from datetime import datetime, timezone

from mongoengine import (BinaryField, BooleanField, DateTimeField, DictField, Document, IntField, ListField,
                         ObjectIdField, StringField)

from core.vocabulary import DEFAULT_CHANNELS


def utcnow() -> datetime:
    """Timezone-aware now; every stored time is UTC."""
    return datetime.now(timezone.utc)


class Company(Document):
    """A station: its time zone, country (for public holidays), channel names and segment threshold overrides."""

    company_id = IntField(required=True, unique=True)
    name = StringField(default="")
    timezone = StringField(default="Africa/Johannesburg")
    country = StringField(default="ZA")
    channels = DictField()  # str(channel_type) -> name; missing ones fall back to DEFAULT_CHANNELS
    thresholds = DictField()  # overrides of core.segments.DEFAULT_THRESHOLDS
    data_version = IntField(default=0)  # bumped by every write that changes what filters see
    snapshot_file = ObjectIdField()  # GridFS id of the current listener snapshot (core.snapshot)
    created_at = DateTimeField(default=utcnow)
    meta = {"collection": "companies"}

    def channel_names(self) -> dict[int, str]:
        """Channel id -> name, station names over the defaults."""
        names = dict(DEFAULT_CHANNELS)
        names.update({int(k): v for k, v in (self.channels or {}).items()})
        return names


class Show(Document):
    """A timeslot: a named show airing on some weekdays between start (inclusive) and end (exclusive), local time."""

    company_id = IntField(required=True)
    timeslot_id = IntField(required=True)
    title = StringField(required=True)
    days = ListField(IntField())
    start = StringField(required=True)
    end = StringField(required=True)
    meta = {"collection": "shows", "indexes": [{"fields": ["company_id", "timeslot_id"], "unique": True}]}


class Listener(Document):
    """Declared data of one listener of one station, plus AI-inferred values (with confidences)."""

    company_id = IntField(required=True)
    originator = StringField(required=True)
    name = StringField()
    email = StringField()
    mobile_number = StringField()
    id_number = StringField()
    gender = StringField()
    age_group = StringField()
    location = StringField()
    language = StringField()
    ethnicity = StringField()
    income_bracket = StringField()
    education = StringField()
    employment_status = StringField()
    tags = ListField(StringField())
    permission = BooleanField(null=True)
    opt_in = BooleanField(null=True)
    inferred = DictField()  # {"inferred_gender": {"value": ..., "confidence": ...}, ..., "inferred_at": ...}
    created_at = DateTimeField(default=utcnow)
    erased_at = DateTimeField()
    meta = {"collection": "listeners",
            "indexes": [{"fields": ["company_id", "originator"], "unique": True}]}


class InteractionBatch(Document):
    """Events of one listener from one import as parallel columns; index i of each is one interaction.

    times, channels and timeslots are packed binary (see core.events.batch_document); the lists are plain.
    """

    company_id = IntField(required=True)
    originator = StringField(required=True)
    import_id = StringField()
    n = IntField()
    times = BinaryField()  # little-endian int64 epoch milliseconds
    channels = BinaryField()  # little-endian int16
    timeslots = BinaryField()  # little-endian int32, -1 = no show
    campaigns = ListField(StringField())
    messages = ListField(StringField(null=True))
    keys = ListField(StringField())  # idempotency keys: interaction_id or a hash of the whole row
    meta = {"collection": "interactions", "indexes": [("company_id", "originator")]}


class SegmentChange(Document):
    """One move of one listener between segments, appended by the run that made it."""

    company_id = IntField(required=True)
    originator = StringField(required=True)
    from_segment = StringField(null=True)
    to_segment = StringField(required=True)
    at = DateTimeField(required=True)
    run_id = StringField(required=True)
    meta = {"collection": "segment_changes",
            "indexes": [("company_id", "originator"), ("company_id", "run_id")]}


class SegmentRun(Document):
    """One segmentation run (full or after an import) with the rollups the overview serves."""

    company_id = IntField(required=True)
    run_id = StringField(required=True, unique=True)
    kind = StringField(default="full")  # full | import | erasure
    now = DateTimeField(required=True)
    started_at = DateTimeField(default=utcnow)
    finished_at = DateTimeField()
    listeners = IntField(default=0)
    profiled = IntField(default=0)
    changed = IntField(default=0)
    timings = DictField()
    rollup = DictField()
    movements = DictField()
    meta = {"collection": "segment_runs", "indexes": [("company_id", "-started_at")]}


class ApiKey(Document):
    """An API key: only its hash is stored; scoped to some companies or to all."""

    name = StringField(default="")
    key_hash = StringField(required=True, unique=True)
    prefix = StringField(required=True)
    companies = ListField(IntField())
    all_companies = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)
    revoked_at = DateTimeField()
    meta = {"collection": "api_keys"}


class User(Document):
    """A local dashboard account."""

    email = StringField(required=True, unique=True)
    password_hash = StringField(required=True)
    name = StringField(default="")
    companies = ListField(IntField())
    admin = BooleanField(default=False)
    created_at = DateTimeField(default=utcnow)
    meta = {"collection": "users"}


class AuditEntry(Document):
    """What was done to whose data, with no personal data in it."""

    company_id = IntField(required=True)
    action = StringField(required=True)
    at = DateTimeField(default=utcnow)
    actor = StringField(default="")
    details = DictField()
    meta = {"collection": "audit", "indexes": [("company_id", "-at")]}


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
    errors = ListField(DictField())  # [{"line": n, "reason": "..."}] (first 1000)
    error_count = IntField(default=0)
    meta = {"collection": "import_reports"}


class Suppression(Document):
    """A keyed hash of a number whose interactions are dropped at import (erasure with suppress=true)."""

    company_id = IntField(required=True)
    number_hash = StringField(required=True)
    created_at = DateTimeField(default=utcnow)
    meta = {"collection": "suppressions",
            "indexes": [{"fields": ["company_id", "number_hash"], "unique": True}]}


DOCUMENTS = (Company, Show, Listener, InteractionBatch, SegmentChange, SegmentRun, ApiKey, User, AuditEntry,
             ImportReport, Suppression)


def ensure_indexes() -> None:
    """Create every declared index (idempotent); every listener query starts with company_id."""
    for doc in DOCUMENTS:
        doc.ensure_indexes()
