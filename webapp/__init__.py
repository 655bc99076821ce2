"""App factory: the producer dashboard (pages) and the REST API, both thin over core."""
from __future__ import annotations

import logging

from flask import Flask

from core import config, database
from core.config import Settings


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; connections and indexes are made once here and kept in app.extensions."""
    app = Flask(__name__)
    settings = Settings.from_env((test_config or {}).get("ENV"))
    app.config.update(SECRET_KEY=settings.secret_key, SETTINGS=settings,
                      WTF_CSRF_TIME_LIMIT=None, SESSION_COOKIE_SAMESITE="Lax")
    if test_config:
        app.config.update({k: v for k, v in test_config.items() if k != "ENV"})
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config.activate(app.config["SETTINGS"])
    app.extensions["db"] = database.connect(app.config["SETTINGS"])

    import api
    from webapp import cli, errors, pages

    api.init_app(app)
    pages.init_app(app)
    cli.init_app(app)
    errors.register(app)
    return app
