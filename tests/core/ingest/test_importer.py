"""What an import does with the rows it keeps (ingest.md), against the real database: bad rows reported and the rest
written, reports saved, re-imports and interaction ids idempotent, listeners created once, profiles merged, batches
per listener, the station re-segmented. The rules each row is read by are in test_row_rules.py, in memory."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from core import personal
from core.ingest import reports
from core.ingest.importer import import_file
from core.ingest.models import ImportReport
from core.listeners import sealed_messages
from core.listeners.events import CHANNEL, SLOT, TIME
from core.listeners.models import InteractionBatch, Listener
from core.stations.models import Company, Show
from tests.core.ingest.import_files import interaction, jsonl
from tests.factories import make_listener, stored_listener

pytestmark = pytest.mark.db

UTC = UTC
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def events(company_id: int = 7, originator: str = "27821234567") -> list[dict]:
    """Every stored event of one listener, as dicts, in stored order, messages opened."""
    out = []
    for batch in sealed_messages.opened(list(InteractionBatch._get_collection().find(
            {"company_id": company_id, "originator": personal.key_of(company_id, originator)}))):
        times, channels = np.frombuffer(batch["times"], TIME), np.frombuffer(batch["channels"], CHANNEL)
        slots = np.frombuffer(batch["timeslots"], SLOT)
        for i in range(batch["n"]):
            out.append({"time": EPOCH + timedelta(milliseconds=int(times[i])), "channel": int(channels[i]),
                        "campaign": batch["campaigns"][i], "timeslot": None if slots[i] < 0 else int(slots[i]),
                        "message": batch.get("messages", [None] * batch["n"])[i], "key": batch["keys"][i]})
    return out


def listener(originator: str = "27821234567", company_id: int = 7) -> Listener:
    return stored_listener(company_id, originator)


# --- every kind: bad rows, reports, files ---

def test_bad_row_is_reported_with_its_line_number_and_the_rest_is_kept(app, tmp_path):
    path = jsonl(tmp_path, "i.jsonl", [interaction(originator="27820000001"),
                                       interaction(originator="27820000002", channel_type="two"),
                                       "{not json",
                                       interaction(originator="27820000003")])
    report = import_file("interactions", path)
    assert (report.rows, report.imported, report.error_count) == (4, 2, 2)
    assert [e["line"] for e in report.errors] == [2, 3]
    assert "channel_type" in report.errors[0]["reason"]
    assert "JSON" in report.errors[1]["reason"]
    assert len(events(originator="27820000001")) == 1 and len(events(originator="27820000003")) == 1
    assert not events(originator="27820000002")


def test_import_report_is_saved_with_its_counts(app, tmp_path):
    path = jsonl(tmp_path, "i.jsonl", [interaction(), interaction(channel_type=0)])
    report = import_file("interactions", path)
    stored = ImportReport.objects.get(id=report.id)
    assert (stored.kind, stored.rows, stored.imported, stored.duplicates, stored.suppressed, stored.error_count) == \
        ("interactions", 2, 1, 0, 0, 1)
    assert stored.company_ids == [7] and stored.source == "file"  # never the path: a file may be named after anyone
    bad_rows = reports.opened_errors(ImportReport._get_collection().find_one({"_id": report.id}))
    assert bad_rows == [{"line": 2, "reason": bad_rows[0]["reason"]}] and "channel_type" in bad_rows[0]["reason"]


def test_a_file_that_is_not_text_cannot_be_read_and_nothing_is_written(app, tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"company_id,originator\n7,\x00\x01\x02\n")
    with pytest.raises(ValueError, match="not a text file"):
        import_file("profiles", str(path))
    assert Listener.objects.count() == 0


def test_progress_counts_every_row(app, tmp_path):
    seen = []  # one listener's 25,000 interactions: the rows are what progress counts, not the listeners
    rows = [interaction(interaction_id=f"i{i}") for i in range(25_000)] + ["oops"]
    report = import_file("interactions", jsonl(tmp_path, "i.jsonl", rows), progress=seen.append, resegment=False)
    assert sum(seen) == report.rows == 25_001
    assert len(seen) > 2 and all(n > 0 for n in seen)


# --- channels and shows ---

def test_channels_name_the_company_channels_and_create_the_company(app, tmp_path):
    path = jsonl(tmp_path, "c.jsonl", [{"company_id": 9, "channel_type": 2, "name": "WhatsApp Line"},
                                       {"company_id": 9, "channel_type": 8, "name": "TikTok"}])
    report = import_file("channels", path)
    company = Company.objects.get(company_id=9)
    assert report.imported == 2
    assert company.channel_names()[2] == "WhatsApp Line" and company.channel_names()[8] == "TikTok"
    assert company.data_version == 1


def test_reimporting_the_same_channels_file_changes_nothing(app, tmp_path):
    path = jsonl(tmp_path, "c.jsonl", [{"company_id": 7, "channel_type": 2, "name": "WhatsApp"}])
    import_file("channels", path)
    version = Company.objects.get(company_id=7).data_version
    again = import_file("channels", path)
    assert (again.imported, again.duplicates) == (0, 1)
    assert Company.objects.get(company_id=7).data_version == version


def test_shows_are_upserted_by_timeslot_id(app, tmp_path):
    first = {"company_id": 7, "timeslot_id": 12, "title": "Breakfast", "days": [5, 1, 1], "start": "6:00",
             "end": "09:00"}
    import_file("shows", jsonl(tmp_path, "s1.jsonl", [first]))
    report = import_file("shows", jsonl(tmp_path, "s2.jsonl", [dict(first, title="The Breakfast Club"), first | {
        "title": "The Breakfast Club"}]))
    show = Show.objects.get(company_id=7, timeslot_id=12)
    assert (show.title, show.days, show.start, show.end) == ("The Breakfast Club", [1, 5], "06:00", "09:00")
    assert Show.objects.count() == 1 and (report.imported, report.duplicates) == (1, 1)


# --- profiles ---

def test_profile_creates_the_listener(app, tmp_path):
    row = {"company_id": 7, "originator": "27821234567", "name": " Thandi M ", "gender": "Female",
           "age_group": "25-34", "language": "isiZulu", "opt_in": True}
    report = import_file("profiles", jsonl(tmp_path, "p.jsonl", [row]))
    found = listener()
    assert report.imported == 1
    assert (found.name, found.gender, found.age_group, found.language, found.opt_in) == \
        ("Thandi M", "female", "25-34", "isiZulu", True)
    assert found.tags == [] and found.inferred == {}


def test_profile_row_replaces_only_the_fields_it_carries(app, tmp_path):
    make_listener(7, "27821234567", name="Thandi M", email="thandi@example.co.za", tags=["vip"])
    import_file("profiles", jsonl(tmp_path, "p.jsonl", [
        {"company_id": 7, "originator": "27821234567", "email": "thandi.m@example.co.za", "tags": ["gqom"]}]))
    found = listener()
    assert (found.name, found.email, found.tags) == ("Thandi M", "thandi.m@example.co.za", ["gqom"])


def test_absent_or_empty_profile_field_never_clears_a_value(app, tmp_path):
    make_listener(7, "27821234567", name="Thandi M", tags=["vip"], opt_in=True)
    report = import_file("profiles", jsonl(tmp_path, "p.jsonl", [
        {"company_id": 7, "originator": "27821234567", "name": "", "tags": [], "opt_in": None}]))
    found = listener()
    assert (found.name, found.tags, found.opt_in) == ("Thandi M", ["vip"], True)
    assert (report.imported, report.duplicates) == (0, 1)


def test_a_later_profile_row_for_the_same_listener_wins(app, tmp_path):
    report = import_file("profiles", jsonl(tmp_path, "p.jsonl", [
        {"company_id": 7, "originator": "27821234567", "location": "Soweto", "language": "isiZulu"},
        {"company_id": 7, "originator": "27821234567", "location": "Durban"},
        {"company_id": 7, "originator": "27821234567", "location": "Durban"}]))
    found = listener()
    assert (found.location, found.language) == ("Durban", "isiZulu")
    assert (report.imported, report.duplicates) == (2, 1)


def test_reimporting_the_same_profiles_file_changes_nothing(app, tmp_path):
    path = jsonl(tmp_path, "p.jsonl", [{"company_id": 7, "originator": "27821234567", "name": "Thandi"},
                                       {"company_id": 7, "originator": "27827654321", "gender": "male"}])
    import_file("profiles", path)
    version = Company.objects.get(company_id=7).data_version
    again = import_file("profiles", path)
    assert (again.imported, again.duplicates) == (0, 2)
    assert Company.objects.get(company_id=7).data_version == version


# --- interactions ---

def test_reimporting_the_same_interactions_file_changes_nothing(app, tmp_path):
    path = jsonl(tmp_path, "i.jsonl", [interaction(), interaction(timestamp="2026-11-20T08:00:00+02:00"),
                                       interaction(originator="27827654321", interaction_id="evt-9")])
    first = import_file("interactions", path)
    version = Company.objects.get(company_id=7).data_version
    again = import_file("interactions", path)
    assert (first.imported, again.imported, again.duplicates) == (3, 0, 3)
    assert InteractionBatch.objects.count() == 2 and Listener.objects.count() == 2
    assert Company.objects.get(company_id=7).data_version == version


def test_interaction_id_is_the_idempotency_key(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(interaction_id="evt-1", message="Hi")]))
    report = import_file("interactions", jsonl(tmp_path, "b.jsonl", [
        interaction(interaction_id="evt-1", message="Hi again"), interaction(interaction_id="evt-2", message="Hi")]))
    assert (report.imported, report.duplicates) == (1, 1)
    assert sorted(e["message"] for e in events()) == ["Hi", "Hi"]


def test_one_interaction_batch_per_listener_per_import(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [
        interaction(timestamp=f"2026-11-20T0{h}:00:00+02:00", channel_type=h % 3 + 1) for h in range(6)]))
    batch = InteractionBatch._get_collection().find_one({"company_id": 7,
                                                         "originator": personal.key_of(7, "27821234567")})
    assert InteractionBatch.objects.count() == 1
    assert [e["channel"] for e in events()] == [1, 2, 3, 1, 2, 3] and len(batch["keys"]) == 6
    assert batch["import_id"] == str(ImportReport.objects.get().id)


def test_listener_with_more_than_2000_events_is_split_into_several_batches(app, tmp_path):
    rows = [interaction(interaction_id=f"e{i}") for i in range(2001)]
    import_file("interactions", jsonl(tmp_path, "a.jsonl", rows), resegment=False)
    sizes = sorted(len(b["keys"]) for b in InteractionBatch._get_collection().find(
        {"originator": personal.key_of(7, "27821234567")}))
    assert sizes == [1, 2000]


def test_listener_is_created_on_first_sight_and_an_existing_one_is_kept(app, tmp_path):
    make_listener(7, "27820000001", name="Sipho")
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(originator="27820000001"),
                                                            interaction(originator="27820000002")]))
    assert listener("27820000001").name == "Sipho"
    assert listener("27820000002").tags == [] and Listener.objects.count() == 2


@pytest.mark.parametrize("station_size", [0, 10**9], ids=["keys read at once", "keys looked up"])
def test_whether_existence_is_looked_up_or_read_at_once_an_import_creates_each_new_listener_once(
        app, tmp_path, monkeypatch, station_size):
    monkeypatch.setattr("core.ingest.interactions._station_size", lambda _: station_size)
    monkeypatch.setattr("core.ingest.interactions.INSERT_DOCS", 2)  # several chunks of new listeners
    monkeypatch.setattr("core.ingest.interactions.FLUSH_EVENTS", 3)  # listeners seen again after a flush
    make_listener(7, "27820000001", name="Sipho")
    numbers = [f"2782000000{i}" for i in range(1, 6)]
    rows = [interaction(originator=n, timestamp=f"2026-11-20T07:1{i}:00+02:00") for i, n in enumerate(numbers)]
    rows += [interaction(originator=n, timestamp="2026-11-20T08:00:00+02:00") for n in numbers]
    report = import_file("interactions", jsonl(tmp_path, "a.jsonl", rows))
    assert (report.listeners_new, report.listeners_updated, report.imported) == (4, 1, 10)
    assert listener("27820000001").name == "Sipho" and Listener.objects.count() == 5
    assert [len(events(originator=n)) for n in numbers] == [2] * 5
    again = import_file("interactions", jsonl(tmp_path, "a.jsonl", rows))
    assert (again.listeners_new, again.imported, again.duplicates) == (0, 0, 10) and Listener.objects.count() == 5


def test_the_same_originator_in_two_companies_is_two_listeners(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(), interaction(company_id=8)]))
    assert Listener.objects.count() == 2 and [listener(company_id=c).company_id for c in (7, 8)] == [7, 8]
    assert len(events(7)) == 1 and len(events(8)) == 1


# --- after the import ---

def test_changed_companies_get_a_new_data_version_and_one_resegment_pass(app, tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr("core.ingest.importer.resegment_listeners", lambda c, o, **kw: calls.append((c, list(o))))
    make_listener(7, "27820000009")
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [
        interaction(originator="27820000002"), interaction(originator="27820000001"),
        interaction(originator="27820000002", channel_type=1), interaction(company_id=8)]))
    assert calls == [(7, ["27820000001", "27820000002"]), (8, ["27821234567"])]
    assert Company.objects.get(company_id=7).data_version == 1
    calls.clear()
    import_file("profiles", jsonl(tmp_path, "p.jsonl", [{"company_id": 7, "originator": "27820000009",
                                                         "name": "Lerato"}]), resegment=False)
    assert calls == [] and Company.objects.get(company_id=7).data_version == 2


def test_an_import_leaves_the_touched_listeners_segmented_as_of_now(app, tmp_path):
    from datetime import datetime, timedelta

    from core.listeners import snapshot
    from core.segmentation.overview import station_summary

    recent = (datetime.now(UTC) - timedelta(days=2)).isoformat()
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [
        interaction(originator="27820000001", timestamp=recent), interaction(originator="27820000002")]))
    snap = snapshot.current(7)
    assert snap.labels("segment")[snap.row_of("27820000001")] == "new_listener"
    assert station_summary(7)["total_listeners"] == 2


def test_a_file_larger_than_memory_allows_is_written_in_parts_and_stays_idempotent(app, tmp_path, monkeypatch):
    monkeypatch.setattr("core.ingest.interactions.FLUSH_EVENTS", 3)
    rows = [interaction(timestamp=f"2026-11-20T07:1{i}:00+02:00") for i in range(5)]
    rows.insert(4, interaction(timestamp="2026-11-20T07:11:00+02:00"))  # a repeat that lands in the second part
    rows.append(interaction(originator="27820000002"))
    path = jsonl(tmp_path, "big.jsonl", rows)
    first = import_file("interactions", path)
    assert (first.imported, first.duplicates) == (6, 1)
    assert len(events()) == 5
    again = import_file("interactions", path)
    assert (again.imported, again.duplicates) == (0, 7)
