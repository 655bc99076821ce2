"""The stored documents of the campaign agent: recommendations kept for 24 hours (docs/decisions.md §8)."""
from __future__ import annotations

from mongoengine import BinaryField, DateTimeField, Document, IntField, StringField

from core.clock import utcnow
from core.db.documents import stored


@stored
class CachedRecommendation(Document):
    """One answer of recommend, served again for the same brief, filters, sample size and provider for 24 hours.

    The answer is kept as JSON text, sealed (core.campaigns.sealed_answers): its figures are keyed by the station's
    own values (show titles, places), which are not all fit to be field names of a stored document, and its brief
    may name a listener."""

    company_id = IntField(required=True)
    key = StringField(required=True)  # core.campaigns.cache.cache_key
    provider = StringField()
    model = StringField()
    sealed_answer = BinaryField()  # core.campaigns.sealed_answers
    answer_key = StringField()
    answer = StringField()  # stored before sealing
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "recommendations", "indexes": [("company_id", "key", "-made_at")]}


@stored
class SavedPlan(Document):
    """A recommendation a producer kept: its answer as made, sealed with the plan's name, reopened for free."""

    company_id = IntField(required=True)
    plan_id = StringField(required=True)
    sealed_answer = BinaryField()  # its name and answer (core.campaigns.sealed_answers)
    answer_key = StringField()
    name = StringField()  # stored before sealing
    answer = StringField()  # stored before sealing
    saved_by = StringField(default="")
    saved_at = DateTimeField(default=utcnow)
    meta = {"collection": "saved_plans", "indexes": [{"fields": ["company_id", "plan_id"], "unique": True},
                                                      ("company_id", "-saved_at")]}
