"""The one check of every query string the API receives, derived from the app's own OpenAPI document.

For each operation the document lists, its query parameters become core.text.query rules (the name; repeatable when
its schema is an array; for whole numbers, their bounds). A new operation is covered as soon as it is documented,
and a parameter the document does not name is refused instead of silently ignored (`segmnt=` would otherwise
select every listener). The rules are built once, on the first request, and kept in app.extensions.
"""
from __future__ import annotations

from apispec import BasePlugin
from flask import current_app, request
from flask_smorest import current_api
from flask_smorest.exceptions import CurrentApiNotAvailableError
from flask_smorest.spec.plugins import FlaskPlugin

from core.text.query import QueryRule, check_query

Rules = dict[str, dict[str, dict[str, QueryRule]]]
"""OpenAPI path -> method -> query parameter name -> its rule."""
NO_NUL = r"^[^\u0000]*$"
"""Text without NUL, which core.text.storable refuses in every value (the document says so, so that a client reading
it is not surprised by a 422)."""
NOT_BLANK = {"minLength": 1, "pattern": r"^[^\u0000]*[^\s\u0000][^\u0000]*$"}
"""What the document says of every free-text query value, because core.text.query refuses blank ones (and NUL)."""


def check_request_query() -> None:
    """Before every request: 422 when the query string breaks the rules of the operation it reaches."""
    rules = _operation_rules()
    if rules is not None:
        check_query(request.args.to_dict(flat=False), rules)


def _operation_rules() -> dict[str, QueryRule] | None:
    """The rules of the documented operation this request reaches; None for anything else (pages, the document)."""
    if request.url_rule is None:
        return None
    try:
        api = current_api._get_current_object()
    except CurrentApiNotAvailableError:
        return None
    if "query_rules" not in current_app.extensions:
        current_app.extensions["query_rules"] = rules_of(api.spec.to_dict())
    method = "get" if request.method == "HEAD" else request.method.lower()
    path = FlaskPlugin.flaskpath2openapi(request.url_rule.rule)
    return current_app.extensions["query_rules"].get(path, {}).get(method)


def rules_of(document: dict) -> Rules:
    """The query parameter rules of every operation of an OpenAPI 3 document (path-level parameters included)."""
    out: Rules = {}
    for path, item in document.get("paths", {}).items():
        shared = item.get("parameters", [])
        for method, operation in item.items():
            if method == "parameters" or not isinstance(operation, dict):
                continue
            params = [_resolved(document, p) for p in [*shared, *operation.get("parameters", [])]]
            out.setdefault(path, {})[method] = {p["name"]: rule_of(p.get("schema", {}))
                                                for p in params if p.get("in") == "query"}
    return out


def rule_of(schema: dict) -> QueryRule:
    """A parameter's rule from its schema: arrays repeat; integers (or arrays of them) carry their bounds."""
    repeatable = schema.get("type") == "array"
    values = schema.get("items", {}) if repeatable else schema
    return QueryRule(repeatable=repeatable, integer=values.get("type") == "integer",
                     minimum=values.get("minimum"), maximum=values.get("maximum"))


def _resolved(document: dict, param: dict) -> dict:
    """A parameter, or the component a `$ref` points to (#/components/parameters/NAME)."""
    ref = param.get("$ref")
    if not ref:
        return param
    return document["components"]["parameters"][ref.rsplit("/", 1)[-1]]


class NonBlankQueryPlugin(BasePlugin):
    """Documents, on every query parameter of every operation, that a value may not be blank, as the hook enforces
    (without it, a client reading the document would send `name=` and be surprised by a 422)."""

    def path_helper(self, path=None, operations=None, parameters=None, **kwargs):
        _mark_not_blank(parameters or [])

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            _mark_not_blank(operation.get("parameters", []))


def _mark_not_blank(parameters: list) -> None:
    for param in parameters:
        if isinstance(param, dict) and param.get("in") == "query" and isinstance(param.get("schema"), dict):
            schema = param["schema"]
            _free_text(schema.get("items", {}) if schema.get("type") == "array" else schema)


def _free_text(schema: dict) -> None:
    """Strings without an enum, format or pattern of their own say they need a non-blank character."""
    if schema.get("type") == "string" and not {"enum", "format", "pattern"} & schema.keys():
        schema.update(NOT_BLANK)
