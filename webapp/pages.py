"""Registers the dashboard: sessions, CSRF, the throttle of failed sign-ins, the layout's helpers and the page
blueprints."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, current_app, make_response, redirect, request, url_for
from flask_login import LoginManager
from flask_wtf.csrf import CSRFProtect

from api.errors import is_api_request
from core.credits.charges import pause_of
from core.segmentation.insights import being
from core.text.wording import agree, heard, number, plural, time_left
from webapp import (
    ai,
    alerts,
    audiences,
    auth,
    briefs,
    campaign_results,
    campaigns,
    credits,
    explore,
    glossary,
    imports,
    listener,
    overview,
    plans,
    search,
    segment,
    tags,
    throttle,
    webhooks,
)
from webapp.asking import asking_or_none
from webapp.helpers import credits_text, date_span, format_when, layout_context, safe_next
from webapp.labels import tag_label

AREAS = (auth, overview, explore, listener, glossary, imports, segment, search, ai, credits, audiences,
         campaign_results, briefs, plans, campaigns, tags, alerts, webhooks)
PAGES = {area.bp.name for area in AREAS}
login_manager = LoginManager()
csrf = CSRFProtect()


def init_app(app: Flask) -> None:
    """Login manager, CSRF protection (the API is exempt: it authenticates by key), the sign-in throttle and every
    page blueprint."""
    login_manager.init_app(app)
    login_manager.user_loader(auth.load_user)
    login_manager.unauthorized_handler(_unauthorized)
    # CSRF is checked by our own hook rather than by default, so that every API path (any blueprint under /api/,
    # today's and tomorrow's, and /health) is exempt by the same rule that decides JSON errors.
    app.config.setdefault("WTF_CSRF_CHECK_DEFAULT", False)
    csrf.init_app(app)
    app.before_request(_protect_pages)
    throttle.limiter.init_app(app)
    app.context_processor(layout_context)
    app.add_template_filter(format_when, "when")
    app.add_template_filter(number, "number")  # 12,480; 2.5
    app.add_template_filter(plural, "plural")  # {{ n | plural("listener") }}: "1 listener", "12,480 listeners"
    app.add_template_filter(agree, "agree")  # {{ n | agree("has") }}: the word that goes with n ("has", "have")
    app.add_template_filter(being, "being")  # {{ key | being(1) }}: "a super fan", "at risk"
    app.add_template_filter(heard, "heard")  # {{ iso | heard(tz) }}: "today", "yesterday", by the station's calendar
    app.add_template_filter(time_left, "time_left")  # {{ 200 | time_left }}: "4 minutes"
    app.add_template_filter(tag_label, "tag_label")  # {{ "music_lover" | tag_label }}: "Music lover"
    app.add_template_filter(date_span, "day_span")  # {{ start | day_span(end) }}: "20 Nov 2026 to 30 Nov 2026"
    app.add_template_filter(credits_text, "credits")  # {{ 0.25 | credits }}: "0.25 credits"
    app.add_template_global(pause_of, "ai_pause")  # {{ ai_pause(company_id) }}: why paid buttons are off, or None
    for area in AREAS:
        app.register_blueprint(area.bp)
    for endpoint, view in list(app.view_functions.items()):
        if endpoint.partition(".")[0] in PAGES:  # every page blueprint's view: the one place pages refuse a query
            app.view_functions[endpoint] = asking_or_none(view)
    app.add_url_rule("/favicon.ico", "favicon", favicon)


def favicon():
    """The icon of the layout also where browsers look for it by themselves, so that none gets a 404."""
    return current_app.send_static_file("favicon.svg")


def _protect_pages() -> None:
    """Every state-changing page request carries the session's CSRF token (form field or X-CSRFToken header)."""
    if current_app.config.get("WTF_CSRF_ENABLED", True) and not is_api_request():
        csrf.protect()


def _unauthorized():
    """Browsers go to the login page; htmx requests are told to go there with HX-Redirect (a swap would be wrong)."""
    if request.headers.get("HX-Request"):
        current = urlsplit(request.headers.get("HX-Current-URL", "")).path or None
        response = make_response("", 401)
        response.headers["HX-Redirect"] = url_for("auth.login", next=safe_next(current))
        return response
    return redirect(url_for("auth.login", next=safe_next(request.full_path.rstrip("?"))))
