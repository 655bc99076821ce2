"""Erasure (docs/decisions.md §7): nothing personal left anywhere, behaviour kept under a pseudonym."""
from __future__ import annotations

import json

import gridfs
import pytest
from bson import ObjectId, json_util

from core import personal
from core.db.connection import get_db
from core.errors import ListenerNotFound
from core.listeners import snapshot, snapshot_files
from core.listeners.suppression import SuppressionList
from core.privacy.erasure import erase_listener
from core.privacy.models import AuditEntry
from core.segmentation.runs import segment_company
from tests.factories import JSON, make_listener, raw_listener, stored_listener
from tests.memory import NOW, event

pytestmark = pytest.mark.db

SECRET = "test-secret"
PERSON = {"name": "Nomvula Dlamini", "email": "nomvula.d@example.org", "mobile_number": "+27829876543",
          "id_number": "8505050123086"}
ORIGINATOR = "27829876543"


def everything_stored() -> bytes:
    """Every document of every collection (GridFS chunks included), as lower-cased bytes."""
    db, dump = get_db(), []
    for name in db.list_collection_names():
        for doc in db[name].find():
            dump.append(json_util.dumps(doc, json_options=JSON).encode())
            if "data" in doc and isinstance(doc["data"], bytes):
                dump.append(doc["data"])
    return b"\n".join(dump).lower()


def personal_traces(blob: bytes) -> list[str]:
    needles = [*PERSON.values(), ORIGINATOR, "nomvula", "dlamini"]
    return [n for n in needles if n.lower().encode() in blob]


@pytest.fixture
def person(app):
    make_listener(1, ORIGINATOR, [event(1, channel=2, message="Nomvula here, play my song!"), event(5, channel=1),
                                  event(9, campaign="competition")], tags=["gospel"], gender="female",
                  age_group="35-44", language="isiZulu", location="Durban", **PERSON)
    make_listener(1, "27820000001", [event(2)], name="Someone Else")
    segment_company(1, NOW)
    return ORIGINATOR


def test_nothing_personal_is_stored_plain_even_before_erasure_only_the_key_of_the_number(person):
    stored = everything_stored()
    assert personal_traces(stored) == [] and personal.key_of(1, person).encode() in stored


def test_after_erasure_not_even_the_key_of_the_number_is_left(person):
    erase_listener(1, person, SECRET)
    stored = everything_stored()
    assert personal_traces(stored) == [] and personal.key_of(1, person).encode() not in stored


def test_a_backup_of_the_snapshot_taken_before_erasure_reads_nothing_afterwards(person):
    """The listener's row is in the snapshot file and its copies; erasure publishes a file without it and destroys
    the key the older one was sealed under."""
    files = get_db()[f"{snapshot_files.BUCKET}.files"]
    bucket = gridfs.GridFSBucket(get_db(), snapshot_files.BUCKET)
    backup = [(bucket.open_download_stream(f["_id"]).read(), f["metadata"]) for f in files.find()]
    assert [snapshot_files.read(data, metadata).row_of(person) is not None for data, metadata in backup] == [True]
    erase_listener(1, person, SECRET)
    for data, metadata in backup:
        with pytest.raises(LookupError):
            snapshot_files.read(data, metadata)
    assert snapshot.current(1).row_of("27820000001") is not None


def test_behaviour_is_kept_under_a_pseudonym(person):
    segment_before = snapshot.current(1).labels("segment")[snapshot.current(1).row_of(person)]
    receipt = erase_listener(1, person, SECRET)
    snap = snapshot.current(1)
    row = snap.row_of(receipt["pseudonym"])
    assert row is not None and snap.row_of(person) is None
    assert int(snap.cols["n_total"][row]) == 3
    assert snap.labels("segment")[row] == segment_before


def test_erased_listener_leaves_the_filter_results_and_the_overview_counts_at_once(person):
    """The overview and the explorer agree after an erasure (issue 9): neither counts the erased listener."""
    from core.explore.filters import parse_filters
    from core.segmentation.overview import station_summary

    assert station_summary(1)["total_listeners"] == 2
    erase_listener(1, person, SECRET)
    assert parse_filters({}).mask(snapshot.current(1)).sum() == 1
    assert station_summary(1)["total_listeners"] == 1


def test_receipt_names_each_store_and_the_audit_holds_no_personal_data(person):
    receipt = erase_listener(1, person, SECRET, actor="api:test")
    assert receipt["stores"]["listeners"] == 1 and receipt["stores"]["interactions"] == 3
    entry = AuditEntry.objects(company_id=1, action="listener.erased").get()
    assert personal_traces(json_util.dumps(entry.to_mongo()).lower().encode()) == []


def test_second_erasure_is_not_found(person):
    erase_listener(1, person, SECRET)
    with pytest.raises(ListenerNotFound):
        erase_listener(1, person, SECRET)


def test_pseudonym_depends_on_the_server_secret(person):
    alias = erase_listener(1, person, SECRET)["pseudonym"]
    assert alias != erase_listener(1, "27820000001", "another-secret")["pseudonym"]
    assert person not in alias


def test_suppress_puts_a_keyed_hash_of_the_number_on_the_list(person):
    erase_listener(1, person, SECRET, suppress=True)
    assert SuppressionList(SECRET).blocks(1, "+27 82 987 6543")
    assert not SuppressionList("other-secret").blocks(1, person)
    assert not SuppressionList(SECRET).blocks(2, person)


