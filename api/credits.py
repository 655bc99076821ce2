"""Credits: /api/v1/agent/{company_id}/credits, the balance and usage history of a station's AI credits, and the
admin-only load and pause."""
from __future__ import annotations

from functools import wraps

from flask import request
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.arguments import NO_NUL, Blueprint, RequestSchema, Whole
from api.bodies import JsonBoolean, JsonNumber
from core.access.api_keys import check_admin
from core.ai.profile import spend_report
from core.config import active
from core.credits.ledger import MAX_TEXT, account, load, set_paused
from core.credits.money import MAX_LOAD
from core.credits.usage import BAD_DATE, DEFAULT_LIMIT, LIMITS, STATUSES, USAGE_KINDS
from core.db import idempotency
from core.stations.companies import timezone_of

AT_MOST = "At most {max} characters."
"""What a note or a reason too long is told (core's words)."""


class LoadCreditsSchema(RequestSchema):
    credits = JsonNumber(required=True, places=2, metadata={
        "minimum": 0.01, "maximum": MAX_LOAD,
        "description": f"credits to add: above 0, at most {MAX_LOAD:,}, with at most 2 decimals"})
    note = fields.Str(allow_none=True, load_default=None, validate=validate.Length(max=MAX_TEXT, error=AT_MOST),
                      metadata={"pattern": NO_NUL, "description": "why, for the ledger"})


class PauseSchema(RequestSchema):
    paused = JsonBoolean(required=True, metadata={"description": "true pauses every AI answer, false resumes them"})
    reason = fields.Str(allow_none=True, load_default=None, validate=validate.Length(max=MAX_TEXT, error=AT_MOST),
                        metadata={"pattern": NO_NUL, "description": "shown in the 403 of every AI call while paused; "
                                                                    "cleared by unpausing"})


class UsageArgsSchema(RequestSchema):
    from_date = fields.Date(error_messages={"invalid": BAD_DATE}, metadata={
        "description": "first day, YYYY-MM-DD, in the station's time zone (included)"})
    to_date = fields.Date(error_messages={"invalid": BAD_DATE}, metadata={
        "description": "last day, YYYY-MM-DD, in the station's time zone (included: up to 23:59:59 that day there); "
                       "before from_date, nothing is selected"})
    limit = Whole(*LIMITS, load_default=DEFAULT_LIMIT)


class TotalsSchema(Schema):
    loaded = JsonNumber(metadata={"description": "credits ever loaded"})
    spent = JsonNumber(metadata={"description": "credits ever charged, refunded ones included"})
    refunded = JsonNumber(metadata={"description": "credits given back for AI calls that failed"})
    ai_calls = fields.Int(metadata={"description": "paid AI calls that answered"})
    cached_calls = fields.Int(metadata={"description": "answers served from a cache, free"})


class CreditAccountSchema(Schema):
    company_id = fields.Int()
    balance = JsonNumber(metadata={"description": "credits left (at most 2 decimals); a new station has 0"})
    paused = fields.Bool()
    reason = fields.Str(allow_none=True, metadata={"description": "why AI usage is paused (null when not)"})
    paused_at = fields.Str(allow_none=True, metadata={"description": "when it was paused, ISO 8601 UTC"})
    totals = fields.Nested(TotalsSchema, metadata={"description": "the ledger's sums; loaded - spent + refunded "
                                                                  "is the balance"})


REPLAYED = {"description": "true when the request repeated an Idempotency-Key already used for it in the last 24 "
                          "hours: nothing changed, and the account is shown as it is now"}


class LoadedSchema(CreditAccountSchema):
    loaded = JsonNumber(metadata={"description": "the credits this request added (or, replayed, the first one)"})
    replayed = fields.Bool(metadata=REPLAYED)


class PausedSchema(CreditAccountSchema):
    replayed = fields.Bool(metadata=REPLAYED)


