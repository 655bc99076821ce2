"""Logs as JSON lines, each carrying the id of the request or background job it belongs to, so that the people on
call can follow one request from the web worker that answered it into the worker that did its background part.

A request's id is the `X-Request-ID` it came with (when it is a sane token, as a load balancer sets it) or a new
one; a job queued while serving it keeps that id (core.db.queue) and the worker logs under it while it works.
"""
from __future__ import annotations

import logging
import re
import secrets
import sys
from contextvars import ContextVar

from pythonjsonlogger.json import JsonFormatter

current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
SANE = re.compile(r"[A-Za-z0-9._:-]{1,64}")
FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"


OWN = ("core", "api", "webapp", "cli", "bench", "wsgi")
"""The packages whose records the handler passes at the process's level; every other logger is a library's."""


class LibrariesQuiet(logging.Filter):
    """Lets a library's records through at `level` and above only (WARNING by default): some set their own
    logger to DEBUG when imported (bm25s does), which would fill the console with lines nobody on call reads."""

    def __init__(self, level: int = logging.WARNING):
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= self.level or record.name.split(".", 1)[0] in OWN


class RequestId(logging.Filter):
    """Gives every record the id of the request or job under way (or the one it was logged with)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = current_request_id.get()
        return True


def configure(level: int = logging.INFO, libraries: int = logging.WARNING) -> None:
    """Every log record of the process as one JSON object per line on stderr (once per process): ours from `level`,
    libraries' from `libraries`."""
    root = logging.getLogger()
    if any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(FIELDS, rename_fields={"levelname": "level", "asctime": "time"}))
    handler.addFilter(LibrariesQuiet(libraries))
    handler.addFilter(RequestId())
    root.handlers = [handler]
    root.setLevel(level)


def begin_request(given: str | None) -> str:
    """The id of the request now starting: the one it came with if sane, else a new one."""
    request_id = given if given and SANE.fullmatch(given) else secrets.token_hex(8)
    current_request_id.set(request_id)
    return request_id
