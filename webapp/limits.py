"""What the server refuses before the app reads a request, and how the app answers it: the bounds of a request line
and of its headers, and the sentence for each refusal, answered as every other error is (JSON with `detail` for the
API, a page for the browser) rather than by the server in HTML.

The server (webapp.server, gunicorn's worker) keeps the bounds, because only the server can keep them cheaply; for a
request it refused it asks the app for the answer with a request of the same path that carries the refusal's status
under REFUSED, which the app raises before anything else (registered first: the key check, the parameter checks come
after it).
"""
from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import default_exceptions

MAX_REQUEST_LINE = 32_768
"""Bytes of `METHOD /path?query HTTP/1.1`: room for about 1,500 filter values."""
MAX_HEADER = 8_190
"""Bytes of one header line, gunicorn's own bound (limit_request_field_size); 100 headers at most."""
REFUSED = "lss.refused"
"""The WSGI environ key under which the server hands the app the status of a request it refused."""


def init_app(app: Flask) -> None:
    """The refusal is raised before anything else a request does."""
    app.before_request(answer_refusal)


def answer_refusal() -> None:
    """Raise the refusal the server handed over, with a sentence saying what to do about it."""
    status = request.environ.get(REFUSED)
    if status is not None:
        raise default_exceptions[status](_SAID.get(status, "The request could not be read as HTTP."))


def too_long_message() -> str:
    """What a producer or a client can do about an address over the limit."""
    return (f"The address is longer than {MAX_REQUEST_LINE:,} bytes, the most a request line may carry. Give fewer "
            "filter values, or split the question into several requests.")


_SAID = {
    414: too_long_message(),
    431: f"The request's headers are too large: at most 100 headers of {MAX_HEADER:,} bytes each. Send fewer or "
         "shorter headers (a browser's cookies for this site can be cleared).",
}
