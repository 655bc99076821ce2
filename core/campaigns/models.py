"""The stored documents of the campaign agent: recommendations kept for 24 hours (docs/decisions.md §8)."""
from __future__ import annotations

from mongoengine import DateTimeField, Document, IntField, StringField

from core.clock import utcnow
from core.db.documents import stored


@stored
class CachedRecommendation(Document):
    """One answer of recommend, served again for the same brief, filters, sample size and provider for 24 hours.

    The answer is kept as its JSON text: its figures are keyed by the station's own values (show titles, places),
    which are not all fit to be field names of a stored document."""

    company_id = IntField(required=True)
    key = StringField(required=True)  # core.campaigns.cache.cache_key
    provider = StringField()
    model = StringField()
    answer = StringField(required=True)
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "recommendations", "indexes": [("company_id", "key", "-made_at")]}


@stored
class SavedPlan(Document):
    """A recommendation a producer kept: its answer as made (JSON text, as the cache keeps it), reopened for free."""

    company_id = IntField(required=True)
    plan_id = StringField(required=True)
    name = StringField(required=True)
    answer = StringField(required=True)
    saved_by = StringField(default="")
    saved_at = DateTimeField(default=utcnow)
    meta = {"collection": "saved_plans", "indexes": [{"fields": ["company_id", "plan_id"], "unique": True},
                                                      ("company_id", "-saved_at")]}
