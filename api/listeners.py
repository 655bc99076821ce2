"""One listener: GET the full profile, DELETE to erase (pseudonymise) it."""
from __future__ import annotations

from flask import current_app, g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.schemas import ErasureReceiptSchema, ListenerSchema
from core.erasure import erase_listener
from core.filters import parse_bool_param
from core.listeners import get_listener

blp = Blueprint("listeners", __name__, url_prefix="/api/v1/listeners", description="One listener")

DB_PARAM = {"in": "query", "name": "db", "required": False, "schema": {"type": "string", "default": "default"},
            "description": "database alias to read from"}
SUPPRESS_PARAM = {"in": "query", "name": "suppress", "required": False, "schema": {"type": "boolean", "default": False},
                  "description": "also drop future interactions from this number at import"}


@blp.route("/<company:company_id>/<originator>")
class ListenerProfile(MethodView):
    @blp.doc(parameters=[DB_PARAM])
    @blp.response(200, ListenerSchema)
    def get(self, company_id: int, originator: str):
        """Full behavioural profile and current segment of one listener"""
        return get_listener(company_id, originator, request.args.get("db"))

    @blp.doc(parameters=[SUPPRESS_PARAM])
    @blp.response(200, ErasureReceiptSchema)
    def delete(self, company_id: int, originator: str):
        """Erasure: pseudonymises the profile (irreversible)"""
        suppress = parse_bool_param(request.args.get("suppress"), "suppress")
        secret = current_app.config["SETTINGS"].secret_key
        return erase_listener(company_id, originator, secret, suppress=suppress, actor=f"api:{g.api_scope.key_id}")
