"""Ingest's row rules (ingest.md), read as an import reads them (core.ingest.kinds) against stations given in memory
(tests/memory.py): files and their lines, CSV conventions, shows, profiles, interactions, originators and the show of
a local minute. What an import writes, keeps idempotent and re-segments is in test_importer.py, on the database."""
from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from core.errors import ValidationFailed
from core.ingest.files import read_rows
from core.ingest.importer import import_file
from core.ingest.tally import Tally
from tests.core.ingest.import_files import csv_file, interaction, jsonl
from tests.memory import StationsInMemory, rows_read

IMPORTED_AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
"""After every interaction of these tests, so that each is in the accepted range."""
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def stations(docs: dict | None = None, shows: list[dict] = ()) -> StationsInMemory:
    return StationsInMemory(docs, shows, now=IMPORTED_AT)


def read(kind: str, rows, docs: dict | None = None, shows: list[dict] = ()) -> tuple[list[tuple], Tally]:
    return rows_read(kind, rows, stations(docs, shows))


def events(rows, docs: dict | None = None, shows: list[dict] = ()) -> list:
    """The interactions these rows make (InteractionRow), in the rows' order; the bad rows left out."""
    return [event for _, event in read("interactions", rows, docs, shows)[0]]


def stored_time(event) -> datetime:
    return EPOCH + timedelta(milliseconds=event.millis)


def the_only_bad_row(kind: str, row: dict) -> str:
    """The reason of the one bad row this row makes; nothing of it is kept."""
    kept, tally = read(kind, [row])
    assert kept == [] and tally.error_count == 1
    return tally.errors[0]["reason"]


# --- every kind: bad rows, files ---

def test_lines_that_are_not_json_objects_or_not_utf8_are_bad_rows(tmp_path):
    path = tmp_path / "i.jsonl"
    path.write_bytes(b'[1, 2]\n"text"\n\xff\xfe bad bytes\n\n' + json.dumps(interaction()).encode() + b"\n")
    kept, tally = read("interactions", read_rows(path))
    assert [e["line"] for e in tally.errors] == [1, 2, 3]
    assert tally.rows == 4 and len(kept) == 1  # the blank line 4 is not a row


def test_only_the_first_1000_bad_rows_are_kept_but_all_are_counted():
    _, tally = read("interactions", [(line, "broken") for line in range(1, 1202)])
    assert tally.error_count == 1201 and len(tally.errors) == 1000
    assert tally.errors[-1]["line"] == 1000


def test_unknown_fields_are_ignored():
    kept, tally = read("interactions", [interaction(station_name="Jozi FM", extra={"a": 1})])
    assert len(kept) == 1 and tally.error_count == 0


def test_unknown_kind_is_refused_before_the_file_is_read(tmp_path):
    with pytest.raises(ValidationFailed):
        import_file("listeners", str(tmp_path / "not-even-there.jsonl"))


@pytest.mark.parametrize("name", ["missing.jsonl", "rows.txt"])
def test_a_file_that_cannot_be_read_raises_value_error(tmp_path, name):
    if name.endswith(".txt"):
        (tmp_path / name).write_text("{}\n")
    with pytest.raises(ValueError):
        read_rows(str(tmp_path / name))


def test_a_csv_byte_that_is_not_utf8_is_read_as_windows_1252(tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"company_id,originator,name\n7,27820000001,Thandi\n7,27820000002,Ren\xe9e\n")
    kept, _ = read("profiles", read_rows(str(path)))
    assert [fields["name"] for _, _, fields in kept] == ["Thandi", "Renée"]


def test_integers_may_be_numeric_strings():
    [(company_id, event)] = read("interactions", [interaction(company_id="7", channel_type=" 3 ")])[0]
    assert (company_id, event.channel) == (7, 3)


# --- CSV and JSONL conventions ---

def test_csv_header_is_line_1_and_the_first_row_is_line_2(tmp_path):
    path = csv_file(tmp_path, "i.csv", "company_id,originator,timestamp,channel_type,campaign_type\n"
                                       "7,27821234567,2026-11-20T07:15:00+02:00,x,poll\n"
                                       "7,27821234567,2026-11-20T07:16:00+02:00,2,poll\n")
    kept, tally = read("interactions", read_rows(path))
    assert tally.errors[0]["line"] == 2 and len(kept) == 1


