"""A remembered mapping is personal until shown otherwise (issue 48, item 3): the headers of a file exported without
its header row are a listener's row, so a mapping is found by a keyed hash of the station and its headers and keeps
its columns sealed, and the next file with those headers is still mapped as the last one was. Mappings stored plain
before still read and `encrypt` seals them; erasure deletes those whose columns name the listener."""
from __future__ import annotations

import hashlib
import io
import json

import bson
import pytest

from core import personal
from core.clock import utcnow
from core.db.connection import get_db
from core.ingest.headers import normalised
from core.ingest.jobs import start_import
from core.ingest.remembered import recall, remember, seal_plain
from core.ingest.staging import preview_staged, stage_upload
from core.privacy.encrypt import encrypt_stations
from core.privacy.erasure import erase_listener
from tests.factories import make_company

pytestmark = pytest.mark.db

NUMBER, NAME = "27829990001", "Zanele Qwertyuiop"
HEADERLESS_CSV = f"{NUMBER},{NAME},female,Soweto\n27829990002,Sipho Dlamini,male,Soweto\n".encode()
HEADERLESS = {NUMBER: "originator", NAME: "name", "female": "gender", "Soweto": "location"}
HEADED_CSV = b"Cell,Full name\n27829990003,Thabo Mokoena\n"
HEADED = {"Cell": "originator", "Full name": "name"}


@pytest.fixture
def station(app, tmp_path):
    make_company(1)
    return tmp_path


def mappings() -> list[dict]:
    return list(get_db()["import_mappings"].find())


def holds_the_listener() -> bool:
    raw = b"".join(bson.encode(doc) for doc in mappings())
    return b"9990001" in raw or b"zanele" in raw.lower()


def imported(data_dir, body: bytes, mapping: dict) -> None:
    job = start_import(1, "profiles", "export.csv", io.BytesIO(body), data_dir, wait=True, mapping=mapping)
    job.reload()
    assert job.state == "done", job.message


def mapping_step(data_dir, body: bytes = HEADERLESS_CSV) -> dict:
    """What the mapping step of the same file uploaded again shows."""
    job = stage_upload(1, "profiles", "again.csv", io.BytesIO(body), data_dir)
    return preview_staged(1, str(job.id))


def sha1_of(columns) -> str:
    """How mappings were found before: an unkeyed SHA-1 of the headers, which confirms a guess of them."""
    names = sorted(normalised(column) or column for column in columns)
    return hashlib.sha1(json.dumps(names, ensure_ascii=False).encode()).hexdigest()


def test_a_remembered_mapping_of_a_file_without_headers_holds_no_listener_plain(station):
    imported(station, HEADERLESS_CSV, HEADERLESS)
    (doc,) = mappings()
    assert not holds_the_listener() and doc["sealed"] and "pairs" not in doc
    assert doc["headers"].startswith("~") and doc["headers"] != sha1_of(HEADERLESS)


def test_the_next_file_with_the_same_headers_is_mapped_as_the_producer_confirmed(station):
    imported(station, HEADERLESS_CSV, HEADERLESS)
    step = mapping_step(station)
    assert (step["mapping"], step["mapping_source"]) == (HEADERLESS, "remembered")


def test_another_station_with_the_same_headers_finds_nothing(station):
    make_company(2)
    remember(1, "profiles", list(HEADERLESS.items()))
    assert recall(1, "profiles", list(HEADERLESS))[0] == HEADERLESS
    assert recall(2, "profiles", list(HEADERLESS)) is None


def plain_mapping() -> None:
    """A mapping as stored before sealing: its columns plain, found by the SHA-1 of its headers."""
    get_db()["import_mappings"].insert_one({
        "company_id": 1, "kind": "profiles", "headers": sha1_of(HEADERLESS), "date_order": "day_first",
        "pairs": [{"column": column, "field": name} for column, name in HEADERLESS.items()], "updated_at": utcnow()})


def test_a_mapping_stored_plain_before_still_reads(station):
    plain_mapping()
    assert mapping_step(station)["mapping_source"] == "remembered"
    assert mapping_step(station)["mapping"] == HEADERLESS


def test_encrypt_seals_a_mapping_stored_plain_before_and_it_is_still_found(station):
    plain_mapping()
    encrypt_stations()
    (doc,) = mappings()
    assert not holds_the_listener() and doc["headers"].startswith("~") and "pairs" not in doc
    step = mapping_step(station)
    assert (step["mapping"], step["mapping_source"]) == (HEADERLESS, "remembered")
    assert seal_plain(1) == 0  # resumable: nothing is sealed twice


def test_a_mapping_confirmed_again_replaces_the_one_kept_plain_before(station):
    plain_mapping()
    remember(1, "profiles", list(HEADERLESS.items()), "day_first")
    assert len(mappings()) == 1 and not holds_the_listener()


def opened(doc: dict) -> bytes:
    return personal.opened(doc["sealed"]) or b""


def test_erasure_deletes_the_remembered_mappings_whose_columns_name_the_listener_and_their_keys(station):
    imported(station, f"originator,name\n{NUMBER},{NAME}\n".encode(), {"originator": "originator", "name": "name"})
    imported(station, HEADERLESS_CSV, HEADERLESS)
    imported(station, HEADED_CSV, HEADED)
    named = next(doc for doc in mappings() if NUMBER.encode() in opened(doc))
    receipt = erase_listener(1, NUMBER, "test-secret")
    assert receipt["stores"]["import_mappings"] == 1
    assert recall(1, "profiles", list(HEADERLESS)) is None
    assert recall(1, "profiles", list(HEADED))[0] == HEADED
    assert opened(named) == b""
