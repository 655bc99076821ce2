"""Registers the dashboard: sessions, CSRF, the layout's helpers and the page blueprints."""
from __future__ import annotations

from datetime import datetime
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from flask import Flask, current_app, make_response, redirect, render_template, request, url_for
from flask_login import LoginManager, current_user
from flask_wtf.csrf import CSRFProtect

from api.errors import is_api_request
from core.segments import LABELS, MEANINGS, SEGMENTS

login_manager = LoginManager()
csrf = CSRFProtect()

NAVIGATION = (
    ("Overview", "overview.page", "overview"),
    ("Explorer", "explorer.page", "explorer"),
    ("Search", "search.page", "search"),
    ("Audiences", "audiences.page", "audiences"),
    ("Campaigns", "campaigns.page", "campaigns"),
    ("Credits", "credits.page", "credits"),
)
"""(label, endpoint, icon) of the station pages. An area's page view is `<area>.page(company_id)`; until its blueprint
is registered the entry is shown as "soon" and is not a link, so the navigation never leads to a 404."""


AREA_OF = {"listener": "explorer"}
"""Blueprints whose pages belong to another area of the navigation (a listener is opened from the explorer)."""


def init_app(app: Flask) -> None:
    """Login manager, CSRF protection (the API is exempt: it authenticates by key) and every page blueprint."""
    from webapp import auth, overview
    from webapp import explorer, listener_pages

    login_manager.init_app(app)
    login_manager.user_loader(auth.load_user)
    login_manager.unauthorized_handler(_unauthorized)
    # CSRF is checked by our own hook rather than by default, so that every API path (any blueprint under /api/,
    # today's and tomorrow's, and /health) is exempt by the same rule that decides JSON errors.
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)
    csrf.init_app(app)
    app.before_request(_protect_pages)
    app.context_processor(_layout_context)
    app.add_template_filter(format_when, "when")
    app.add_template_filter(format_number, "number")
    app.register_blueprint(auth.bp)
    app.register_blueprint(overview.bp)
    app.register_blueprint(explorer.bp)
    app.register_blueprint(listener_pages.bp)


def render_htmx(page: str, fragment: str, **context):
    """The whole page, or only its fragment for an htmx request that is not a boosted navigation.

    A history restore (the back button after a cache miss) is sent with HX-Request too, and needs the whole page.
    """
    partial = (request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"
               and request.headers.get("HX-History-Restore-Request") != "true")
    response = make_response(render_template(fragment if partial else page, **context))
    response.vary.add("HX-Request")
    return response


def _protect_pages() -> None:
    """Every state-changing page request carries the session's CSRF token (form field or X-CSRFToken header)."""
    if current_app.config.get("WTF_CSRF_ENABLED", True) and not is_api_request():
        csrf.protect()


def _layout_context() -> dict:
    """What every template may use: the segments, the user's stations (read lazily) and the navigation."""
    from webapp.auth import stations_of

    def my_stations() -> list[dict]:
        return stations_of(current_user) if current_user.is_authenticated else []

    return {"SEGMENTS": SEGMENTS, "SEGMENT_LABELS": LABELS, "SEGMENT_MEANINGS": MEANINGS,
            "my_stations": my_stations, "navigation": navigation, "switch_url": switch_url}


def navigation(company_id: int) -> list[dict]:
    """The sidebar entries for a station: a URL for areas that exist, None for those still to come."""
    entries = []
    for label, endpoint, icon in NAVIGATION:
        exists = endpoint in current_app.view_functions
        area = endpoint.split(".")[0]
        entries.append({"label": label, "icon": icon, "active": AREA_OF.get(request.blueprint, request.blueprint) == area,
                        "url": url_for(endpoint, company_id=company_id) if exists else None})
    return entries


def switch_url(company_id: int) -> str:
    """The same page for another station when the page is a station-wide one, else that station's overview."""
    args = request.view_args or {}
    if request.endpoint and set(args) == {"company_id"}:
        return url_for(request.endpoint, company_id=company_id)
    return url_for("overview.page", company_id=company_id)


def format_when(iso: str | None, tz: str | None = None) -> str:
    """An ISO time as '20 Nov 2026, 14:00 SAST' in the station's time zone."""
    if not iso:
        return "never"
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo("UTC"))
    local = moment.astimezone(ZoneInfo(tz or "UTC"))
    return f"{local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def format_number(value) -> str:
    """Thousands separated: 12,480."""
    return f"{value or 0:,}"


def safe_next(target: str | None) -> str | None:
    """`target` when it is a path on this site (never another host), else None."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _unauthorized():
    """Browsers go to the login page; htmx requests are told to go there with HX-Redirect (a swap would be wrong)."""
    if request.headers.get("HX-Request"):
        current = urlsplit(request.headers.get("HX-Current-URL", "")).path or None
        response = make_response("", 401)
        response.headers["HX-Redirect"] = url_for("auth.login", next=safe_next(current))
        return response
    return redirect(url_for("auth.login", next=safe_next(request.full_path.rstrip("?"))))