class UsageEntrySchema(Schema):
    seq = fields.Int(metadata={"description": "the entry's number in the station's ledger"})
    at = fields.Str(metadata={"description": "ISO 8601 UTC"})
    kind = fields.Str(metadata={"enum": list(USAGE_KINDS),
                                "description": "spend (a paid call), cached (a free answer from a cache) or refund"})
    operation = fields.Str(allow_none=True, metadata={"description": "ai_listener_profile, recommend, ..."})
    credits = JsonNumber(metadata={"description": "what the entry cost: the price of a spend, 0 when cached, minus "
                                                  "the price for a refund (so the entries add up)"})
    provider = fields.Str(allow_none=True)
    model = fields.Str(allow_none=True)
    tokens_in = fields.Int(allow_none=True)
    tokens_out = fields.Int(allow_none=True)
    cached = fields.Bool()
    status = fields.Str(metadata={"enum": list(STATUSES), "description": "refunded: the call failed and the refund "
                                                                         "entry refund_of it gave the price back"})
    subject = fields.Str(allow_none=True, metadata={"description": "the listener (originator) or audience the call "
                                                                   "was about; null once the listener is erased"})
    refund_of = fields.Int(allow_none=True, metadata={"description": "a refund's spend (its seq)"})


class UsageSchema(Schema):
    company_id = fields.Int()
    from_date = fields.Str(allow_none=True)
    to_date = fields.Str(allow_none=True)
    limit = fields.Int()
    total = fields.Int(metadata={"description": "entries within the days, of which the newest `limit` are listed"})
    usage = fields.List(fields.Nested(UsageEntrySchema), metadata={"description": "newest first"})


blp = Blueprint("credit_accounts", __name__, url_prefix="/api/v1/agent",
                description="AI credits: balance, usage history, and the admin's load and pause")

ADMIN_KEY = {"in": "header", "name": "X-Admin-Key", "required": True, "schema": {"type": "string"},
             "description": "the server's ADMIN_KEY (403 when wrong, missing or not configured)"}
IDEMPOTENCY_KEY = {"in": "header", "name": idempotency.HEADER, "required": False,
                   "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,255}$"},
                   "description": "any unique value per intended change (a UUID): the same request sent again with the "
                                  "same key within 24 hours changes nothing and answers `replayed: true`; the same "
                                  "key with a different body is 409"}


def admin_only(view):
    """The admin key is checked before the body is read, so that who may not load or pause learns nothing more;
    an admin change takes an idempotency key, so that a retry after a lost answer changes nothing twice."""

    @wraps(view)
    def checked(*args, **kwargs):
        check_admin(request.headers.get("X-Admin-Key"), active().admin_key)
        return view(*args, **kwargs)

    reused = blp.alt_response(409, response="CONFLICT", description="the Idempotency-Key was used for another request")
    return reused(blp.doc(parameters=[ADMIN_KEY, IDEMPOTENCY_KEY])(checked))


@blp.route("/<company:company_id>/credits")
class Credits(MethodView):
    @blp.response(200, CreditAccountSchema)
    def get(self, company_id: int):
        """The station's credit balance, whether AI usage is paused, and the ledger's totals"""
        return account(company_id)


@blp.route("/<company:company_id>/credits/load")
class LoadCredits(MethodView):
    @admin_only
    @blp.arguments(LoadCreditsSchema, as_kwargs=False)
    @blp.response(200, LoadedSchema)
    def post(self, body: dict, company_id: int):
        """Add credits to the station's account (admin only: X-Admin-Key)"""
        return load(company_id, body["credits"], body["note"], request.headers.get(idempotency.HEADER))


@blp.route("/<company:company_id>/credits/usage")
class Usage(MethodView):
    @blp.arguments(UsageArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, UsageSchema)
    def get(self, args: dict, company_id: int):
        """AI usage history, newest first: each paid or cached call and each refund, optionally within whole days"""
        return spend_report(company_id, args.get("from_date"), args.get("to_date"), args["limit"],
                            timezone_of(company_id))


@blp.route("/<company:company_id>/credits/pause")
class Pause(MethodView):
    @admin_only
    @blp.arguments(PauseSchema, as_kwargs=False)
    @blp.response(200, PausedSchema)
    def patch(self, body: dict, company_id: int):
        """Pause or resume the station's AI usage, with an optional reason (admin only: X-Admin-Key)"""
        return set_paused(company_id, body["paused"], body["reason"], request.headers.get(idempotency.HEADER))