def test_csv_lists_and_booleans(tmp_path):
    path = csv_file(tmp_path, "p.csv", "company_id,originator,tags,opt_in,permission\n"
                                       "7,27821234567,gqom lover| competitions ,true,false\n")
    [(_, _, fields)] = read("profiles", read_rows(path))[0]
    assert fields == {"tags": ["gqom lover", "competitions"], "opt_in": True, "permission": False}
    shows = csv_file(tmp_path, "s.csv", "company_id,timeslot_id,title,days,start,end\n"
                                        "7,12,The Breakfast Club,1|2|3|4|5,06:00,09:00\n")
    [(_, timeslot_id, show)] = read("shows", read_rows(shows))[0]
    assert (timeslot_id, show["days"]) == (12, [1, 2, 3, 4, 5])


def test_csv_empty_cell_is_an_absent_field(tmp_path):
    path = csv_file(tmp_path, "p.csv", "company_id,originator,name,language,gender\n7,27821234567,,,female\n")
    [(_, _, fields)] = read("profiles", read_rows(path))[0]
    assert fields == {"gender": "female"}  # no name or language to clear a stored one


def test_csv_boolean_other_than_true_or_false_is_a_warning_and_the_row_is_kept(tmp_path):
    path = csv_file(tmp_path, "p.csv", "company_id,originator,opt_in,name\n7,27821234567,yes,Thandi\n")
    kept, tally = read("profiles", read_rows(path))
    assert tally.error_count == 0 and [fields for _, _, fields in kept] == [{"name": "Thandi"}]
    assert [(w["line"], w["field"]) for w in tally.warnings] == [(2, "opt_in")]


def test_csv_row_with_more_cells_than_the_header_is_a_bad_row(tmp_path):
    path = csv_file(tmp_path, "c.csv", "company_id,channel_type,name\n7,2,WhatsApp,extra\n7,1,SMS\n")
    kept, tally = read("channels", read_rows(path))
    assert [e["line"] for e in tally.errors] == [2] and kept == [(7, 1, "SMS")]


def test_read_rows_yields_line_numbers_and_rows(tmp_path):
    path = csv_file(tmp_path, "p.csv", 'company_id,originator,name\n7,278,"Thandi\nM"\n\n7,279,Sipho\n')
    assert list(read_rows(path)) == [(2, {"company_id": "7", "originator": "278", "name": "Thandi\nM"}),
                                     (5, {"company_id": "7", "originator": "279", "name": "Sipho"})]


# --- shows ---

def test_a_show_s_days_are_sorted_once_each_and_its_times_have_two_digit_hours():
    show = {"company_id": 7, "timeslot_id": 12, "title": "Breakfast", "days": [5, 1, 1], "start": "6:00",
            "end": "09:00"}
    assert read("shows", [show])[0] == [(7, 12, {"title": "Breakfast", "days": [1, 5], "start": "06:00",
                                                 "end": "09:00"})]


def test_show_may_end_at_24_00():
    show = {"company_id": 7, "timeslot_id": 3, "title": "Late Night Love", "days": [7], "start": "21:00",
            "end": "24:00"}
    [(_, _, fields)] = read("shows", [show])[0]
    assert fields["end"] == "24:00"


@pytest.mark.parametrize("fields, word", [
    ({"days": []}, "days"), ({"days": [0, 1]}, "days"), ({"days": [8]}, "days"), ({"days": "1"}, "days"),
    ({"start": "24:00"}, "start"), ({"start": "6am"}, "start"), ({"end": "24:01"}, "end"),
    ({"end": "12:60"}, "end"), ({"title": "  "}, "title"), ({"timeslot_id": "x"}, "timeslot_id"),
])
def test_show_with_invalid_days_or_times_is_a_bad_row(fields, word):
    show = {"company_id": 7, "timeslot_id": 3, "title": "Drive", "days": [1], "start": "15:00", "end": "18:00"}
    assert word in the_only_bad_row("shows", show | fields)


# --- profiles ---

