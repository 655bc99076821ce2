"""The REST API (/api/v1): flask-smorest blueprints, thin over core services."""
from __future__ import annotations

from flask import Flask, g, request
from flask_smorest import Api

from api import explore, health, listener, overview
from api.converters import CompanyIdConverter
from core.access.api_keys import authenticate, authorise
from core.errors import ValidationFailed


class JsonApi(Api):
    """An Api that leaves error handling to webapp.errors: JSON under /api/ and /health, pages elsewhere."""

    def _register_error_handlers(self):
        """Errors are answered app-wide by webapp.errors (JSON under /api/, pages elsewhere)."""


def _authenticate_request() -> None:
    """Every /api/v1 path needs a key (401); a company_id in the path must be an integer (422) the key covers (403)."""
    if not request.path.startswith("/api/v1/") or request.path.startswith(("/api/v1/openapi.json", "/api/v1/docs")):
        return
    g.api_scope = authenticate(request.headers.get("X-API-Key"))
    view_args = request.view_args or {}
    if "company_id" in view_args:
        raw = view_args["company_id"]
        try:
            company_id = int(raw)
        except (TypeError, ValueError):
            raise ValidationFailed.one(["path", "company_id"], "Not a valid integer.", "int_parsing") from None
        authorise(g.api_scope, company_id)
        view_args["company_id"] = company_id


def init_app(app: Flask) -> Api:
    """Register the API blueprints, the key check and the JSON error handlers."""
    app.config.update(
        API_TITLE="Listener Segmentation Service",
        API_VERSION="2.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/static/vendor/swagger-ui/",
    )
    app.config.setdefault("API_SPEC_OPTIONS", {
        "components": {"securitySchemes": {"APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}},
        "security": [{"APIKeyHeader": []}],
    })
    app.url_map.converters["company"] = CompanyIdConverter
    api = JsonApi(app)
    api.register_converter(CompanyIdConverter, lambda _converter: {"type": "integer"})
    for area in (health, overview, explore, listener):
        api.register_blueprint(area.blp)
    app.before_request(_authenticate_request)
    return api
