"""GET /health: no key; 200 when the API, the database and the vector store all answer, else 503 naming the part."""
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from api.errors import RETRY_AFTER
from core.errors import DatabaseUnavailable
from core.health import check_health


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
