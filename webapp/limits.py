"""How long a request line may be, for pages and API alike: long enough for a filter with many values, and answered
as every other error is (JSON with `detail` for the API, a page for the browser) rather than by the server in HTML.

gunicorn would refuse lines over 4,094 bytes with its own HTML 414; gunicorn.conf.py lifts its limit (0) so that
this check, which knows how to answer, decides. SERVED_LIMIT stays under what any server in front reads (werkzeug's
and Python's http.server stop at 65,536).
"""
from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import RequestURITooLarge

MAX_REQUEST_LINE = 32_768
"""Bytes of `METHOD /path?query HTTP/1.1`: room for about 1,500 filter values."""


def init_app(app: Flask) -> None:
    """The check runs before anything else a request does (registered first: the key check, the parameter checks
    come after it)."""
    app.before_request(refuse_long_request_line)


def refuse_long_request_line() -> None:
    """414 when the request line is longer than MAX_REQUEST_LINE."""
    target = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or request.full_path
    if len(request.method) + len(target.encode()) + len(" HTTP/1.1") + 1 > MAX_REQUEST_LINE:
        raise RequestURITooLarge(too_long_message())


def too_long_message() -> str:
    """What a producer or a client can do about an address over the limit."""
    return (f"The address is longer than {MAX_REQUEST_LINE:,} bytes, the most a request line may carry. Give fewer "
            "filter values, or split the question into several requests.")
