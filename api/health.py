"""GET /health: no key; 200 when the API, the database and the vector store all answer, else 503 naming the part.
GET /health/live (the process answers) and /health/ready (the database answers and this process holds every
station's index, loading them if need be), for a load balancer and an orchestrator; GET /metrics for Prometheus,
with the X-Admin-Key only."""
from flask import Response, request
from marshmallow import Schema, fields

from api.arguments import Blueprint
from api.errors import RETRY_AFTER
from core.access.api_keys import check_admin
from core.config import active
from core.errors import DatabaseUnavailable
from core.oncall.health import check_health, check_ready
from core.oncall.metrics import exposition


class HealthSchema(Schema):
    status = fields.Str(required=True, metadata={"enum": ["ok", "degraded"]})
    database = fields.Str(required=True, metadata={"enum": ["ok", "unreachable"]})
    vector_store = fields.Str(required=True, metadata={"enum": ["ok", "unavailable"]})
    vectors = fields.Dict(metadata={"description": "the vector store over every station: model, dim, stations, stored "
                                                   "(vectors in MongoDB), indexed_here (in this worker's FAISS "
                                                   "indexes), index_files (under DATA_DIR/vectors), last_embedded_at"})
    api = fields.Str(required=True, metadata={"enum": ["ok"]})
    version = fields.Str(required=True)
    detail = fields.Str(metadata={"description": "the failing parts, when one fails"})


blp = Blueprint("health", __name__, description="Liveness of the API, the database and the vector store")


@blp.route("/health")
@blp.doc(security=[])
@blp.alt_response(503, schema=HealthSchema, description="A part does not answer", headers={"Retry-After": RETRY_AFTER})
@blp.response(200, HealthSchema)
def health():
    """Health check"""
    report = check_health()
    if report["status"] == "ok":
        return report
    return report, 503, {"Retry-After": str(DatabaseUnavailable.retry_after)}


class LiveSchema(Schema):
    status = fields.Str(required=True, metadata={"enum": ["ok"]})


class ReadySchema(Schema):
    status = fields.Str(required=True, metadata={"enum": ["ready", "not ready"]})
    database = fields.Str(required=True, metadata={"enum": ["ok", "unreachable"]})
    stations = fields.Int(required=True, metadata={"description": "stations whose index this process holds"})
    detail = fields.Str(metadata={"description": "why it is not ready"})


@blp.route("/health/live")
@blp.doc(security=[])
@blp.response(200, LiveSchema)
def live():
    """Liveness: the process answers (whatever the database does)"""
    return {"status": "ok"}


@blp.route("/health/ready")
@blp.doc(security=[])
@blp.alt_response(503, schema=ReadySchema, description="Not ready to take requests",
                  headers={"Retry-After": RETRY_AFTER})
@blp.response(200, ReadySchema)
def ready():
    """Readiness: the database answers and this process holds every station's index"""
    report = check_ready()
    if report["status"] == "ready":
        return report
    return report, 503, {"Retry-After": str(DatabaseUnavailable.retry_after)}


def metrics() -> Response:
    """Prometheus' scrape of this host's web workers and of the database's figures (core.oncall.metrics), for the
    X-Admin-Key only; not an operation of the API, so not in its document."""
    check_admin(request.headers.get("X-Admin-Key"), active().admin_key)
    body, content_type = exposition()
    return Response(body, content_type=content_type)
