"""No store holds a listener's number: every store keyed by originator holds its keyed hash, every reader still
finds and names the listener by number, and `flask --app wsgi encrypt` keys what was stored before keys, resumably."""
from __future__ import annotations

from datetime import timedelta

import pytest
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument

from core.ai.profile import ai_listener_profile, spend_report
from core.audiences.store import create_audience, get_audience
from core.credits.models import CreditEntry
from core.db import quirks
from core.db.connection import get_db
from core.explore import export
from core.explore.filters import parse_filters
from core.explore.listener import get_listener
from core.listeners import finding
from core.listeners.models import InteractionBatch, Listener
from core.personal import originator_keys
from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from core.search import process_indexes
from core.segmentation.models import SegmentChange
from core.segmentation.runs import segment_company
from core.webhooks.endpoints import add_endpoint
from tests.factories import raw_listener, stored_before_keys
from tests.memory import NOW
from tests.themes import GOSPEL_THEME, of_theme, themed_station

pytestmark = pytest.mark.db

NUMBER = "27811000000"  # a gospel listener of the themed station


def every_document() -> bytes:
    """The whole database as a copy of it (a backup) holds it, GridFS chunks and job records included."""
    db, raw = get_db(), CodecOptions(document_class=RawBSONDocument)
    return b"".join(doc.raw for name in db.list_collection_names()
                    for doc in db[name].with_options(codec_options=raw).find())


def numbers_in(raw: bytes) -> set[str]:
    return {number for number in of_theme(1, "gospel") | of_theme(1, "soccer") if number[2:].encode() in raw}


@pytest.fixture
def busy_station(app):
    """The themed station with every store that names listeners written: its vectors, an audience, an AI profile
    paid for, and a later run whose moves went to a webhook endpoint."""
    themed_station(1)
    add_endpoint(1, "https://hooks.example.com/in", "a-secret-of-the-station-1",
                 ["listener.entered_segment", "listener.left_segment"], ["location"])
    create_audience(1, "Gospel fans", GOSPEL_THEME)
    ai_listener_profile(1, NUMBER)
    segment_company(1, NOW + timedelta(days=200))  # everyone has gone quiet since: they move
    return 1


def test_no_document_of_any_store_holds_a_listener_s_number_and_every_reader_names_them(busy_station):
    assert SegmentChange.objects(company_id=1).count() and InteractionBatch.objects(company_id=1).count()
    assert numbers_in(every_document()) == set()
    assert raw_listener(1, NUMBER)["originator"] == originator_keys.key_of(1, NUMBER)
    assert get_listener(1, NUMBER)["segment_history"][-1]["from"] is not None  # the move, found by its key
    audience = get_audience(1, create_audience(1, "Gospel again", GOSPEL_THEME)["audience_id"])
    assert {m["originator"] for m in audience["members"]} == of_theme(1, "gospel")
    assert NUMBER in [row["subject"] for row in spend_report(1)["usage"]]
    assert process_indexes.current_index(1).current.keys() >= of_theme(1, "gospel")


def test_a_key_is_of_its_station_and_of_the_server_secret(app, monkeypatch):
    key = originator_keys.key_of(1, NUMBER)
    assert key != originator_keys.key_of(2, NUMBER) and NUMBER not in key
    monkeypatch.setattr(originator_keys, "active", lambda: type("Settings", (), {"secret_key": "another-secret"}))
    assert originator_keys.key_of(1, NUMBER) != key  # a copy of the database alone cannot confirm a guess


def test_encrypt_keys_what_was_stored_under_plain_numbers_and_a_second_run_keys_none(busy_station):
    names = {originator_keys.key_of(1, number): number for number in of_theme(1, "gospel") | of_theme(1, "soccer")}
    stored_before_keys(1)
    for store in (Listener, InteractionBatch, SegmentChange):  # as stored before keys
        for key, number in names.items():
            store._get_collection().update_many({"company_id": 1, "originator": key}, {"$set": {"originator": number}})
    CreditEntry._get_collection().update_many({"subject": originator_keys.key_of(1, NUMBER)},
                                              {"$set": {"subject": NUMBER}})
    assert NUMBER in numbers_in(every_document())
    assert get_listener(1, NUMBER)["declared"]["location"] == "Soweto"  # read in either form meanwhile
    assert not finding.keyed(1)
    encrypt_stations()
    assert numbers_in(every_document()) == set() and finding.keyed(1)  # readers look for keys alone
    assert get_listener(1, NUMBER)["declared"]["location"] == "Soweto"
    assert encrypt_stations()["already"] == [1]  # nothing left to key: resumable, and idempotent


def test_a_station_stored_before_keys_exports_whole_and_its_plain_numbers_count_in_range_decisions(
        busy_station, monkeypatch):
    numbers = of_theme(1, "gospel") | of_theme(1, "soccer")
    stored_before_keys(1)
    for number in numbers:
        Listener._get_collection().update_one({"company_id": 1, "originator": originator_keys.key_of(1, number)},
                                              {"$set": {"originator": number}})
    population = set(finding.station_keys(1).tolist())
    assert {n.encode() for n in numbers} <= population  # else they would look dense in key order: one range
    assert {originator_keys.key_of(1, n).encode() for n in numbers} <= population
    monkeypatch.setattr(quirks, "RANGE_ABOVE", 1)
    monkeypatch.setattr(export, "ORDER_CHUNK", 3)
    exported = {r["originator"]: r["location"] for r in export.export_records(1, parse_filters({}))}
    assert exported.keys() >= numbers and exported[NUMBER] == "Soweto"


def test_an_erased_listener_s_key_names_nothing_afterwards(busy_station):
    key = originator_keys.key_of(1, NUMBER)
    erase_listener(1, NUMBER, "test-secret")
    raw = every_document()
    assert key.encode() not in raw and NUMBER[2:].encode() not in raw
