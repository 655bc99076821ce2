"""Files with a station's own headers imported through a mapping (issue 26), against the real database: the mobile
number as originator, a corrected proposal, workbooks and encodings, the dry run, remembered mappings (the templates,
which import as they are, in test_templates.py)."""
from __future__ import annotations

import codecs
import io
from datetime import UTC, datetime

import pytest

from core import personal
from core.db.connection import get_db
from core.ingest.importer import import_file
from core.ingest.jobs import start_import
from core.ingest.preview import preview_file, station_mapping
from core.ingest.remembered import recall
from core.listeners.models import InteractionBatch, Listener
from core.stations.models import Show
from tests.core.ingest.test_files import workbook
from tests.factories import make_company, make_listener, stored_listener

pytestmark = pytest.mark.db

NOW = datetime(2026, 11, 25, 12, tzinfo=UTC)
PEOPLE = "Name,Cell,Gender,Age,Suburb\nThandi Mokoena,082 123 4567,F,34,Soweto\nSipho,not known,M,51,Umlazi\n"
ENTRIES = ("Date;Time;Cell;Channel;Type;Show\n20/11/2026;07:15;0821234567;WhatsApp;Song request;The Breakfast Club\n"
           "21/11/2026;18h30;082 123 4567;SMS;Competition;\n")


@pytest.fixture
def station(app):
    make_company(7, name="Jozi FM")
    Show(company_id=7, timeslot_id=12, title="The Breakfast Club", days=[1, 2, 3, 4, 5, 6, 7], start="06:00",
         end="09:00").save()
    return 7


def write(tmp_path, name: str, text: str, encoding: str = "utf-8", start: bytes = b""):
    path = tmp_path / name
    path.write_bytes(start + text.encode(encoding))
    return path


def mapped(kind: str, path, given: dict, order: str = "day_first", sheet: str | None = None):
    """The station's Mapping of the file's columns."""
    from core.ingest.files import read_table

    return station_mapping(kind, 7, given, read_table(path, sheet).columns, order)


def proposed_import(kind: str, path, **options):
    """Import the file with the mapping the service proposes for it."""
    proposal = preview_file(kind, path, 7, now=NOW, sheet=options.get("sheet"))
    return import_file(kind, path, company_id=7, now=NOW, mapping=mapped(kind, path, proposal["mapping"],
                                                                         proposal["date_order"], options.get("sheet")),
                       sheet=options.get("sheet"), dry_run=options.get("dry_run", False))


def test_without_an_originator_column_the_mobile_number_is_the_originator_and_meets_the_interactions(station,
                                                                                                   tmp_path):
    report = proposed_import("profiles", write(tmp_path, "people.csv", PEOPLE))
    assert (report.imported, report.error_count) == (1, 1)
    assert report.errors[0] == {"line": 3, "reason": "mobile_number is not a valid phone number (read as ZA): with "
                                                     "no originator column, it is the listener's originator"}
    thandi = stored_listener(7, "27821234567")
    assert (thandi.name, thandi.mobile_number, thandi.gender, thandi.age_group, thandi.location) == (
        "Thandi Mokoena", "+27821234567", "female", "25-34", "Soweto")
    report = proposed_import("interactions", write(tmp_path, "entries.csv", ENTRIES))
    assert (report.imported, report.error_count, report.listeners_new, report.listeners_updated) == (2, 0, 0, 1)
    assert InteractionBatch.objects(company_id=7, originator=personal.key_of(7, "27821234567")).count() == 1
    assert Listener.objects(company_id=7).count() == 1


def test_dates_and_times_in_two_columns_channel_names_and_show_titles_are_read(station, tmp_path):
    proposal = preview_file("interactions", write(tmp_path, "entries.csv", ENTRIES), 7, now=NOW)
    assert proposal["mapping"] == {"Date": "timestamp", "Time": "timestamp", "Cell": "mobile_number",
                                   "Channel": "channel_type", "Type": "campaign_type", "Show": "timeslot_id"}
    first, second = (row["values"] for row in proposal["rows"])
    assert first["timestamp"] == "2026-11-20T07:15:00+02:00" and first["channel_type"] == 2
    assert (first["campaign_type"], first["timeslot_id"]) == ("song_request", 12)
    assert (second["timestamp"], second["channel_type"]) == ("2026-11-21T18:30:00+02:00", 1)


