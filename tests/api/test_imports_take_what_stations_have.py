"""Imports take what stations have (issue 49, item 5), through the API: channels by name, a workbook's data sheet, no
import of nothing, warnings that say what was expected, yes/no columns as the station's own tags."""
from __future__ import annotations

import io
import json
from datetime import date

import pytest

from core.ingest.importer import import_file
from tests.api.test_imports_api import finished, jsonl, preview, upload
from tests.core.ingest.test_importer import events
from tests.factories import make_company, stored_listener
from tests.workbooks import named

pytestmark = pytest.mark.db

WHEN = "2026-01-10T08:00:00+02:00"


@pytest.fixture
def station(app):
    make_company(1)


def channels_of(originator: str) -> list[int]:
    """The stored channel of each of one listener's interactions."""
    return [event["channel"] for event in events(1, originator)]


def interactions_csv(channels: list[str]) -> bytes:
    lines = ["originator,timestamp,channel_type,campaign_type"]
    lines += [f"2782000{i:04d},{WHEN},{channel},song_request" for i, channel in enumerate(channels)]
    return ("\n".join(lines) + "\n").encode()


def test_an_interactions_file_that_names_its_channels_imports_every_row(client, station, key_for):
    body = interactions_csv(["WhatsApp", "sms", "SMS", " Whats App ", "2"])
    job = finished(client, key_for(1), upload(client, key_for(1), body, "chat.csv", "interactions").headers["Location"])
    assert job["state"] == "done", job
    assert (job["report"]["imported"], job["report"]["bad_rows"]) == (5, 0)
    assert [channels_of(f"2782000{i:04d}") for i in range(5)] == [[2], [1], [1], [2], [2]]


def test_the_names_of_the_stations_channels_file_are_read_too(client, station, key_for, tmp_path):
    names = tmp_path / "channels.csv"
    names.write_text("company_id,channel_type,name\n1,8,Station Facebook\n")
    import_file("channels", names)
    body = interactions_csv(["station facebook", "STATION FACEBOOK"])
    job = finished(client, key_for(1), upload(client, key_for(1), body, "chat.csv", "interactions").headers["Location"])
    assert job["report"]["imported"] == 2
    assert channels_of("27820000000") == channels_of("27820000001") == [8]


def test_an_unknown_channel_name_is_listed_once_with_the_closest_known_name(client, station, key_for):
    body = interactions_csv(["Whatsup", "Pigeon post", "WHATSUP", "whats up", "sms"])
    job = finished(client, key_for(1), upload(client, key_for(1), body, "chat.csv", "interactions").headers["Location"])
    report = job["report"]
    assert (report["imported"], report["bad_rows"]) == (1, 4)
    assert [(error["line"], error["rows"]) for error in report["errors"]] == [(2, 3), (3, 1)]
    first = report["errors"][0]["reason"]
    assert first.startswith("channel_type 'Whatsup' is not a known name: expected a channel number or one of the "
                            "station's channels (SMS, WhatsApp, USSD")
    assert first.endswith("did you mean 'WhatsApp'?")
    assert "must be an integer" not in json.dumps(report)


def test_a_mapped_channel_column_of_names_is_read_at_the_preview(client, station, key_for):
    body = b"Cell,When,Channel,Type\n0821234567,2026-01-10 08:00,Whats App,Song request\n"
    answer = preview(client, key_for(1), body, name="chat.csv", kind="interactions").get_json()
    assert answer["mapping"]["Channel"] == "channel_type"
    [row] = answer["rows"]
    assert row["bad_row"] is None and row["values"]["channel_type"] == 2
    mapped = client.post("/api/v1/imports/1/interactions", headers=key_for(1), content_type="multipart/form-data",
                         data={"file": (io.BytesIO(body), "chat.csv"), "mapping": json.dumps(answer["mapping"])})
    assert finished(client, key_for(1), mapped.headers["Location"])["report"]["imported"] == 1


def test_an_unreadable_birth_date_is_a_birth_date_warning_naming_its_column_and_value(client, station, key_for):
    born = date.today().year - 38  # 37 or 38 years old whatever today is: 35-44
    body = f"Cell,Date of birth\n0821234567,31/02/1990\n0821234568,20/11/{born}\n".encode()
    answer = preview(client, key_for(1), body).get_json()
    assert answer["mapping"]["Date of birth"] == "age_group"
    first, second = answer["rows"]
    [warning] = first["warnings"]
    assert warning["columns"] == ["Date of birth"] and warning["value"] == "31/02/1990"
    assert warning["reason"].startswith("age_group: the birth date cannot be read: expected a date")
    assert "must be one of" not in warning["reason"]
    assert second["warnings"] == [] and second["values"]["age_group"] == "35-44"
    job = finished(client, key_for(1), client.post(
        "/api/v1/imports/1/profiles", headers=key_for(1), content_type="multipart/form-data",
        data={"file": (io.BytesIO(body), "people.csv"), "mapping": json.dumps(answer["mapping"])}).headers["Location"])
    assert job["report"]["warnings"][0]["reason"].startswith("age_group: the birth date cannot be read")
    assert job["report"]["warnings_by_field"] == {"age_group": 1}




