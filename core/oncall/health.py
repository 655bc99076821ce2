"""What /health reports: each part's state in words an operator on call can act on."""
from __future__ import annotations

from core.db import connection
from core.search import process_indexes, vector_store, vectors

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


def check_ready() -> dict:
    """{"status": "ready"|"not ready", "database", "stations"}: ready once the database answers and this process
    holds every station's index, loaded now when it did not (so a new worker warms up before it takes requests)."""
    if not connection.ping():
        return {"status": "not ready", "database": "unreachable", "stations": 0,
                "detail": "The database does not answer."}
    try:
        loaded = process_indexes.load_every_index()
    except connection.UNAVAILABLE:
        return {"status": "not ready", "database": "unreachable", "stations": 0,
                "detail": "The database stopped answering while the indexes loaded."}
    return {"status": "ready", "database": "ok", "stations": loaded}