def test_without_suppress_the_number_is_not_listed(person):
    erase_listener(1, person, SECRET)
    assert not SuppressionList(SECRET).blocks(1, person)
    assert raw_listener(1, person) is None


def test_import_warning_reasons_never_quote_personal_values(app, tmp_path):
    from core.ingest.importer import import_file

    bad = tmp_path / "profiles.jsonl"
    bad.write_text('{"company_id": 1, "originator": "27820000001", "email": "nomvula.d@example"}\n'
                   '{"company_id": 1, "originator": "27820000001", "mobile_number": "+278298765439"}\n')
    report = import_file("profiles", bad)
    assert (report.error_count, report.warning_count) == (0, 2)
    assert personal_traces(everything_stored()) == []


@pytest.mark.parametrize("stored_as", ["sealed", "plain, before sealing"])
def test_bad_row_reasons_quoting_the_person_are_dropped_from_import_reports_and_every_copy(person, stored_as):
    from core.ingest import reports
    from core.ingest.models import ImportReport

    report_id, bad_rows = ObjectId(), [{"line": 3, "reason": f"name is too long, got '{PERSON['name']}'"},
                                       {"line": 4, "reason": "missing originator"}]
    stored = reports.sealed_errors(report_id, bad_rows) if stored_as == "sealed" else {"errors": bad_rows}
    ImportReport(id=report_id, company_ids=[1], kind="profiles", error_count=2, **stored).save()
    backup = ImportReport._get_collection().find_one()
    receipt = erase_listener(1, person, SECRET)
    assert receipt["stores"]["import_reports"] == 1
    assert personal_traces(everything_stored()) == []
    assert reports.opened_errors(ImportReport._get_collection().find_one()) == [bad_rows[1]]
    assert reports.opened_errors(backup) == ([] if stored_as == "sealed" else bad_rows)  # a plain copy stays plain


def test_a_suppressed_number_is_dropped_at_import_and_counted(person, tmp_path):
    from core.config import Settings, activate, active
    from core.ingest.importer import import_file

    previous = active()
    activate(Settings(secret_key=SECRET))
    try:
        erase_listener(1, person, SECRET, suppress=True)
        later = tmp_path / "later.jsonl"
        later.write_text('{"company_id": 1, "originator": "0829876543", "timestamp": "2026-11-21T08:00:00+02:00",'
                         ' "channel_type": 2, "campaign_type": "poll"}\n'
                         '{"company_id": 1, "originator": "27820000009", "timestamp": "2026-11-21T08:00:00+02:00",'
                         ' "channel_type": 2, "campaign_type": "poll"}\n')
        report = import_file("interactions", later)
    finally:
        activate(previous)
    assert (report.suppressed, report.imported) == (1, 1)
    assert raw_listener(1, "0829876543") is None


SUPPRESSED_FORMS = [{"originator": ORIGINATOR}, {"originator": "+27829876543"}, {"originator": "0829876543"},
                    {"originator": "newcomer", "mobile_number": "+27829876543"},
                    {"originator": "newcomer", "mobile_number": "082 987 6543"}]
"""The erased number as a profiles row may write it: as the originator or the mobile number, E.164 or national."""


def profiles_file(tmp_path, *rows: dict) -> str:
    path = tmp_path / "profiles.jsonl"
    path.write_text("".join(json.dumps({"company_id": 1, **row}) + "\n" for row in rows))
    return str(path)


@pytest.mark.parametrize("fields", SUPPRESSED_FORMS)
def test_a_profiles_import_never_recreates_a_suppressed_number_and_counts_it(person, tmp_path, fields):
    from core.ingest.importer import import_file

    erase_listener(1, person, SECRET, suppress=True)
    report = import_file("profiles", profiles_file(tmp_path, {"name": "Nomvula D", **fields}, {**fields},
                                                   {"originator": "27820000009", "name": "Someone New"}))
    assert (report.rows, report.imported, report.duplicates, report.suppressed, report.error_count) == (3, 1, 0, 2, 0)
    assert raw_listener(1, fields["originator"]) is None
    assert stored_listener(1, "27820000009").name == "Someone New"
    assert personal_traces(everything_stored()) == []


def test_without_suppress_a_profiles_import_may_bring_the_number_back(person, tmp_path):
    from core.ingest.importer import import_file

    erase_listener(1, person, SECRET)
    report = import_file("profiles", profiles_file(tmp_path, {"originator": person, "name": "Nomvula D"}))
    assert (report.imported, report.suppressed) == (1, 0)
    assert stored_listener(1, person).name == "Nomvula D"


def test_without_suppress_a_new_interaction_starts_a_new_listener(person, tmp_path):
    from core.ingest.importer import import_file

    erase_listener(1, person, SECRET)
    later = tmp_path / "later.jsonl"
    later.write_text(json.dumps({"company_id": 1, "originator": person, "timestamp": "2026-11-21T08:00:00+02:00",
                                 "channel_type": 2, "campaign_type": "poll"}) + "\n")
    assert import_file("interactions", later).imported == 1
    listener = stored_listener(1, person)
    assert listener.name is None
