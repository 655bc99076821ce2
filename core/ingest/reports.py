"""The bad rows of an import report, sealed: their reasons quote the values they rejected (a number, an e-mail
address), so the list is stored as one envelope under a data key of its own (core.personal.vault).

The key is named per sealing (`report:<report id>:<version>`): erasure writes a report's list again without the
listener's rows under a new key and destroys the old one, after which no copy of the old list, in the oplog or a
backup, can be read. Warnings name a field and a rule, never a value, and stay plain.
"""
from __future__ import annotations

import bson
from bson import Binary, ObjectId

from core.ingest.models import ImportReport
from core.personal.registry import Erasure, Store, declare
from core.personal.vault_connection import key_vault


def key_name(report_id: ObjectId, version: str) -> str:
    return f"report:{report_id}:{version}"


def sealed_errors(report_id: ObjectId, errors: list[dict]) -> dict:
    """The fields that store these bad rows of the report, sealed under a new key (none for none)."""
    if not errors:
        return {"sealed_errors": None, "errors_key": None}
    version = str(ObjectId())
    envelope = key_vault().seal_bytes(key_name(report_id, version), bson.encode({"e": errors}))
    return {"sealed_errors": Binary(envelope), "errors_key": version}


def opened_errors(report: dict) -> list[dict]:
    """A stored report's bad rows (report as stored: a dict); none where its key was destroyed meanwhile (an erasure
    wrote the list again, which the next read finds)."""
    if report.get("sealed_errors") is None:
        return list(report.get("errors") or [])  # stored before sealing
    opened = key_vault().unseal_bytes([bytes(report["sealed_errors"])])[0]
    return bson.decode(opened)["e"] if opened is not None else []


def rewrite(report: dict, errors: list[dict]) -> None:
    """Store the report's bad rows as `errors` under a new key, then destroy the old key."""
    ImportReport._get_collection().update_one(
        {"_id": report["_id"]}, {"$set": sealed_errors(report["_id"], errors), "$unset": {"errors": ""}})
    if report.get("errors_key"):
        key_vault().destroy([key_name(report["_id"], report["errors_key"])])


def seal_plain(company_id: int) -> int:
    """Seal the bad rows of the station's reports stored before sealing; how many reports. Resumable."""
    plain = [report for report in ImportReport._get_collection().find(
        {"company_ids": company_id, "errors": {"$exists": True}}, {"errors": 1, "errors_key": 1}) if report["errors"]]
    for report in plain:
        rewrite(report, list(report["errors"]))
    return len(plain)


def erase_listener_rows(erasure: Erasure) -> int:
    """Bad rows quote the values they rejected: drop, from every report of the station, those that name the listener
    in any spelling; how many rows."""
    touched = 0
    for report in ImportReport._get_collection().find(
            {"company_ids": erasure.company_id, "error_count": {"$gt": 0}},
            {"errors": 1, "sealed_errors": 1, "errors_key": 1}):
        errors = opened_errors(report)
        kept = [error for error in errors if not erasure.spellings.names(str(error.get("reason", "")))]
        if len(kept) != len(errors):
            rewrite(report, kept)  # under a new key: the old one, and every copy of the list, gone
            touched += len(errors) - len(kept)
    return touched


REPORTS = declare(Store("import_reports", "import_reports", erase=erase_listener_rows, migrate=seal_plain,
                        personal=("errors", "sealed_errors")))
