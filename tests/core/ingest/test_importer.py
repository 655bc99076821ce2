"""Ingest rules (ingest.md), each against the real database."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from core import personal
from core.errors import ValidationFailed
from core.ingest import reports
from core.ingest.files import read_rows
from core.ingest.importer import import_file, import_rows
from core.ingest.models import ImportReport
from core.listeners import sealed_messages
from core.listeners.events import CHANNEL, SLOT, TIME
from core.listeners.models import InteractionBatch, Listener
from core.stations.models import Company, Show
from tests.factories import make_company, make_listener, stored_listener, stored_listeners

pytestmark = pytest.mark.db

UTC = UTC
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def jsonl(tmp_path, name: str, rows: list) -> str:
    """A JSONL file of the rows (strings are written as they are, to make bad lines)."""
    path = tmp_path / name
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return str(path)


def csv_file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def interaction(**overrides) -> dict:
    row = {"company_id": 7, "originator": "27821234567", "timestamp": "2026-11-20T07:15:00+02:00",
           "channel_type": 2, "campaign_type": "song_request"}
    row.update(overrides)
    return {k: v for k, v in row.items() if v is not None}


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


def test_lines_that_are_not_json_objects_or_not_utf8_are_bad_rows(app, tmp_path):
    path = tmp_path / "i.jsonl"
    path.write_bytes(b'[1, 2]\n"text"\n\xff\xfe bad bytes\n\n' + json.dumps(interaction()).encode() + b"\n")
    report = import_file("interactions", str(path))
    assert [e["line"] for e in report.errors] == [1, 2, 3]
    assert report.rows == 4 and report.imported == 1  # the blank line 4 is not a row


def test_import_report_is_saved_with_its_counts(app, tmp_path):
    path = jsonl(tmp_path, "i.jsonl", [interaction(), interaction(channel_type=0)])
    report = import_file("interactions", path)
    stored = ImportReport.objects.get(id=report.id)
    assert (stored.kind, stored.rows, stored.imported, stored.duplicates, stored.suppressed, stored.error_count) == \
        ("interactions", 2, 1, 0, 0, 1)
    assert stored.company_ids == [7] and stored.source == "file"  # never the path: a file may be named after anyone
    bad_rows = reports.opened_errors(ImportReport._get_collection().find_one({"_id": report.id}))
    assert bad_rows == [{"line": 2, "reason": bad_rows[0]["reason"]}] and "channel_type" in bad_rows[0]["reason"]


def test_only_the_first_1000_bad_rows_are_kept_but_all_are_counted(app, tmp_path):
    rows = [(line, "broken") for line in range(1, 1202)]
    report = import_rows("interactions", rows)
    assert report.error_count == 1201 and len(report.errors) == 1000
    assert report.errors[-1]["line"] == 1000


def test_unknown_fields_are_ignored(app, tmp_path):
    path = jsonl(tmp_path, "i.jsonl", [interaction(station_name="Jozi FM", extra={"a": 1})])
    report = import_file("interactions", path)
    assert report.imported == 1 and report.error_count == 0


def test_unknown_kind_is_refused(app, tmp_path):
    with pytest.raises(ValidationFailed):
        import_file("listeners", jsonl(tmp_path, "x.jsonl", [interaction()]))


@pytest.mark.parametrize("name", ["missing.jsonl", "rows.txt"])
def test_a_file_that_cannot_be_read_raises_value_error(app, tmp_path, name):
    if name.endswith(".txt"):
        (tmp_path / name).write_text("{}\n")
    with pytest.raises(ValueError):
        import_file("interactions", str(tmp_path / name))


def test_a_csv_byte_that_is_not_utf8_is_read_as_windows_1252(app, tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"company_id,originator,name\n7,27820000001,Thandi\n7,27820000002,Ren\xe9e\n")
    assert import_file("profiles", str(path)).imported == 2
    assert listener("27820000002").name == "Renée"


def test_a_file_that_is_not_text_cannot_be_read_and_nothing_is_written(app, tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"company_id,originator\n7,\x00\x01\x02\n")
    with pytest.raises(ValueError, match="not a text file"):
        import_file("profiles", str(path))
    assert Listener.objects.count() == 0


def test_integers_may_be_numeric_strings(app, tmp_path):
    path = jsonl(tmp_path, "i.jsonl", [interaction(company_id="7", channel_type=" 3 ")])
    assert import_file("interactions", path).imported == 1
    assert events()[0]["channel"] == 3


def test_progress_counts_every_row(app, tmp_path):
    seen = []  # one listener's 25,000 interactions: the rows are what progress counts, not the listeners
    rows = [interaction(interaction_id=f"i{i}") for i in range(25_000)] + ["oops"]
    report = import_file("interactions", jsonl(tmp_path, "i.jsonl", rows), progress=seen.append, resegment=False)
    assert sum(seen) == report.rows == 25_001
    assert len(seen) > 2 and all(n > 0 for n in seen)


# --- CSV and JSONL conventions ---

def test_csv_header_is_line_1_and_the_first_row_is_line_2(app, tmp_path):
    path = csv_file(tmp_path, "i.csv", "company_id,originator,timestamp,channel_type,campaign_type\n"
                                       "7,27821234567,2026-11-20T07:15:00+02:00,x,poll\n"
                                       "7,27821234567,2026-11-20T07:16:00+02:00,2,poll\n")
    report = import_file("interactions", path)
    assert report.errors[0]["line"] == 2 and report.imported == 1


def test_csv_lists_and_booleans(app, tmp_path):
    path = csv_file(tmp_path, "p.csv", "company_id,originator,tags,opt_in,permission\n"
                                       "7,27821234567,gqom lover| competitions ,true,false\n")
    import_file("profiles", path)
    found = listener()
    assert found.tags == ["gqom lover", "competitions"]
    assert found.opt_in is True and found.permission is False
    shows = csv_file(tmp_path, "s.csv", "company_id,timeslot_id,title,days,start,end\n"
                                        "7,12,The Breakfast Club,1|2|3|4|5,06:00,09:00\n")
    import_file("shows", shows)
    assert Show.objects.get(company_id=7, timeslot_id=12).days == [1, 2, 3, 4, 5]


def test_csv_empty_cell_is_an_absent_field(app, tmp_path):
    make_listener(7, "27821234567", name="Thandi M", language="isiZulu")
    path = csv_file(tmp_path, "p.csv", "company_id,originator,name,language,gender\n7,27821234567,,,female\n")
    import_file("profiles", path)
    found = listener()
    assert (found.name, found.language, found.gender) == ("Thandi M", "isiZulu", "female")


def test_csv_boolean_other_than_true_or_false_is_a_warning_and_the_row_is_kept(app, tmp_path):
    path = csv_file(tmp_path, "p.csv", "company_id,originator,opt_in,name\n7,27821234567,yes,Thandi\n")
    report = import_file("profiles", path)
    assert (report.error_count, report.imported) == (0, 1)
    assert [(w["line"], w["field"]) for w in report.warnings] == [(2, "opt_in")]
    assert listener().name == "Thandi" and listener().opt_in is None


def test_csv_row_with_more_cells_than_the_header_is_a_bad_row(app, tmp_path):
    path = csv_file(tmp_path, "c.csv", "company_id,channel_type,name\n7,2,WhatsApp,extra\n7,1,SMS\n")
    report = import_file("channels", path)
    assert [e["line"] for e in report.errors] == [2] and report.imported == 1


def test_read_rows_yields_line_numbers_and_rows(tmp_path):
    path = csv_file(tmp_path, "p.csv", 'company_id,originator,name\n7,278,"Thandi\nM"\n\n7,279,Sipho\n')
    assert list(read_rows(path)) == [(2, {"company_id": "7", "originator": "278", "name": "Thandi\nM"}),
                                     (5, {"company_id": "7", "originator": "279", "name": "Sipho"})]


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


def test_show_may_end_at_24_00(app, tmp_path):
    show = {"company_id": 7, "timeslot_id": 3, "title": "Late Night Love", "days": [7], "start": "21:00",
            "end": "24:00"}
    assert import_file("shows", jsonl(tmp_path, "s.jsonl", [show])).imported == 1
    assert Show.objects.get(timeslot_id=3).end == "24:00"


@pytest.mark.parametrize("fields, word", [
    ({"days": []}, "days"), ({"days": [0, 1]}, "days"), ({"days": [8]}, "days"), ({"days": "1"}, "days"),
    ({"start": "24:00"}, "start"), ({"start": "6am"}, "start"), ({"end": "24:01"}, "end"),
    ({"end": "12:60"}, "end"), ({"title": "  "}, "title"), ({"timeslot_id": "x"}, "timeslot_id"),
])
def test_show_with_invalid_days_or_times_is_a_bad_row(app, tmp_path, fields, word):
    show = {"company_id": 7, "timeslot_id": 3, "title": "Drive", "days": [1], "start": "15:00", "end": "18:00"}
    report = import_file("shows", jsonl(tmp_path, "s.jsonl", [show | fields]))
    assert report.error_count == 1 and word in report.errors[0]["reason"]
    assert Show.objects.count() == 0


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


def test_mobile_number_is_normalised_to_e164_for_the_company_country(app, tmp_path):
    make_company(8, country="GB")
    import_file("profiles", jsonl(tmp_path, "p.jsonl", [
        {"company_id": 7, "originator": "a", "mobile_number": "082 123 4567"},
        {"company_id": 7, "originator": "b", "mobile_number": "+44 7911 123456"},
        {"company_id": 8, "originator": "c", "mobile_number": "07911 123456"}]))
    assert listener("a").mobile_number == "+27821234567"
    assert listener("b").mobile_number == "+447911123456"
    assert listener("c", company_id=8).mobile_number == "+447911123456"


@pytest.mark.parametrize("field, value", [("originator", ""), ("company_id", "seven")])
def test_a_profile_row_without_a_company_or_an_originator_is_a_bad_row(app, tmp_path, field, value):
    row = {"company_id": 7, "originator": "27821234567", "name": "Thandi"} | {field: value}
    report = import_file("profiles", jsonl(tmp_path, "p.jsonl", [row]))
    assert report.error_count == 1 and field in report.errors[0]["reason"]
    assert Listener.objects.count() == 0


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


def test_without_interaction_id_the_whole_row_is_the_key(app, tmp_path):
    report = import_file("interactions", jsonl(tmp_path, "a.jsonl", [
        interaction(message="Hi"), interaction(message="Hi", unknown="ignored"), interaction(message="Hello")]))
    assert (report.imported, report.duplicates) == (2, 1)


def test_the_same_interactions_in_csv_and_jsonl_are_the_same_events(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(message="Hi, gqom please")]))
    report = import_file("interactions", csv_file(
        tmp_path, "a.csv", "company_id,originator,timestamp,channel_type,campaign_type,message\n"
                           '7,27821234567,2026-11-20T07:15:00+02:00,2,song_request,"Hi, gqom please"\n'))
    assert (report.imported, report.duplicates) == (0, 1)


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


def test_timestamp_with_offset_is_stored_as_utc(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(timestamp="2026-11-20T07:15:00+02:00"),
                                                            interaction(timestamp="2026-11-20T05:16:00Z")]))
    assert sorted(e["time"] for e in events()) == [datetime(2026, 11, 20, 5, 15, tzinfo=UTC),
                                                   datetime(2026, 11, 20, 5, 16, tzinfo=UTC)]


def test_timestamp_without_offset_is_company_local_time(app, tmp_path):
    make_company(8, timezone="Europe/London")
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [
        interaction(timestamp="2026-11-20T07:15:00"), interaction(company_id=8, timestamp="2026-07-01T07:15:00")]))
    assert events(7)[0]["time"] == datetime(2026, 11, 20, 5, 15, tzinfo=UTC)
    assert events(8)[0]["time"] == datetime(2026, 7, 1, 6, 15, tzinfo=UTC)


def test_campaign_type_is_lower_cased(app, tmp_path):
    import_file("interactions", jsonl(tmp_path, "a.jsonl", [interaction(campaign_type=" Competition ")]))
    assert events()[0]["campaign"] == "competition"


@pytest.mark.parametrize("fields, word", [
    ({"company_id": None}, "company_id"), ({"company_id": "seven"}, "company_id"), ({"company_id": True}, "company_id"),
    ({"originator": None}, "originator"), ({"originator": 27821234567}, "originator"),
    ({"timestamp": None}, "timestamp"), ({"timestamp": "20 Nov 2026 07:15"}, "timestamp"),
    ({"channel_type": 0}, "channel_type"), ({"channel_type": 2.5}, "channel_type"),
    ({"campaign_type": ""}, "campaign_type"), ({"campaign_type": 7}, "campaign_type"),
])
def test_a_missing_or_unreadable_required_interaction_field_is_a_bad_row(app, tmp_path, fields, word):
    row = {k: v for k, v in (interaction() | fields).items() if v is not None}
    report = import_file("interactions", jsonl(tmp_path, "a.jsonl", [row]))
    assert report.error_count == 1 and word in report.errors[0]["reason"]
    assert InteractionBatch.objects.count() == 0 and Listener.objects.count() == 0


# --- originators ---

REFUSED_ORIGINATORS = ["sipho/home", "sipho home", "sipho\thome", "sipho\x00home", "sipho\x07bell", "sipho\nhome",
                       "sipho\u200bhome", "síphokazi", "s" * 65, ".", ".."]


def row_of(kind: str, originator) -> dict:
    """A row of this kind that is valid but for its originator."""
    if kind == "interactions":
        return interaction(originator=originator)
    return {"company_id": 7, "originator": originator, "name": "Thandi"}


@pytest.mark.parametrize("kind", ["profiles", "interactions"])
@pytest.mark.parametrize("originator", REFUSED_ORIGINATORS)
def test_an_originator_outside_the_allowed_form_is_a_bad_row(app, tmp_path, kind, originator):
    report = import_file(kind, jsonl(tmp_path, "x.jsonl", [row_of(kind, originator), row_of(kind, "27821234567")]))
    assert (report.error_count, report.imported) == (1, 1) and "originator" in report.errors[0]["reason"]
    assert Listener.objects.count() == 1


@pytest.mark.parametrize("kind", ["profiles", "interactions"])
@pytest.mark.parametrize("originator", ["sipho/home/27821234567", "s" * 65, 27821234567])
def test_the_reason_for_a_refused_originator_never_quotes_it(app, tmp_path, kind, originator):
    report = import_file(kind, jsonl(tmp_path, "x.jsonl", [row_of(kind, originator)]))
    assert report.error_count == 1 and str(originator)[:8] not in report.errors[0]["reason"]


@pytest.mark.parametrize("kind", ["profiles", "interactions"])
def test_an_originator_of_1_to_64_letters_digits_and_plus_dash_underscore_dot_colon_at_is_kept(app, tmp_path, kind):
    allowed = ["a.b:c@d+e_f-1", "x" * 64, "7", "+27821234567", "-_.:@+"]
    report = import_file(kind, jsonl(tmp_path, "x.jsonl", [row_of(kind, o) for o in allowed]
                                     + [row_of(kind, "  padded  ")]))
    assert (report.imported, report.error_count) == (6, 0)
    assert [doc["originator"] for doc in stored_listeners(7)] == sorted([*allowed, "padded"])



def schedule(tmp_path, *shows):
    rows = [{"company_id": 7, "timeslot_id": tid, "title": f"Show {tid}", "days": days, "start": start, "end": end}
            for tid, days, start, end in shows]
    import_file("shows", jsonl(tmp_path, "shows.jsonl", rows))


def timeslots_at(tmp_path, *timestamps, **fields) -> list:
    """The stored timeslot of an interaction at each local timestamp, in order."""
    InteractionBatch.objects.delete()
    rows = [interaction(timestamp=t, interaction_id=str(i), **fields) for i, t in enumerate(timestamps)]
    import_file("interactions", jsonl(tmp_path, "a.jsonl", rows))
    return [e["timeslot"] for e in events()]  # one listener's rows of one file: stored in the file's order


def test_missing_timeslot_is_the_show_airing_at_that_local_time(app, tmp_path):
    schedule(tmp_path, (12, [1, 2, 3, 4, 5], "06:00", "09:00"))
    # 2026-11-20 is a Friday, 2026-11-21 a Saturday
    assert timeslots_at(tmp_path, "2026-11-20T06:00:00", "2026-11-20T08:59:00", "2026-11-20T09:00:00",
                        "2026-11-21T07:00:00", "2026-11-20T05:15:00Z") == [12, 12, None, None, 12]


def test_given_timeslot_is_kept(app, tmp_path):
    schedule(tmp_path, (12, [5], "06:00", "09:00"))
    assert timeslots_at(tmp_path, "2026-11-20T07:00:00", timeslot_id=4) == [4]


def test_overlapping_shows_resolve_to_the_lowest_timeslot_id(app, tmp_path):
    schedule(tmp_path, (20, [5], "06:00", "10:00"), (12, [5], "08:00", "09:00"))
    assert timeslots_at(tmp_path, "2026-11-20T07:00:00", "2026-11-20T08:30:00", "2026-11-20T09:30:00") == \
        [20, 12, 20]


def test_show_ending_at_or_before_its_start_runs_past_midnight(app, tmp_path):
    schedule(tmp_path, (30, [5, 7], "22:00", "02:00"))
    # Friday 23:00 and Saturday 01:30 are in Friday's show; Sunday's show runs into Monday
    assert timeslots_at(tmp_path, "2026-11-20T23:00:00", "2026-11-21T01:30:00", "2026-11-21T02:00:00",
                        "2026-11-20T01:30:00", "2026-11-23T00:30:00") == [30, 30, None, None, 30]


def test_show_ending_at_24_00_covers_the_last_minute_of_the_day(app, tmp_path):
    schedule(tmp_path, (3, [5], "21:00", "24:00"))
    assert timeslots_at(tmp_path, "2026-11-20T23:59:00", "2026-11-21T00:00:00") == [3, None]


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
