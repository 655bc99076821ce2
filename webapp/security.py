"""What every response carries for the browser's protection, and how the cookies are set.

One after-request hook adds the headers to every answer, pages, API JSON, errors and static files alike, so that no
view can forget them. The Content-Security-Policy allows no inline script and no eval: behaviour lives in static/
files and htmx attributes (htmx's own indicator <style> is turned off in the layout, its rules are in app.css). Inline
style *attributes* are allowed, as the bars and heat maps set their widths and shades with them.
"""
from __future__ import annotations

from flask import Flask, Response, request

from core.config import Settings

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
])
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Addresses hold phone numbers and filters: never sent to another site; our own pages use them (the listener
    # page links back to the explorer view it was opened from)
    "Referrer-Policy": "same-origin",
}


def cookie_config(settings: Settings) -> dict:
    """Session and remember-me cookies out of reach of scripts and of other sites' requests; over HTTPS only when
    COOKIE_SECURE says the service is deployed behind it."""
    return {"SESSION_COOKIE_HTTPONLY": True, "SESSION_COOKIE_SAMESITE": "Lax",
            "SESSION_COOKIE_SECURE": settings.cookie_secure,
            "REMEMBER_COOKIE_HTTPONLY": True, "REMEMBER_COOKIE_SAMESITE": "Lax",
            "REMEMBER_COOKIE_SECURE": settings.cookie_secure}


def init_app(app: Flask) -> None:
    """Every response of the app gets the headers."""
    app.after_request(protect)


def protect(response: Response) -> Response:
    """The security headers; and no copy kept by the browser or a proxy of anything but static files, since pages
    and API answers hold personal data."""
    response.headers.update(HEADERS)
    if request.endpoint != "static":
        response.headers["Cache-Control"] = "no-store"
    return response
