"""The one place where errors are answered: JSON on API paths (api.errors), a page for the browser."""
from __future__ import annotations

import logging

from flask import Flask, current_app, jsonify, render_template, request, url_for
from flask_limiter import RateLimitExceeded
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from api import errors as api_errors
from core.db.connection import UNAVAILABLE
from core.errors import DatabaseUnavailable, DomainError
from webapp.throttle import seconds_until_retry

log = logging.getLogger(__name__)


def page_error(status: int, message: str):
    """An error page with the layout, the status and a sentence a producer can act on."""
    return render_template("errors/error.html", status=status, message=message), status


def unavailable(error: Exception | None = None):
    """503 with Retry-After when the database does not answer: JSON for the API, and for the browser a page that
    needs nothing from the database (rendered without the context processors, which would load the user)."""
    problem = error if isinstance(error, DatabaseUnavailable) else DatabaseUnavailable()
    if api_errors.is_api_request():
        response = jsonify(detail=problem.detail)
    else:
        template = current_app.jinja_env.get_template("errors/unavailable.html")
        response = current_app.make_response(template.render(
            message=problem.detail, retry=request.full_path.rstrip("?"),
            stylesheet=url_for("static", filename="css/app.css"), icon=url_for("static", filename="favicon.svg")))
    response.status_code = 503
    response.headers["Retry-After"] = str(problem.retry_after)
    return response


def too_large_message(limit: int | None) -> str:
    """What a producer or a client can do about a file over the upload limit (MAX_UPLOAD_MB)."""
    size = f"{limit / 2**20:g} MB" if limit else "the allowed size"
    return (f"The file is larger than {size}, the most one upload may carry. "
            "Split it into smaller files and upload each.")


def register(app: Flask) -> None:
    """Core errors, HTTP errors, an unreachable database and unexpected errors, each answered once for both
    sides."""

    @app.errorhandler(DomainError)
    def _domain(error: DomainError):
        if isinstance(error, DatabaseUnavailable):
            return unavailable(error)
        response = current_app.make_response(api_errors.domain_error_response(error) if api_errors.is_api_request()
                                             else page_error(error.status, error.detail))
        if getattr(error, "retry_after", None):
            response.headers["Retry-After"] = str(error.retry_after)
        return response

    for failure in UNAVAILABLE:
        app.register_error_handler(failure, unavailable)

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        if api_errors.is_api_request():
            return api_errors.http_error_response(error)
        return (*page_error(error.code or 500, error.description or error.name), api_errors.passed_on_headers(error))

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(error: RequestEntityTooLarge):
        error.description = too_large_message(current_app.config.get("MAX_CONTENT_LENGTH"))
        return _http(error)

    @app.errorhandler(RateLimitExceeded)
    def _throttled(error: RateLimitExceeded):
        error.retry_after = seconds_until_retry()  # werkzeug's 429 sends it as Retry-After, passed on by _http
        return _http(error)

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        log.exception("unhandled error")
        if api_errors.is_api_request():
            return jsonify(detail="Internal server error"), 500
        return page_error(500, "Something went wrong on our side. The error has been logged.")
