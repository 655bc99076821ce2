"""Registers the dashboard: sessions, CSRF and the page blueprints."""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Login manager, CSRF protection (the API is exempt: it authenticates by key) and every page blueprint."""
