"""One listener: GET the full profile, DELETE to erase (pseudonymise) it."""
from __future__ import annotations

from flask import current_app, g
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.arguments import Blueprint, RequestSchema
from core.db.connection import ALIASES
from core.explore.listener import get_listener
from core.privacy.erasure import erase_listener


class SegmentAssignmentSchema(Schema):
    key = fields.Str()
    label = fields.Str()
    meaning = fields.Str()
    reasons = fields.List(fields.Str())
    rfm = fields.Dict(keys=fields.Str(), values=fields.Int())


class HistoryEntrySchema(Schema):
    from_ = fields.Str(data_key="from", attribute="from", allow_none=True)
    to = fields.Str()
    at = fields.Str()
    disk_purge_by = fields.Str(allow_none=True, metadata={"description": "by when no file on disk holds the erased "
                                                                          "values (the next daily purge)"})
    disk_purge = fields.Str(metadata={"description": "what happens to the bytes on disk, in a sentence"})


class ListenerSchema(Schema):
    company_id = fields.Int()
    originator = fields.Str()
    declared = fields.Dict()
    tags = fields.List(fields.Str())
    permission = fields.Bool(allow_none=True)
    opt_in = fields.Bool(allow_none=True)
    inferred = fields.Dict(metadata={"description": "inferred_* -> {value, confidence} or null"})
    segment = fields.Nested(SegmentAssignmentSchema, allow_none=True)
    profile = fields.Dict(allow_none=True, metadata={"description": "behavioural profile"})
    channel_names = fields.Dict(keys=fields.Str(), values=fields.Str())
    segment_history = fields.List(fields.Nested(HistoryEntrySchema))


class ErasureReceiptSchema(Schema):
    erased = fields.Bool()
    pseudonym = fields.Str()
    suppressed = fields.Bool()
    stores = fields.Dict(keys=fields.Str(), values=fields.Int(), metadata={"description": "records touched per store"})
    at = fields.Str()
    disk_purge_by = fields.Str(allow_none=True, metadata={"description": "by when no file on disk holds the erased "
                                                                          "values (the next daily purge)"})
    disk_purge = fields.Str(metadata={"description": "what happens to the bytes on disk, in a sentence"})


blp = Blueprint("listeners", __name__, url_prefix="/api/v1/listeners", description="One listener")



class ProfileArgsSchema(RequestSchema):
    db = fields.Str(validate=validate.OneOf(ALIASES), metadata={
        "default": "default", "description": "configured database alias to read from"})


class ErasureArgsSchema(RequestSchema):
    suppress = fields.Bool(load_default=False, metadata={
        "description": "also drop future interactions from this number at import"})


@blp.route("/<company:company_id>/<originator>")
class ListenerProfile(MethodView):
    @blp.arguments(ProfileArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, ListenerSchema)
    def get(self, args: dict, company_id: int, originator: str):
        """Full behavioural profile and current segment of one listener"""
        return get_listener(company_id, originator, args.get("db"))

    @blp.arguments(ErasureArgsSchema, location="query", as_kwargs=False)
    @blp.response(200, ErasureReceiptSchema)
    def delete(self, args: dict, company_id: int, originator: str):
        """Erasure: pseudonymises the profile (irreversible)"""
        secret = current_app.config["SETTINGS"].secret_key
        return erase_listener(company_id, originator, secret, suppress=args["suppress"],
                              actor=f"api:{g.api_scope.key_id}")
