"""The one place where API errors become JSON: `{"detail": [...]}` for 422, `{"detail": "sentence"}` otherwise."""
from __future__ import annotations

import logging

from flask import jsonify, request
from werkzeug.exceptions import HTTPException

from core.errors import DomainError, ValidationFailed

log = logging.getLogger(__name__)

WEBARGS_LOCATIONS = {"json": "body", "form": "body", "query": "query", "querystring": "query",
                     "view_args": "path", "path": "path", "headers": "header"}


def is_api_request() -> bool:
    """Requests the API answers (JSON errors); everything else is a page."""
    return request.path.startswith("/api/") or request.path == "/health"


def _flatten(messages, loc: list) -> list[dict]:
    """webargs' nested {location: {field: [msgs]}} as the spec's list of {loc, msg, type}."""
    if isinstance(messages, dict):
        items = []
        for key, value in messages.items():
            items.extend(_flatten(value, loc + [key]))
        return items
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [{"loc": loc, "msg": m, "type": _type_of(m)} for m in messages]
    if isinstance(messages, list):
        return [item for m in messages for item in _flatten(m, loc)]
    return [{"loc": loc, "msg": str(messages), "type": "value_error"}]


def _type_of(msg: str) -> str:
    lowered = msg.lower()
    if "missing" in lowered or "required" in lowered:
        return "missing"
    if "unknown field" in lowered:
        return "extra_forbidden"
    if "not a valid" in lowered:
        return "type_error"
    return "value_error"


def validation_items(data: dict) -> list[dict]:
    """422 items from what webargs attached to the error."""
    messages = (data or {}).get("messages") or {}
    items = []
    for location, fields in messages.items():
        items.extend(_flatten(fields, [WEBARGS_LOCATIONS.get(location, location)]))
    return items or [{"loc": ["body"], "msg": "Invalid input", "type": "value_error"}]


def http_error_response(error: HTTPException):
    """JSON body for an HTTP error raised by Flask, werkzeug or webargs."""
    if error.code == 422:
        return jsonify(detail=validation_items(getattr(error, "data", None))), 422
    if error.code == 400 and request.is_json is not None and "JSON" in (error.description or ""):
        return jsonify(detail="Malformed JSON body"), 400
    detail = {404: "Not found", 405: "Method not allowed", 401: "Unauthorized", 403: "Forbidden"}.get(
        error.code, error.description or error.name)
    return jsonify(detail=detail), error.code


def domain_error_response(error: DomainError):
    """JSON body for a core error."""
    if isinstance(error, ValidationFailed):
        return jsonify(detail=error.items), 422
    return jsonify(detail=error.detail), error.status
