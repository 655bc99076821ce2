"""The browsable API docs at /api/v1/docs: Swagger UI from the vendored files, started by a static script.

flask-smorest's own Swagger UI page starts it with an inline script, which the Content-Security-Policy refuses
(webapp.security), so that page is not registered and this one serves the same document.
"""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for

blp = Blueprint("docs", __name__, url_prefix="/api/v1", template_folder="templates")


@blp.get("/docs")
def swagger_ui():
    """Swagger UI over the OpenAPI document."""
    return render_template("api_docs.html", title=current_app.config["API_TITLE"],
                           spec_url=url_for("api-docs.openapi_json"))