def test_a_wrong_proposal_corrected_by_the_producer_is_what_is_previewed_and_imported(station, tmp_path):
    path = write(tmp_path, "people.csv", "Name,Status,Cell\nThandi,yes,0821234567\nSipho,no,0831234567\n")
    assert preview_file("profiles", path, 7)["mapping"]["Status"] == "tags"
    corrected = {"Name": "name", "Status": "opt_in", "Cell": "mobile_number"}
    preview = preview_file("profiles", path, 7, given=corrected)
    assert preview["mapping_source"] == "given" and preview["rows"][0]["values"]["opt_in"] is True
    import_file("profiles", path, company_id=7, mapping=mapped("profiles", path, corrected))
    assert stored_listener(7, "27831234567").opt_in is False


def test_a_workbook_with_several_sheets_and_excel_dates_imports_the_sheet_chosen(station, tmp_path):
    path = tmp_path / "entries.xlsx"
    workbook(path, {"Read me": [["This workbook lists SMS entries"]],
                    "Entries": [["When", "Number", "Type", "Channel"],
                                [datetime(2026, 11, 20, 7, 15), 821234567, "competition", 1],
                                [46346.75, "0821234567", "competition", 1]]})
    preview = preview_file("interactions", path, 7, sheet="Entries", now=NOW)
    assert preview["sheets"] == ["Read me", "Entries"] and preview["mapping"]["When"] == "timestamp"
    report = proposed_import("interactions", path, sheet="Entries")
    assert (report.imported, report.error_count) == (2, 0)
    stamps = [row["values"]["timestamp"] for row in preview["rows"]]
    assert stamps == ["2026-11-20T07:15:00+02:00", "2026-11-20T18:00:00+02:00"]


@pytest.mark.parametrize("encoding, start", [("cp1252", b""), ("utf-8", codecs.BOM_UTF8)])
def test_windows_1252_and_a_bom_are_read_through_a_mapping(station, tmp_path, encoding, start):
    path = write(tmp_path, "mense.csv", "Naam;Selfoon;Woonplek\nRenée;0821234567;Paarl\n", encoding, start)
    assert preview_file("profiles", path, 7)["mapping"] == {"Naam": "name", "Selfoon": "mobile_number",
                                                            "Woonplek": "location"}
    proposed_import("profiles", path)
    assert stored_listener(7, "27821234567").name == "Renée"


def everything() -> dict:
    """Every document of every collection but the import reports and the keys of their bad rows (GridFS snapshots
    included)."""
    db = get_db()
    names = [name for name in sorted(db.list_collection_names())
             if name != "import_reports" and not name.startswith("system.")]
    return {name: sorted(str(doc) for doc in db[name].find()
                         if not str(doc.get("keyAltNames")).startswith("['report:")) for name in names}


@pytest.mark.parametrize("kind, text", [
    ("profiles", PEOPLE), ("interactions", ENTRIES),
    ("shows", "Show,Days,Start,End,ID\nThe Drive,Mon-Fri,15:00,18:00,14\n"),
    ("channels", "Channel ID,Channel name\n8,Telegram\n")])
def test_a_dry_run_counts_what_the_import_would_do_and_writes_nothing(station, tmp_path, kind, text):
    make_listener(7, "27821234567", name="Old name")
    before = everything()
    report = proposed_import(kind, write(tmp_path, f"{kind}.csv", text), dry_run=True)
    assert everything() == before
    assert report.dry_run and report.imported >= 1
    if kind in ("profiles", "interactions"):
        assert report.listeners_updated == 1
    real = proposed_import(kind, write(tmp_path, f"{kind}-again.csv", text))
    assert (real.imported, real.error_count, real.listeners_new, real.listeners_updated) == (
        report.imported, report.error_count, report.listeners_new, report.listeners_updated)


def test_a_confirmed_mapping_is_remembered_for_the_next_file_with_the_same_headers(station, tmp_path):
    path = write(tmp_path, "people.csv", PEOPLE)
    mine = {"Name": "name", "Cell": "mobile_number", "Gender": None, "Age": "age_group", "Suburb": "location"}
    start_import(7, "profiles", "people.csv", io.BytesIO(path.read_bytes()), tmp_path, mapping=mine, wait=True)
    assert recall(7, "profiles", ["Name", "Cell", "Gender", "Age", "Suburb"])[0] == mine
    again = write(tmp_path, "december.csv", "suburb,NAME,cell,age,gender\nSoweto,Lerato,0831234567,22,F\n")
    preview = preview_file("profiles", again, 7)
    assert preview["mapping_source"] == "remembered"
    assert preview["mapping"] == {"suburb": "location", "NAME": "name", "cell": "mobile_number", "age": "age_group",
                                  "gender": None}
    assert preview_file("interactions", again, 7)["mapping_source"] == "proposed"  # per kind
    assert recall(8, "profiles", ["Name", "Cell", "Gender", "Age", "Suburb"]) is None  # per station
