"""Station overview and filtered listener operations: /api/v1/segments/{company_id}/..."""
from flask_smorest import Blueprint

blp = Blueprint("segments", __name__, url_prefix="/api/v1/segments", description="Segments of a station")
