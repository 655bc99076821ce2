"""The one place where errors are answered: JSON on API paths (api.errors), a page for the browser."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template
from werkzeug.exceptions import HTTPException

from api import errors as api_errors
from core.errors import DomainError

log = logging.getLogger(__name__)


def page_error(status: int, message: str):
    """An error page with the layout, the status and a sentence a producer can act on."""
    return render_template("errors/error.html", status=status, message=message), status


def register(app: Flask) -> None:
    """Core errors, HTTP errors and unexpected errors, each answered once for both sides."""

    @app.errorhandler(DomainError)
    def _domain(error: DomainError):
        if api_errors.is_api_request():
            return api_errors.domain_error_response(error)
        return page_error(error.status, error.detail)

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        if api_errors.is_api_request():
            return api_errors.http_error_response(error)
        return page_error(error.code or 500, error.description or error.name)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        log.exception("unhandled error")
        if api_errors.is_api_request():
            return jsonify(detail="Internal server error"), 500
        return page_error(500, "Something went wrong on our side. The error has been logged.")
