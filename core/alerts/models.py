"""The stored documents of alerts: the rules a station's producers save, each firing kept, the weekly digests sent
and when each station was last checked."""
from __future__ import annotations

from mongoengine import (
    BooleanField,
    DateTimeField,
    DictField,
    Document,
    FloatField,
    IntField,
    ListField,
    StringField,
)

from core.db.documents import stored
from core.personal.registry import Store, declare


@stored
class AlertRule(Document):
    """A rule of a station: what it watches (`metric`: a segment, "total" or "new"), how (`kind`, `threshold`), and
    how a firing reaches people (`delivery`: email and/or webhook; `email_now`: a mail at once besides the digest)."""

    company_id = IntField(required=True)
    rule_id = StringField(required=True)
    kind = StringField(required=True)
    metric = StringField(required=True)
    threshold = FloatField(null=True)
    delivery = ListField(StringField())
    recipients = ListField(StringField())
    email_now = BooleanField(default=False)
    created_at = DateTimeField(required=True)
    meta = {"collection": "alert_rules", "indexes": [{"fields": ["company_id", "rule_id"], "unique": True}]}


@stored
class AlertFiring(Document):
    """A rule that held in a period (the station's ISO week): kept once per rule and period, by the unique index, so
    that a check after a run and the daily check of the same week never fire it twice."""

    company_id = IntField(required=True)
    firing_id = StringField(required=True)
    rule_id = StringField(required=True)
    period = StringField(required=True)  # YYYY-Www in the station's calendar
    date = StringField(required=True)  # the station's day the values are of
    rule = DictField()  # kind, metric, threshold and the rule in words, as they were when it fired
    values = DictField()  # value, compared (last week's value or last month's weekly mean), change_percent
    source = StringField(required=True, choices=("run", "daily"))
    fired_at = DateTimeField(required=True)
    delivered = DictField()  # channel -> how it went: webhook "emitted", email "queued", "sent", "in the digest"
    meta = {"collection": "alert_firings",
            "indexes": [{"fields": ["rule_id", "period"], "unique": True}, ("company_id", "fired_at"),
                        ("company_id", "period")]}


@stored
class AlertDigest(Document):
    """The weekly digest of a station's week, once sent (one per station and week)."""

    company_id = IntField(required=True)
    period = StringField(required=True)
    recipients = ListField(StringField())
    sent_at = DateTimeField(required=True)
    meta = {"collection": "alert_digests", "indexes": [{"fields": ["company_id", "period"], "unique": True}]}


@stored
class AlertCheck(Document):
    """When the station's rules were last checked by its daily job (what makes the job due again)."""

    company_id = IntField(required=True, unique=True)
    checked_at = DateTimeField(required=True)
    meta = {"collection": "alert_checks"}


# A rule watches a segment's count; its firings keep figures; its mail goes to the station's people.
RULES = declare(Store("alert_rules", "alert_rules", free=(
    "_id", "company_id", "rule_id", "kind", "metric", "threshold", "delivery", "recipients", "email_now",
    "created_at")))
FIRINGS = declare(Store("alert_firings", "alert_firings", free=(
    "_id", "company_id", "firing_id", "rule_id", "period", "date", "rule", "values", "source", "fired_at",
    "delivered")))
DIGESTS = declare(Store("alert_digests", "alert_digests", free=("_id", "company_id", "period", "recipients",
                                                                 "sent_at")))
CHECKS = declare(Store("alert_checks", "alert_checks", free=("_id", "company_id", "checked_at")))
