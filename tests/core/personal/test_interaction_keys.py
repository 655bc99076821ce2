"""Interaction ids are personal until shown otherwise (issue 48): many CRMs write them with the listener's number in
them (`27780000006-49`), so an import de-duplicates by their keyed hash and never stores one as it came; a station
whose batches were stored before keys keeps de-duplicating against them until `encrypt` keys them in place."""
from __future__ import annotations

import bson
import pytest

from core.db import leases
from core.db.connection import get_db
from core.ingest.importer import import_file
from core.listeners import finding
from core.listeners.models import InteractionBatch
from core.privacy.encrypt import encrypt_stations
from tests.core.ingest.test_importer import interaction, jsonl
from tests.factories import stored_before_keys

pytestmark = pytest.mark.db

NUMBER = "27821234567"
CRM_ID = f"{NUMBER}-49"


def batches_as_stored() -> bytes:
    return b"".join(bson.encode(doc) for doc in InteractionBatch._get_collection().find())


def test_an_interaction_id_holding_the_number_is_never_stored_as_it_came(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(interaction_id=CRM_ID),
                                                           interaction(timestamp="2026-11-20T08:00:00+02:00")]))
    stored = batches_as_stored()
    assert NUMBER.encode() not in stored and NUMBER[2:].encode() not in stored
    assert b"id:" not in stored and b"row:" not in stored


def test_the_same_interaction_id_imported_again_is_a_duplicate_and_another_is_not(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(interaction_id=CRM_ID)]))
    report = import_file("interactions", jsonl(tmp_path, "b.jsonl", [
        interaction(interaction_id=CRM_ID, message="again"), interaction(interaction_id=f"{NUMBER}-50")]))
    assert (report.imported, report.duplicates) == (1, 1)


def test_batches_stored_before_keys_still_de_duplicate_and_encrypt_keys_their_ids_in_place(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(interaction_id=CRM_ID)]))
    stored_before_keys(7)
    batches = InteractionBatch._get_collection()
    batches.update_many({"company_id": 7}, {"$set": {"keys": [f"id:{CRM_ID}"]}})  # as today's main stored them
    assert NUMBER.encode() in batches_as_stored()
    report = import_file("interactions", jsonl(tmp_path, "b.jsonl", [interaction(interaction_id=CRM_ID)]))
    assert (report.imported, report.duplicates) == (0, 1)
    encrypt_stations()
    assert NUMBER.encode() not in batches_as_stored() and finding.keyed(7)
    report = import_file("interactions", jsonl(tmp_path, "c.jsonl", [interaction(interaction_id=CRM_ID)]))
    assert (report.imported, report.duplicates) == (0, 1)
    assert encrypt_stations()["already"] == [7]


def test_a_single_flight_lock_names_no_listener(app):
    with leases.single_flight(f"ai_listener_profile:7:{NUMBER}", lambda: None):
        seen = [doc["_id"] for doc in get_db()["locks"].find()]
    assert seen and not any(NUMBER in name for name in seen)
