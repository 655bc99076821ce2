"""What /health reports: each part's state in words an operator on call can act on."""
from __future__ import annotations

from core.db import connection
from core.search import vector_store, vectors

CONTRACT_VERSION = "2.0.0"
"""The version of the API contract this service implements (what /health reports and the OpenAPI document says)."""


def check_health() -> dict:
    """{"status": "ok"|"degraded", "database": ..., "vector_store": ..., "version": ...}."""
    parts = {
        "database": "ok" if connection.ping() else "unreachable",
        "vector_store": "ok" if vector_store.ping() else "unavailable",
    }
    details = {}
    if parts["database"] == "ok" and parts["vector_store"] == "ok":
        try:
            details["vectors"] = vectors.status()
        except Exception:  # noqa: BLE001 - a model that cannot load is a failing part, said as such
            parts["vector_store"] = "unavailable"
    failing = [name for name, state in parts.items() if state != "ok"]
    report = {"status": "degraded" if failing else "ok", **parts, **details, "api": "ok", "version": CONTRACT_VERSION}
    if failing:
        report["detail"] = "Failing: " + ", ".join(failing)
    return report
