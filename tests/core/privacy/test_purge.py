"""Erasure reaches the disk: after the purge, a byte scan of every file under DATA_DIR finds no erased value."""
from __future__ import annotations

import json
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core import personal
from core.config import Settings, activate
from core.ingest.importer import import_file
from core.listeners import station_copies
from core.listeners.models import InteractionBatch, Listener
from core.privacy.erasure import erase_listener
from core.privacy.purge import next_purge, purge
from core.segmentation.runs import segment_company
from core.service.daily import jobs_of
from tests.memory import NOW

NUMBER = "27821234567"
WRITTEN_FORMS = (NUMBER, "+27821234567", "0821234567")
NAME, EMAIL = "Thandeka Zungu-Mahlangu", "thandeka.zm@example.org"
MESSAGE = "Please play Jerusalema for my gogo Nomvula in Umlazi"
NEEDLES = (*WRITTEN_FORMS, NAME, EMAIL, MESSAGE, "Nomvula")


def scan(root: Path) -> dict[str, list[str]]:
    """Which needles appear, byte for byte, in which files under root (every file: database, logs, records)."""
    found: dict[str, list[str]] = {}
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for needle in NEEDLES:
                if needle.encode() in data:
                    found.setdefault(needle, []).append(str(path.relative_to(root)))
    return found


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@pytest.fixture
def station(own_database, tmp_path, monkeypatch):
    """Thandeka and twenty others, with profiles, messages and a segmentation run, on a database of its own; the run
    copies the station's listeners and interactions (core.listeners.station_copies, kept here of any station), so
    that the scans read those copies too."""
    monkeypatch.setattr(station_copies, "WORTH_FROM", 0)
    files = tmp_path / "files"
    files.mkdir()
    others = [f"2782700{i:04d}" for i in range(20)]
    write_jsonl(files / "profiles.jsonl", [
        {"company_id": 1, "originator": NUMBER, "name": NAME, "email": EMAIL, "mobile_number": "082 123 4567",
         "gender": "female"},
        *({"company_id": 1, "originator": o, "name": f"Listener {o[-4:]}"} for o in others)])
    stamp = (NOW - timedelta(days=2)).isoformat()
    write_jsonl(files / "interactions.jsonl", [
        {"company_id": 1, "originator": NUMBER, "timestamp": stamp, "channel_type": 2, "campaign_type": "song_request",
         "message": MESSAGE},
        *({"company_id": 1, "originator": o, "timestamp": stamp, "channel_type": 1, "campaign_type": "poll",
           "message": "Good morning!"} for o in others)])
    import_file("profiles", files / "profiles.jsonl", resegment=False)
    import_file("interactions", files / "interactions.jsonl", resegment=False)
    (files / "profiles.jsonl").unlink()
    (files / "interactions.jsonl").unlink()
    segment_company(1, NOW)
    return own_database


@pytest.mark.db
def test_no_file_holds_a_listener_s_number_nor_their_sealed_values_only_the_key_of_the_number(station):
    key = personal.key_of(1, NUMBER)
    deadline = time.monotonic() + 15  # the storage engine writes its log a moment after the commit: wait for it
    while not any(key.encode() in path.read_bytes() for path in station.data_dir.rglob("*") if path.is_file()):
        assert time.monotonic() < deadline, "the listener's documents never reached the files"
        time.sleep(0.5)
    assert scan(station.data_dir) == {}


@pytest.mark.db
def test_after_erasure_and_the_purge_no_file_holds_any_erased_value(station):
    receipt = erase_listener(1, NUMBER, station.secret_key)
    report = purge(station)
    assert report["method"] == "rewrite" and report["guaranteed"]
    assert scan(station.data_dir) == {}
    assert datetime.fromisoformat(receipt["disk_purge_by"]) - datetime.now(UTC) <= timedelta(days=1)


@pytest.mark.db
def test_the_purge_keeps_every_live_record(station):
    erase_listener(1, NUMBER, station.secret_key)
    listeners, batches = Listener.objects.count(), InteractionBatch.objects.count()
    purge(station)
    assert (Listener.objects.count(), InteractionBatch.objects.count()) == (listeners, batches)
    assert segment_company(1, NOW).listeners == 21


@pytest.mark.db
def test_the_receipt_promises_every_copy_unreadable_and_the_next_daily_purge_when_one_is_asked_for(station):
    receipt = erase_listener(1, NUMBER, station.secret_key)
    assert receipt["disk_purge_by"] == next_purge(station).isoformat()
    assert receipt["disk_purge"].startswith("Unreadable now in every copy, the oplog and backups included")
    assert "rewritten at the next daily purge" in receipt["disk_purge"]


@pytest.mark.db
def test_without_a_daily_purge_asked_for_the_receipt_promises_no_purge_and_none_runs(station):
    settings = replace(station, daily_purge=False)
    activate(settings)
    try:
        receipt = erase_listener(1, NUMBER, station.secret_key)
    finally:
        activate(station)
    assert receipt["disk_purge_by"] is None and "purge" not in receipt["disk_purge"]
    assert "purge" not in {job.name for job in jobs_of(settings)}
    assert not Settings.from_env({}).daily_purge  # the default: erasure needs none


@pytest.mark.parametrize("now, expected", [
    (datetime(2026, 11, 23, 1, 59, tzinfo=UTC), datetime(2026, 11, 23, 2, 0, tzinfo=UTC)),
    (datetime(2026, 11, 23, 2, 0, tzinfo=UTC), datetime(2026, 11, 24, 2, 0, tzinfo=UTC)),
])
def test_the_next_purge_is_the_next_purge_time_of_day(now, expected):
    assert next_purge(Settings.from_env({"PURGE_AT": "02:00"}), now) == expected
