"""The stored documents of segmentation: each run with its rollups, and each move of a listener between segments."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from mongoengine import DateTimeField, DictField, Document, IntField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
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


@stored
class SegmentRun(Document):
    """One segmentation run (full or after an import) with the rollups the overview serves."""

    company_id = IntField(required=True)
    run_id = StringField(required=True, unique=True)
    kind = StringField(default="full")  # full | import | erasure | live (one per snapshot file)
    now = DateTimeField(required=True)
    started_at = DateTimeField(default=utcnow)
    finished_at = DateTimeField()
    listeners = IntField(default=0)
    profiled = IntField(default=0)
    changed = IntField(default=0)
    timings = DictField()
    rollup = DictField()
    sums = DictField()  # what the rollup is made of (core.segmentation.rollups.sums), kept by live runs
    movements = DictField()
    meta = {"collection": "segment_runs", "indexes": [("company_id", "-started_at")]}
    first_segments: Mapping[str, str] = MappingProxyType({})
    """Not stored: the listeners this run gave their first segment (originator -> segment), for what follows the run
    in the same process (core.webhooks.producers); a first assignment is no change document
    (core.segmentation.recording).
    """


JOBS = declare(Store("segment_jobs", "segment_jobs", free=(  # core.segmentation.requested.SegmentJob
    "_id", "company_id", "actor", "state", "steps", "started_at", "finished_at")))
