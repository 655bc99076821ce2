"""For the people on call: every request gets an id (the `X-Request-ID` it came with, or a new one) that its logs
carry (core.logs) and its answer returns, is logged by its route's pattern (never its path), and is counted with its
route, method, status and time (core.oncall.metrics)."""
from __future__ import annotations

import time

from flask import Flask, g, request

from core.logs import begin_request
from core.oncall.metrics import observe_request
from core.personal.keyed import log_subject


def init_app(app: Flask) -> None:
    """Hook the id and the count onto every request, pages and API alike."""
    app.before_request(_begin)
    app.after_request(_end)


def _begin() -> None:
    g.request_id, g.started = begin_request(request.headers.get("X-Request-ID")), time.perf_counter()
    _for_the_access_log(request.environ)


def _for_the_access_log(environ: dict) -> None:
    """What gunicorn's access log line says of the request (gunicorn.conf.py): the route's pattern and a keyed hash
    of its path and query, never the path itself, which may hold a number (`/api/v1/listeners/1/27829990001`) or a
    search's words (`?q=Zanele+Qwertyuiop`)."""
    environ["lss.route"] = request.url_rule.rule if request.url_rule else "unmatched"
    environ["lss.subject"] = log_subject(request.full_path)
    environ["lss.request_id"] = g.request_id


def _end(response):
    if "started" in g:
        route = request.url_rule.rule if request.url_rule else "unmatched"
        observe_request(route, request.method, response.status_code, time.perf_counter() - g.started)
        response.headers["X-Request-ID"] = g.request_id
    return response
