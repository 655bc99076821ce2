"""The stored documents of AI inference: each listener's cached AI profile, each station's cached segment insights,
and the history of demographics copied from inferred to declared values."""
from __future__ import annotations

from mongoengine import DateTimeField, DictField, Document, FloatField, IntField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
class AiProfile(Document):
    """One listener's latest AI profile (inferred demographics and interests), reused for 30 days."""

    company_id = IntField(required=True)
    originator = StringField(required=True)
    values = DictField()  # inferred_gender ... inferred_interests, each with value, confidence and evidence
    provider = StringField()
    model = StringField()
    tokens_in = IntField(default=0)
    tokens_out = IntField(default=0)
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "ai_profiles",
            "indexes": [{"fields": ["company_id", "originator"], "unique": True}]}


@stored
class AiInsights(Document):
    """A station's AI segment insights, valid while its data does not change (same data_version and provider)."""

    company_id = IntField(required=True)
    data_version = IntField(required=True)
    provider = StringField(required=True)
    model = StringField()
    content = DictField()
    tokens_in = IntField(default=0)
    tokens_out = IntField(default=0)
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "ai_insights", "indexes": [("company_id", "data_version", "provider")]}


@stored
class DemographicPromotion(Document):
    """One inferred value copied into an empty declared field: the listener's history of what AI filled in."""

    company_id = IntField(required=True)
    originator = StringField(required=True)
    field = StringField(required=True)
    value = StringField()
    confidence = FloatField()
    provider = StringField()
    model = StringField()
    at = DateTimeField(default=utcnow)
    meta = {"collection": "demographic_promotions", "indexes": [("company_id", "originator")]}


INSIGHTS = declare(Store("ai_insights", "ai_insights", free=(
    "_id", "company_id", "data_version", "provider", "model",
    "content",  # about segments: figures, and traits held by at least 3 of a segment's listeners (its tags too)
    "tokens_in", "tokens_out", "made_at")))
