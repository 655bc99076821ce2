"""The stored documents of saved audiences: one per audience, holding the strategy that found its members so that a
refresh re-runs it (docs/decisions.md §8)."""
from __future__ import annotations

from mongoengine import BinaryField, DateTimeField, DictField, Document, FloatField, IntField, ListField, StringField

from core.db.documents import stored


@stored
class Audience(Document):
    """A named audience of a station. Names are unique per company by `name_key` (core.text.names: the same when they
    read the same), an index and not a read, so that two creates racing with one name cannot both win."""

    company_id = IntField(required=True)
    audience_id = StringField(required=True)  # short, random, URL-safe
    name = StringField()  # stored before sealing; since, the texts are sealed (core.audiences.texts)
    name_key = StringField(required=True)  # a keyed hash of the name's compared form
    theme = StringField()
    description = StringField(null=True)
    sealed_texts = BinaryField()  # name, theme, description and the strategy's queries, one envelope
    texts_key = StringField()
    limit = IntField(required=True)
    min_score = FloatField(required=True)
    expiry_days = IntField(required=True)
    holdout_percent = IntField(default=0)  # the share held out of the campaign (core.audiences.arms); 0 before holdouts
    campaign = DictField(null=True)  # when it runs and what counts as a response (core.audiences.campaign)
    plan_id = StringField(null=True)  # the saved plan it was made from (core.campaigns.plans)
    strategy = DictField()  # queries, filters (parameter -> value(s)), min_score, limit, provider, model
    members = ListField(DictField())  # [{originator, score, query: index into strategy.queries}], best first
    created_at = DateTimeField(required=True)
    refreshed_at = DateTimeField(null=True)
    expires_at = DateTimeField(required=True)
    changes = DictField(null=True)  # what the last refresh changed: joined, left and stayed counts
    meta = {"collection": "audiences",
            "indexes": [{"fields": ["company_id", "name_key"], "unique": True},
                        {"fields": ["company_id", "audience_id"], "unique": True}]}
