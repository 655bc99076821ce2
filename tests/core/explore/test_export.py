"""Exports people can read: names beside ids, station-local times, a stable order and a file name that says what. The
naming, the CSV columns and the file name are tested in memory (the station given); reading, ordering and times on
the database."""
from __future__ import annotations

import csv
import io

import pytest

from core.db import quirks
from core.explore import export
from core.explore.export import export_filename, export_records, readable, stream_csv
from core.explore.filters import parse_filters
from core.personal import key_of
from core.segmentation.runs import segment_company
from core.stations.models import Company, Show
from tests.factories import make_company, make_listener
from tests.memory import NOW, event


@pytest.fixture
def kaya(app):
    make_company(1, name="Kaya FM", channels={"2": "WhatsApp line"})
    Show(company_id=1, timeslot_id=7, title="Drive Time", days=[1, 2, 3, 4, 5], start="15:00", end="19:00").save()
    for originator in ("27820000003", "27820000001", "27820000002"):
        make_listener(1, originator, [event(1, channel=2, timeslot=7), event(2, channel=1)])
    segment_company(1, NOW)


KAYA = Company(company_id=1, name="Kaya FM", timezone="Africa/Johannesburg", channels={"2": "WhatsApp line"})
NAMES = {"channels": KAYA.channel_names(), "shows": {7: "Drive Time"}}
"""Kaya FM's names, given rather than stored, as an export reads them."""


def record(**fields) -> dict:
    """A listener's record as the explorer joins it (core.explore.records), with the fields an export names."""
    return {"originator": "27820000001", "primary_channel": 1, "channels": [1, 2], "timeslots": [7], **fields}


def test_export_names_channels_and_shows_beside_their_ids():
    rec = readable(record(), NAMES)
    assert rec["primary_channel"] == 1 and rec["primary_channel_name"] == "SMS"
    assert dict(zip(rec["channels"], rec["channel_names"])) == {1: "SMS", 2: "WhatsApp line"}
    assert rec["timeslots"] == [7] and rec["show_names"] == ["Drive Time"]


@pytest.mark.db
def test_export_times_carry_the_stations_offset_and_its_names(kaya):
    rec = next(export_records(1, parse_filters({})))
    assert rec["last_interaction"].endswith("+02:00")
    assert rec["channel_names"] == ["SMS", "WhatsApp line"] and rec["show_names"] == ["Drive Time"]


@pytest.mark.db
def test_export_is_ordered_by_the_listeners_keys_every_time(kaya):
    exported = [r["originator"] for r in export_records(1, parse_filters({}))]
    assert exported == sorted(["27820000001", "27820000002", "27820000003"], key=lambda o: key_of(1, o))
    assert [r["originator"] for r in export_records(1, parse_filters({}))] == exported


@pytest.mark.db
def test_an_export_read_in_ranges_keeps_only_the_matching_listeners(kaya, monkeypatch):
    for originator in ("27820000004", "27820000005", "27820000006"):
        make_listener(1, originator, [event(1, channel=1)])
    segment_company(1, NOW)
    monkeypatch.setattr(export, "ORDER_CHUNK", 2)
    monkeypatch.setattr(quirks, "RANGE_ABOVE", 1)  # read by index ranges, which span the listeners between
    exported = [r["originator"] for r in export_records(1, parse_filters({}), (1, 2))]
    assert sorted(exported) == ["27820000001", "27820000002", "27820000003"]
    assert len(list(export_records(1, parse_filters({})))) == 6


def test_csv_export_has_name_columns_beside_id_columns():
    text = "".join(stream_csv(iter([readable(record(), NAMES)])))
    [row] = list(csv.DictReader(io.StringIO(text)))
    assert (row["channels"], row["channel_names"]) == ("1|2", "SMS|WhatsApp line")
    assert (row["timeslots"], row["show_names"]) == ("7", "Drive Time")


def test_the_file_name_holds_the_station_its_local_date_and_the_filters(monkeypatch):
    monkeypatch.setattr(export, "get_company", lambda company_id: KAYA)
    flt = parse_filters({"segment": ["super_fan"]})
    name = export_filename(1, flt, None, "csv")
    assert name.startswith("kaya-fm_2") and name.endswith("_super_fan.csv")
    assert export_filename(1, parse_filters({}), (1, 2), "json").endswith("_channels-1-2.json")
    assert export_filename(1, parse_filters({}), None, "csv").endswith("_all.csv")
