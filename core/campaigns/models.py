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
