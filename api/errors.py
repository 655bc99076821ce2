"""The one place where API errors become JSON: `{"detail": [...]}` for 422, `{"detail": "sentence"}` otherwise;
and the one place that documents them, so that the OpenAPI document describes the bodies the server sends."""
from __future__ import annotations

import logging
from http import HTTPStatus

from apispec import BasePlugin
from flask import jsonify, request
from marshmallow import Schema, fields
from werkzeug.exceptions import HTTPException

from core.errors import DatabaseUnavailable, DomainError, ValidationFailed

log = logging.getLogger(__name__)

WEBARGS_LOCATIONS = {"json": "body", "form": "body", "parts": "body", "query": "query", "querystring": "query",
                     "view_args": "path", "path": "path", "headers": "header"}


def is_api_request() -> bool:
    """Requests the API answers (JSON errors); everything else is a page."""
    return request.path.startswith(("/api/", "/health/")) or request.path in ("/health", "/metrics")


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
    if lowered.startswith(("unknown field", "unknown parameter")):  # before "missing": it may name missing_fields
        return "extra_forbidden"
    if "missing" in lowered or "required" in lowered:
        return "missing"
    if lowered.startswith("empty value"):
        return "string_too_short"
    if lowered == "not a valid integer.":
        return "int_parsing"
    if "not a valid" in lowered:
        return "type_error"
    return "value_error"


def validation_items(data: dict) -> list[dict]:
    """422 items from what webargs attached to the error."""
    messages = (data or {}).get("messages") or {}
    items = []
    for location, problems in messages.items():
        items.extend(_flatten(problems, [WEBARGS_LOCATIONS.get(location, location)]))
    return items or [{"loc": ["body"], "msg": "Invalid input", "type": "value_error"}]


def http_error_response(error: HTTPException):
    """JSON body for an HTTP error raised by Flask, werkzeug or webargs, with the headers it carries (Allow)."""
    return jsonify(detail=_http_detail(error)), error.code, passed_on_headers(error)


def _http_detail(error: HTTPException):
    if error.code == 422:
        return validation_items(getattr(error, "data", None))
    if error.code == 400 and request.is_json is not None and "JSON" in (error.description or ""):
        return "Malformed JSON body"
    return {404: "Not found", 405: "Method not allowed", 401: "Unauthorized", 403: "Forbidden"}.get(
        error.code, error.description or error.name)


def passed_on_headers(error: HTTPException) -> list[tuple[str, str]]:
    """The headers an HTTP error carries besides its content type, such as `Allow` on a 405 (RFC 9110 wants it)."""
    return [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]


def domain_error_response(error: DomainError):
    """JSON body for a core error."""
    if isinstance(error, ValidationFailed):
        return jsonify(detail=error.items), 422
    return jsonify(detail=error.detail), error.status


class ErrorSchema(Schema):
    """Every error body but 422's."""

    detail = fields.Str(required=True, metadata={"description": "what went wrong, in a sentence"})


class ValidationItemSchema(Schema):
    loc = fields.List(fields.Raw(), required=True,
                      metadata={"description": "path, query, body or header, then the name (or index) of the value"})
    msg = fields.Str(required=True)
    type = fields.Str(required=True, metadata={"description": "extra_forbidden, missing, int_parsing, value_error..."})


class ValidationErrorSchema(Schema):
    """The 422 body: every problem of the request, not only the first."""

    detail = fields.List(fields.Nested(ValidationItemSchema), required=True)


RETRY_AFTER = {"description": "seconds to wait before asking again", "required": True,
               "schema": {"type": "integer", "example": DatabaseUnavailable.retry_after}}


def error_response_doc(status: HTTPStatus) -> dict:
    """The OpenAPI response of an error status: its body schema and, for 503, the Retry-After header."""
    doc = {"description": status.phrase, "schema": ValidationErrorSchema if status == 422 else ErrorSchema}
    if status == HTTPStatus.SERVICE_UNAVAILABLE:
        doc["headers"] = {"Retry-After": RETRY_AFTER}
    return doc


def error_statuses(path: str, operation: dict) -> list[int]:
    """The errors any operation can answer, read from its path, security and body (docs/decisions.md §3)."""
    statuses = [400, 413] if "requestBody" in operation else []  # not JSON; larger than MAX_UPLOAD_MB
    if operation.get("security") != []:
        statuses.append(401)  # no key, or an unknown or revoked one
    if "{company_id}" in path:
        statuses.append(403)  # a key for other companies
    if "{" in path:
        statuses.append(404)  # the company, listener, ... named by the path does not exist
    # a request line or headers past the server's bounds (webapp.limits); a parameter refused (unknown ones
    # everywhere); the database not answering
    return statuses + [414, 422, 431, 503]


class ErrorResponsesPlugin(BasePlugin):
    """Lists on every operation the errors it can answer, so that no view lists them by hand and a new operation
    is documented like the others; an operation that documents a status itself (health's 503) keeps its own."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            responses = operation.setdefault("responses", {})
            documented = {str(code) for code in responses}
            for status in error_statuses(path, operation):
                if str(status) not in documented:
                    responses[str(status)] = HTTPStatus(status).name
