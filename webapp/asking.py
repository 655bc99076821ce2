"""How a page reads what it is asked: its query string or form declared on a schema of the API's one base
(api.arguments.RequestSchema), read by the API's one parser, so that a page and the API refuse alike (an unknown name
naming the closest known one, a value given twice, a blank one). webargs' refusal becomes core's ValidationFailed
here, once: a page shows it as it shows every 422 (an error page, or beside its form where the page catches it).
A page that reads no query string takes none, as the API's operations (asking_or_none)."""
from __future__ import annotations

from functools import wraps

from flask import current_app, g, request
from marshmallow import fields, post_load
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import UnprocessableEntity

from api.arguments import NoArguments, RequestSchema, parser
from api.errors import validation_items
from core.errors import ValidationFailed


class PageForm(RequestSchema):
    """A page's form (POST): what it declares, and the token Flask-WTF checked before the page was called."""

    csrf_token = fields.Str(load_only=True)

    @post_load
    def _without_the_token(self, data, **_kwargs):
        """What the page is asked, the token (already checked) left out."""
        data.pop("csrf_token", None)
        return data


class TypedNumber(fields.Float):
    """A number as people type it in a form (1,000 or 10.5)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(str(value).replace(",", "").replace(" ", ""), attr, data, **kwargs)


class _Filled:
    """The request as a page's own form sends it, its empty fields left out: on a page an empty field means "none",
    which the base (from an API client, a mistake) would refuse."""

    def __init__(self, req):
        self.args, self.form, self.mimetype = _filled(req.args), _filled(req.form), req.mimetype


def _filled(values: MultiDict) -> MultiDict:
    return MultiDict([(name, value) for name, value in values.items(multi=True) if str(value).strip()])


def asked(schema, location: str = "query", filled: bool = False) -> dict:
    """What the request's `location` ("query" or "form") holds, as `schema` (a RequestSchema) loads it; `filled`
    for a page's own form, whose empty fields mean none. 422 (ValidationFailed) naming every problem at once, each
    at the location asked ("form" or "query": a page tells its form's problems from core's, which are the body's)."""
    if location == "query":
        g.query_asked = True
    try:
        return parser.parse(schema, _Filled(request) if filled else request, location=location)
    except UnprocessableEntity as refused:
        items = validation_items(getattr(refused, "data", None))
        raise ValidationFailed([{**item, "loc": [location, *item["loc"][1:]]} for item in items]) from None


def asking_or_none(view):
    """A page's view, taking no query string unless it read one through asked(): a GET that asked nothing is
    refused (422) when its address names anything, each name said as the API says it (NoArguments). Pages only
    read on GET, so what the view made is dropped; a redirect (to sign in, say) goes on as it was."""

    @wraps(view)
    def page(*args, **kwargs):
        g.query_asked = False
        answer = current_app.make_response(view(*args, **kwargs))
        if request.method in ("GET", "HEAD") and request.args and not g.query_asked and answer.status_code < 300:
            asked(NoArguments())
        return answer

    return page
