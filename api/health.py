"""GET /health: no key; 200 when the API, the database and the vector store all answer, else 503 naming the part."""
from flask import jsonify
from flask_smorest import Blueprint

from core.errors import DatabaseUnavailable
from core.health import check_health

blp = Blueprint("health", __name__, description="Liveness of the API, the database and the vector store")


@blp.route("/health")
@blp.doc(security=[])
def health():
    """Health check"""
    report = check_health()
    if report["status"] == "ok":
        return jsonify(report)
    return jsonify(report), 503, {"Retry-After": str(DatabaseUnavailable.retry_after)}
