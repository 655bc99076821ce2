"""Alerts: /api/v1/alerts/{company_id}, the rules a station saves on its segment history (listed, created,
deleted) and the firings kept, newest first. Rules are checked after each full run and daily (core.alerts)."""
from __future__ import annotations

from flask.views import MethodView
from marshmallow import Schema, fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from api.arguments import Blueprint, RequestSchema
from api.bodies import JsonBoolean, JsonNumber, longest
from core.alerts.rules import EMAIL, KINDS, MAX_RECIPIENTS, METRICS, THRESHOLD_LIMITS
from core.alerts.store import create_rule, delete_rule, list_firings, list_rules

KIND = ("grows_by / falls_by: the metric moved by at least `threshold` percent week on week; below / above: under "
        "/ over `threshold` listeners; under_monthly_mean: the metric of the last 7 days under its weekly mean over "
        "the 4 weeks before by at least `threshold` percent (0: by any amount), e.g. new listeners this week under "
        "last month's weekly mean")
THRESHOLD = "percent for grows_by, falls_by and under_monthly_mean; listeners for below and above"
METRIC = "a segment's key, total (all listeners) or new (listeners first heard in the last 7 days)"


class EmailDeliverySchema(RequestSchema):
    to = fields.List(fields.Str(validate=[Length(3, 254), Regexp(EMAIL)]), required=True,
                     validate=Length(1, MAX_RECIPIENTS), metadata={"description": "who reads the digest and the mails"})
    at_once = JsonBoolean(load_default=False, metadata={
        "description": "also mail each firing at once (the weekly digest lists it anyway)"})


class AlertRuleRequestSchema(RequestSchema):
    kind = fields.Str(required=True, validate=OneOf(KINDS), metadata={"maxLength": longest(KINDS), "description": KIND})
    metric = fields.Str(required=True, validate=OneOf(METRICS), metadata={"maxLength": longest(METRICS),
                                                                          "description": METRIC})
    threshold = JsonNumber(required=True, validate=Range(*THRESHOLD_LIMITS), metadata={"description": THRESHOLD})
    webhook = JsonBoolean(load_default=False, metadata={"description": "send each firing as an alert.fired event"})
    email = fields.Nested(EmailDeliverySchema, metadata={
        "description": "e-mail delivery: the weekly digest, and each firing at once if asked (left out: none)"})


class AlertRuleSchema(Schema):
    rule_id = fields.Str()
    company_id = fields.Int()
    kind = fields.Str(metadata={"enum": list(KINDS)})
    metric = fields.Str(metadata={"enum": list(METRICS)})
    threshold = fields.Float()
    webhook = fields.Bool()
    email = fields.Nested(EmailDeliverySchema, allow_none=True)
    description = fields.Str(metadata={"description": "the rule in words"})
    created_at = fields.Str(metadata={"description": "ISO 8601, UTC"})
    warning = fields.Str(allow_none=True, metadata={
        "description": "why the rule does not work as asked yet, in a sentence (e-mail while the service has no mail "
                       "server: the rule is saved and mails once one is set); null when it does"})


class AlertRuleListSchema(Schema):
    company_id = fields.Int()
    total = fields.Int()
    rules = fields.List(fields.Nested(AlertRuleSchema), metadata={"description": "oldest first"})


class FiredRuleSchema(Schema):
    kind = fields.Str()
    metric = fields.Str()
    threshold = fields.Float()
    delivery = fields.List(fields.Str())
    recipients = fields.List(fields.Str())
    description = fields.Str()


class FiringValuesSchema(Schema):
    value = fields.Int(metadata={"description": "the metric on the day"})
    compared = fields.Float(allow_none=True, metadata={
        "description": "last week's value, or last month's weekly mean of new listeners; null for below and above"})
    change_percent = fields.Float(allow_none=True)


class AlertFiringSchema(Schema):
    firing_id = fields.Str()
    rule_id = fields.Str()
    period = fields.Str(metadata={"description": "the station's ISO week (2026-W47): a rule fires once in each"})
    date = fields.Str(metadata={"description": "the station's day the values are of"})
    rule = fields.Nested(FiredRuleSchema, metadata={"description": "the rule as it was when it fired"})
    values = fields.Nested(FiringValuesSchema)
    source = fields.Str(metadata={"enum": ["run", "daily"], "description": "checked after a full run or daily"})
    fired_at = fields.Str(metadata={"description": "ISO 8601, UTC"})
    delivered = fields.Dict(keys=fields.Str(), values=fields.Str(), metadata={
        "description": "how each delivery went: webhook emitted; email queued, sent, in the digest, ..."})


class AlertFiringListSchema(Schema):
    company_id = fields.Int()
    total = fields.Int()
    firings = fields.List(fields.Nested(AlertFiringSchema), metadata={"description": "newest first, 100 at most"})


class DeletedRuleSchema(Schema):
    company_id = fields.Int()
    rule_id = fields.Str()
    deleted = fields.Bool()


blp = Blueprint("alert_rules", __name__, url_prefix="/api/v1/alerts",
                description="Alerts: rules on a station's segment history, and their firings")


@blp.route("/<company:company_id>")
class AlertRules(MethodView):
    @blp.response(200, AlertRuleListSchema)
    def get(self, company_id: int):
        """The station's alert rules, oldest first"""
        return list_rules(company_id)

    @blp.arguments(AlertRuleRequestSchema)
    @blp.response(200, AlertRuleSchema)
    def post(self, body: dict, company_id: int):
        """Save an alert rule: what it watches, when it fires and how it is delivered"""
        return create_rule(company_id, **body)


@blp.route("/<company:company_id>/firings")
class AlertFirings(MethodView):
    @blp.response(200, AlertFiringListSchema)
    def get(self, company_id: int):
        """The station's alert firings, newest first"""
        return list_firings(company_id)


@blp.route("/<company:company_id>/<rule_id>")
class AlertRule(MethodView):
    @blp.response(200, DeletedRuleSchema)
    def delete(self, company_id: int, rule_id: str):
        """Delete an alert rule; its firings stay"""
        return delete_rule(company_id, rule_id)
