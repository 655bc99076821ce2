"""The REST API (/api/v1): flask-smorest blueprints, thin over core services."""
from __future__ import annotations

from http import HTTPStatus

from flask import Flask, g, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from marshmallow import ValidationError
from werkzeug.routing import AnyConverter

from api import (
    agent,
    ai,
    alerts,
    audiences,
    campaign_results,
    credits,
    custom_segments,
    docs,
    explore,
    health,
    imports,
    intelligence,
    interactions,
    listener,
    overview,
    search,
    webhooks,
)
from api.arguments import NonBlankQueryPlugin, Whole
from api.bodies import StrictJsonRequest, check_request_body
from api.converters import CompanyIdConverter
from api.errors import ErrorResponsesPlugin, ErrorSchema, error_response_doc, validation_items
from core.access.api_keys import authenticate, authorise
from core.errors import ValidationFailed
from core.oncall.health import CONTRACT_VERSION
from core.stations.companies import COMPANY_IDS


class JsonApi(Api):
    """An Api that leaves error handling to webapp.errors (JSON under /api/ and /health, pages elsewhere) and
    documents the errors as they are sent: `{"detail": ...}`, each status an operation can answer listed on it."""

    ERROR_SCHEMA = ErrorSchema
    DEFAULT_ERROR_RESPONSE_NAME = None  # no catch-all "default": every status is listed (api.errors.error_statuses)

    def _register_error_handlers(self):
        """Errors are answered app-wide by webapp.errors (JSON under /api/, pages elsewhere)."""

    def _register_responses(self):
        """The response component of every status (what `alt_response` and `arguments` name) with our bodies."""
        for status in HTTPStatus:
            response = error_response_doc(status) if status >= 400 else {"description": status.phrase}
            prepare_response(response, self.spec, self.DEFAULT_RESPONSE_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)


COMPANY_ID = Whole(*COMPANY_IDS)
"""A company_id in a path, as every argument's whole number is read."""


def _authenticate_request() -> None:
    """Every /api/v1 path needs a key (401); a company_id in the path must be an integer (422) the key covers (403)."""
    if not request.path.startswith("/api/v1/") or request.path.startswith(("/api/v1/openapi.json", "/api/v1/docs")):
        return
    g.api_scope = authenticate(request.headers.get("X-API-Key"))
    view_args = request.view_args or {}
    if "company_id" in view_args:
        try:
            company_id = COMPANY_ID.deserialize(view_args["company_id"])
        except ValidationError as refused:
            raise ValidationFailed(validation_items({"messages": {"path": {"company_id": refused.messages}}})) from None
        authorise(g.api_scope, company_id)
        view_args["company_id"] = company_id


def init_app(app: Flask) -> Api:
    """Register the API blueprints, the key check and the JSON error handlers."""
    app.config.update(
        API_TITLE="Listener Segmentation Service",
        API_VERSION=CONTRACT_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
    )
    app.config.setdefault("API_SPEC_OPTIONS", {
        "components": {"securitySchemes": {"APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}},
        "security": [{"APIKeyHeader": []}],
    })
    app.url_map.converters["company"] = CompanyIdConverter
    api = JsonApi(app, spec_kwargs={"extra_plugins": [ErrorResponsesPlugin(), NonBlankQueryPlugin()]})
    api.register_converter(CompanyIdConverter, lambda _converter: {"type": "integer", "minimum": COMPANY_IDS[0],
                                                                   "maximum": COMPANY_IDS[1]})
    api.register_converter(AnyConverter, lambda converter: {"type": "string", "enum": sorted(converter.items)})
    for area in (health, overview, explore, search, listener, imports, interactions, intelligence, ai, credits,
                 custom_segments, audiences, campaign_results, agent, alerts, webhooks):
        api.register_blueprint(area.blp)
    app.before_request(_authenticate_request)
    app.before_request(check_request_body)
    app.request_class = StrictJsonRequest  # request.get_json (Flask-WTF's, on pages) reads as the API does
    app.register_blueprint(docs.blp)  # Swagger UI without inline script (flask-smorest's own has one)
    app.add_url_rule("/metrics", "metrics", health.metrics)
    return api
