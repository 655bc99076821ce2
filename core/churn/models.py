"""A station's churn scoring as the full run that learned it last left it (core.churn.model): what scores, how well
each method did on the held-out cut-off, and the fitted weights and calibration, so that a live run, another
process or a later full run that day scores the same way without learning again."""
from __future__ import annotations

from mongoengine import DateTimeField, DictField, Document, FloatField, IntField, ListField, StringField

from core.clock import utcnow
from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
class ChurnModel(Document):
    """One per station: the backtest's report and the chosen, fitted scoring."""

    company_id = IntField(required=True)
    as_of = DateTimeField(required=True)  # the run it was learned in
    held_out = DateTimeField()  # the newest cut-off, on which the methods were judged
    horizon_days = IntField(required=True)
    labelled = IntField(default=0)
    sampled_from = IntField()  # listeners heard from, of whom a random sample was learned from (None: all)
    quiet_share = FloatField()
    metrics = DictField()  # method -> {"auc", "brier"}
    chosen = StringField(required=True)
    reason = StringField()
    reliability = ListField(DictField())
    weights = DictField()
    knots = ListField(ListField(FloatField()))
    usual = ListField(FloatField())
    interactions = IntField()  # how many the station had when it was learned (core.churn.store.stands)
    trained_s = FloatField()
    made_at = DateTimeField(default=utcnow)
    meta = {"collection": "churn_models", "indexes": [{"fields": ["company_id"], "unique": True}]}


MODELS = declare(Store("churn_models", "churn_models", free=(
    "_id", "company_id", "as_of", "held_out", "horizon_days", "labelled", "sampled_from", "quiet_share", "metrics",
    "chosen", "reason", "reliability", "weights", "knots", "usual", "interactions", "trained_s", "made_at")))