def test_a_profile_s_values_are_trimmed_and_spelled_as_the_fields_spell_them():
    row = {"company_id": 7, "originator": "27821234567", "name": " Thandi M ", "gender": "Female",
           "age_group": "25-34", "language": "isiZulu", "opt_in": True}
    assert read("profiles", [row])[0] == [(7, "27821234567", {"name": "Thandi M", "gender": "female",
                                                               "age_group": "25-34", "language": "isiZulu",
                                                               "opt_in": True})]


def test_mobile_number_is_normalised_to_e164_for_the_company_country():
    kept, _ = read("profiles", [{"company_id": 7, "originator": "a", "mobile_number": "082 123 4567"},
                                {"company_id": 7, "originator": "b", "mobile_number": "+44 7911 123456"},
                                {"company_id": 8, "originator": "c", "mobile_number": "07911 123456"}],
                   docs={8: {"country": "GB"}})
    assert [(company_id, fields["mobile_number"]) for company_id, _, fields in kept] == [
        (7, "+27821234567"), (7, "+447911123456"), (8, "+447911123456")]


@pytest.mark.parametrize("field, value", [("originator", ""), ("company_id", "seven")])
def test_a_profile_row_without_a_company_or_an_originator_is_a_bad_row(field, value):
    row = {"company_id": 7, "originator": "27821234567", "name": "Thandi"} | {field: value}
    assert field in the_only_bad_row("profiles", row)


# --- interactions ---

def test_interaction_id_is_the_idempotency_key():
    first, again, other = events([interaction(interaction_id="evt-1", message="Hi"),
                                  interaction(interaction_id="evt-1", message="Hi again"),
                                  interaction(interaction_id="evt-2", message="Hi")])
    assert first.key == again.key != other.key


def test_without_interaction_id_the_whole_row_is_the_key():
    hi, hi_with_more, hello = events([interaction(message="Hi"), interaction(message="Hi", unknown="ignored"),
                                      interaction(message="Hello")])
    assert hi.key == hi_with_more.key != hello.key


def test_the_same_interaction_in_csv_and_jsonl_is_the_same_event(tmp_path):
    [from_jsonl] = events(read_rows(jsonl(tmp_path, "a.jsonl", [interaction(message="Hi, gqom please")])))
    [from_csv] = events(read_rows(csv_file(
        tmp_path, "a.csv", "company_id,originator,timestamp,channel_type,campaign_type,message\n"
                           '7,27821234567,2026-11-20T07:15:00+02:00,2,song_request,"Hi, gqom please"\n')))
    assert from_csv == from_jsonl


def test_timestamp_with_offset_is_stored_as_utc():
    assert [stored_time(e) for e in events([interaction(timestamp="2026-11-20T07:15:00+02:00"),
                                            interaction(timestamp="2026-11-20T05:16:00Z")])] == [
        datetime(2026, 11, 20, 5, 15, tzinfo=UTC), datetime(2026, 11, 20, 5, 16, tzinfo=UTC)]


def test_timestamp_without_offset_is_company_local_time():
    found = events([interaction(timestamp="2026-11-20T07:15:00"),
                    interaction(company_id=8, timestamp="2026-07-01T07:15:00")],
                   docs={8: {"timezone": "Europe/London"}})
    assert [stored_time(e) for e in found] == [datetime(2026, 11, 20, 5, 15, tzinfo=UTC),
                                               datetime(2026, 7, 1, 6, 15, tzinfo=UTC)]


def test_campaign_type_is_lower_cased():
    assert events([interaction(campaign_type=" Competition ")])[0].campaign == "competition"


@pytest.mark.parametrize("fields, word", [
    ({"company_id": None}, "company_id"), ({"company_id": "seven"}, "company_id"), ({"company_id": True}, "company_id"),
    ({"originator": None}, "originator"), ({"originator": 27821234567}, "originator"),
    ({"timestamp": None}, "timestamp"), ({"timestamp": "20 Nov 2026 07:15"}, "timestamp"),
    ({"channel_type": 0}, "channel_type"), ({"channel_type": 2.5}, "channel_type"),
    ({"campaign_type": ""}, "campaign_type"), ({"campaign_type": 7}, "campaign_type"),
])
def test_a_missing_or_unreadable_required_interaction_field_is_a_bad_row(fields, word):
    assert word in the_only_bad_row("interactions", interaction(**fields))


# --- originators ---