LISTENERS = [["Cell", "Name"], ["0821234567", "Thandi"], ["0821234568", "Sipho"]]


def test_a_workbook_whose_first_sheet_is_empty_opens_on_the_sheet_that_holds_data(client, station, key_for):
    body = named({"Sheet1": [], "Listeners": LISTENERS})
    answer = preview(client, key_for(1), body, name="people.xlsx").get_json()
    assert (answer["sheet"], answer["sheets_with_data"], answer["nothing_to_import"]) == ("Listeners", ["Listeners"],
                                                                                          None)
    assert answer["mapping"] == {"Cell": "mobile_number", "Name": "name"} and len(answer["rows"]) == 2
    answer = client.post("/api/v1/imports/1/profiles", headers=key_for(1), content_type="multipart/form-data",
                         data={"file": (io.BytesIO(body), "people.xlsx"), "mapping": json.dumps(answer["mapping"])})
    job = finished(client, key_for(1), answer.headers["Location"])
    assert (job["state"], job["sheet"], job["report"]["imported"]) == ("done", None, 2)


def test_a_workbook_with_several_sheets_of_data_says_which_it_shows(client, station, key_for):
    body = named({"Cover": [["Listeners of Demo FM"]], "June": LISTENERS, "July": LISTENERS})
    answer = preview(client, key_for(1), body, name="people.xlsx").get_json()
    assert (answer["sheet"], answer["sheets_with_data"]) == ("June", ["June", "July"])


def test_a_sheet_without_rows_is_nothing_to_import_and_says_where_the_data_is(client, station, key_for):
    body = named({"Sheet1": [["Cell", "Name"]], "Listeners": LISTENERS})
    answer = preview(client, key_for(1), body, name="people.xlsx", sheet="Sheet1").get_json()
    assert answer["nothing_to_import"] == ("The sheet 'Sheet1' holds no rows under its header: there is nothing to "
                                           "import. Data is on the sheet 'Listeners'.")


@pytest.mark.parametrize("body, message", [
    (b"Cell,Name\n", "Nothing was imported: the file (or the sheet read) holds no rows under its header."),
    (b"originator,timestamp,channel_type,campaign_type\n2782,not a time,SMS,poll\n2783,,SMS,poll\n",
     "Nothing was imported: all 2 rows are bad rows; the report says why."),
])
def test_an_import_of_no_importable_row_fails_saying_why_and_is_never_finished(client, station, key_for, body,
                                                                              message):
    kind = "interactions" if body.startswith(b"originator") else "profiles"
    job = finished(client, key_for(1), upload(client, key_for(1), body, "empty.csv", kind).headers["Location"])
    assert (job["state"], job["message"]) == ("failed", message)
    assert job["report"]["imported"] == 0


def test_a_yes_no_column_naming_an_existing_tag_is_offered_as_that_tag(client, station, key_for):
    known = jsonl([{"originator": "27829990001", "tags": ["gospel", "competitions"]}])
    assert finished(client, key_for(1), upload(client, key_for(1), known).headers["Location"])["state"] == "done"
    body = b"Cell,Loves Gospel\n0821234567,yes\n0821234568,no\n"
    answer = preview(client, key_for(1), body).get_json()
    assert answer["mapping"] == {"Cell": "mobile_number", "Loves Gospel": "tags:gospel"}
    assert answer["proposed"]["Loves Gospel"]["why"] == "tag"
    assert [row["values"].get("tags") for row in answer["rows"]] == [["gospel"], None]
    job = finished(client, key_for(1), client.post(
        "/api/v1/imports/1/profiles", headers=key_for(1), content_type="multipart/form-data",
        data={"file": (io.BytesIO(body), "people.csv"), "mapping": json.dumps(answer["mapping"])}).headers["Location"])
    assert job["state"] == "done"
    assert stored_listener(1, "27821234567").tags == ["gospel"]
    assert not stored_listener(1, "27821234568").tags


def test_a_yes_no_column_naming_no_tag_of_the_station_keeps_its_header(client, station, key_for):
    answer = preview(client, key_for(1), b"Cell,VIP\n0821234567,yes\n0821234568,no\n").get_json()
    assert answer["mapping"]["VIP"] == "tags"
