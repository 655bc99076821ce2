"""App factory: the producer dashboard (pages) and the REST API, both thin over core."""
from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

import api
import cli
from core import logs
from core.config import Settings
from core.service import startup
from webapp import errors, limits, observability, pages, security


def create_app(test_config: dict | None = None, start: bool = True) -> Flask:
    """Build the app; connections and indexes are made once here and kept in app.extensions (`start=False`: by the
    first CLI command that runs, so that `flask --app wsgi ... --help` needs neither a master key nor a database)."""
    app = Flask(__name__)
    # No path is rewritten by a redirect (werkzeug's is an HTML 308, sent before any check): a doubled slash, or one
    # from a %2F in an id, matches nothing and is answered 404 like any unknown path; a trailing slash is optional.
    app.url_map.merge_slashes = app.url_map.strict_slashes = False
    settings = Settings.from_env((test_config or {}).get("ENV"))
    app.config.update(SECRET_KEY=settings.secret_key, SETTINGS=settings, WTF_CSRF_TIME_LIMIT=None,
                      MAX_CONTENT_LENGTH=settings.max_upload_mb * 2**20,
                      **security.cookie_config(settings))
    if test_config:
        app.config.update({k: v for k, v in test_config.items() if k != "ENV"})
    logs.configure()
    if settings.trusted_proxies:  # the client's address and scheme as the proxies in front say them
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies, x_proto=settings.trusted_proxies)
    if start:
        app.extensions["db"] = startup.start(app.config["SETTINGS"])

    observability.init_app(app)  # first: every later hook's refusal is counted and carries the request id
    limits.init_app(app)
    api.init_app(app)
    pages.init_app(app)
    cli.init_app(app)
    errors.register(app)
    security.init_app(app)
    return app