REFUSED_ORIGINATORS = ["sipho/home", "sipho home", "sipho\thome", "sipho\x00home", "sipho\x07bell", "sipho\nhome",
                       "sipho\u200bhome", "síphokazi", "s" * 65, ".", ".."]


def row_of(kind: str, originator) -> dict:
    """A row of this kind that is valid but for its originator."""
    if kind == "interactions":
        return interaction(originator=originator)
    return {"company_id": 7, "originator": originator, "name": "Thandi"}


def originators(kind: str, kept: list[tuple]) -> list[str]:
    return [parsed[1].originator if kind == "interactions" else parsed[1] for parsed in kept]


@pytest.mark.parametrize("kind", ["profiles", "interactions"])
@pytest.mark.parametrize("originator", REFUSED_ORIGINATORS)
def test_an_originator_outside_the_allowed_form_is_a_bad_row(kind, originator):
    kept, tally = read(kind, [row_of(kind, originator), row_of(kind, "27821234567")])
    assert tally.error_count == 1 and "originator" in tally.errors[0]["reason"]
    assert originators(kind, kept) == ["27821234567"]


@pytest.mark.parametrize("kind", ["profiles", "interactions"])
@pytest.mark.parametrize("originator", ["sipho/home/27821234567", "s" * 65, 27821234567])
def test_the_reason_for_a_refused_originator_never_quotes_it(kind, originator):
    assert str(originator)[:8] not in the_only_bad_row(kind, row_of(kind, originator))


@pytest.mark.parametrize("kind", ["profiles", "interactions"])
def test_an_originator_of_1_to_64_letters_digits_and_plus_dash_underscore_dot_colon_at_is_kept(kind):
    allowed = ["a.b:c@d+e_f-1", "x" * 64, "7", "+27821234567", "-_.:@+"]
    kept, tally = read(kind, [row_of(kind, o) for o in allowed] + [row_of(kind, "  padded  ")])
    assert tally.error_count == 0 and originators(kind, kept) == [*allowed, "padded"]


# --- the show of a local minute ---

def show(timeslot_id: int, days: list[int], start: str, end: str) -> dict:
    return {"company_id": 7, "timeslot_id": timeslot_id, "title": f"Show {timeslot_id}", "days": days,
            "start": start, "end": end}


def timeslots_at(shows: list[dict], *timestamps, **fields) -> list:
    """The timeslot of an interaction at each local timestamp, in order."""
    rows = [interaction(timestamp=t, interaction_id=str(i), **fields) for i, t in enumerate(timestamps)]
    return [e.timeslot for e in events(rows, shows=shows)]


def test_missing_timeslot_is_the_show_airing_at_that_local_time():
    # 2026-11-20 is a Friday, 2026-11-21 a Saturday
    assert timeslots_at([show(12, [1, 2, 3, 4, 5], "06:00", "09:00")],
                        "2026-11-20T06:00:00", "2026-11-20T08:59:00", "2026-11-20T09:00:00",
                        "2026-11-21T07:00:00", "2026-11-20T05:15:00Z") == [12, 12, None, None, 12]


def test_given_timeslot_is_kept():
    assert timeslots_at([show(12, [5], "06:00", "09:00")], "2026-11-20T07:00:00", timeslot_id=4) == [4]


def test_overlapping_shows_resolve_to_the_lowest_timeslot_id():
    assert timeslots_at([show(20, [5], "06:00", "10:00"), show(12, [5], "08:00", "09:00")],
                        "2026-11-20T07:00:00", "2026-11-20T08:30:00", "2026-11-20T09:30:00") == [20, 12, 20]


def test_show_ending_at_or_before_its_start_runs_past_midnight():
    # Friday 23:00 and Saturday 01:30 are in Friday's show; Sunday's show runs into Monday
    assert timeslots_at([show(30, [5, 7], "22:00", "02:00")],
                        "2026-11-20T23:00:00", "2026-11-21T01:30:00", "2026-11-21T02:00:00",
                        "2026-11-20T01:30:00", "2026-11-23T00:30:00") == [30, 30, None, None, 30]


def test_show_ending_at_24_00_covers_the_last_minute_of_the_day():
    assert timeslots_at([show(3, [5], "21:00", "24:00")], "2026-11-20T23:59:00", "2026-11-21T00:00:00") == [3, None]

