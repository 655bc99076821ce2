"""For the people on call: every request gets an id (the `X-Request-ID` it came with, or a new one) that its logs
carry (core.logs) and its answer returns, and is counted with its route, method, status and time (core.metrics)."""
from __future__ import annotations

import time

from flask import Flask, g, request

from core.logs import begin_request
from core.metrics import observe_request


def init_app(app: Flask) -> None:
    """Hook the id and the count onto every request, pages and API alike."""
    app.before_request(_begin)
    app.after_request(_end)


def _begin() -> None:
    g.request_id, g.started = begin_request(request.headers.get("X-Request-ID")), time.perf_counter()


def _end(response):
    if "started" in g:
        route = request.url_rule.rule if request.url_rule else "unmatched"
        observe_request(route, request.method, response.status_code, time.perf_counter() - g.started)
        response.headers["X-Request-ID"] = g.request_id
    return response
