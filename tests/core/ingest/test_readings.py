"""Cells as people write them (core.ingest.readings, core.ingest.dates), read into the import format."""
from __future__ import annotations

from datetime import datetime, time

import pytest

from core.ingest import readings
from core.ingest.dates import DAY_FIRST, MONTH_FIRST, NoDate, clock_text, date_order, moment_text
from core.stations.channels import ChannelNames


@pytest.mark.parametrize("written, read", [("M", "male"), ("f", "female"), ("Vrou", "female"), ("Manlik", "male"),
                                           ("Mr.", "male"), ("owesifazane", "female"), ("Non-binary", "non_binary"),
                                           ("Prefer not to say", "undisclosed"), ("other", "other")])
def test_genders_are_read_in_the_station_languages_and_else_kept_as_written(written, read):
    assert readings.gender(written) == read


@pytest.mark.parametrize("written, read", [("Yes", "true"), ("ja", "true"), ("Y", "true"), ("1", "true"),
                                           ("Nee", "false"), ("no", "false"), ("0", "false"), ("maybe", "maybe")])
def test_yes_and_no_are_booleans(written, read):
    assert readings.flag(written) == read


@pytest.mark.parametrize("written, group", [("34", "25-34"), (34.0, "25-34"), ("18", "18-24"), ("65", "65+"),
                                            ("25 - 34", "25-34"), ("65 and over", "65+"), ("15", "15"),
                                            ("1990-05-01", "35-44")])
def test_an_age_a_range_or_a_birth_date_is_read_as_its_age_group(written, group, monkeypatch):
    monkeypatch.setattr(readings, "utcnow", lambda: datetime(2026, 11, 20))
    assert readings.age_group(written, DAY_FIRST) == group


@pytest.mark.parametrize("written, days", [("Mon-Fri", ["1", "2", "3", "4", "5"]), ("Sat & Sun", ["6", "7"]),
                                           ("weekdays", ["1", "2", "3", "4", "5"]), ("1|3|5", ["1", "3", "5"]),
                                           ("Fri-Mon", ["5", "6", "7", "1"]), ("Maandag, Woensdag", ["1", "3"])])
def test_weekdays_are_read_by_name_range_or_number(written, days):
    assert readings.days(written) == days


def test_times_channels_campaigns_and_shows_are_read_as_the_format_writes_them():
    assert [readings.clock(v) for v in ("06h00", "6:00", "6pm", 0.25)] == ["06:00", "06:00", "18:00", "06:00"]
    assert readings.channel("WhatsApp", ChannelNames({2: "WhatsApp"})) == "2"
    assert readings.campaign("Song request") == "song_request"
    assert readings.show("The Drive", {"the drive": 14}) == "14"


def test_a_column_kept_as_tags_gives_its_header_where_it_says_yes_and_its_values_otherwise():
    assert readings.tags_of("Yes", "VIP") == ["VIP"] and readings.tags_of("nee", "VIP") == []
    assert readings.tags_of("gqom|jazz, kwaito", "Likes") == ["gqom", "jazz", "kwaito"]


@pytest.mark.parametrize("parts, iso", [
    (["2026/11/20 07:15"], "2026-11-20T07:15:00"),
    (["20-11-2026"], "2026-11-20T00:00:00"),
    (["20/11/26 06h00"], "2026-11-20T06:00:00"),
    (["20 Nov 2026 7:15 PM"], "2026-11-20T19:15:00"),
    (["20261120"], "2026-11-20T00:00:00"),
    (["2026-11-20T07:15:00+02:00"], "2026-11-20T07:15:00+02:00"),
    ([46346.302083], "2026-11-20T07:15:00"),
    (["20/11/2026", "07:15"], "2026-11-20T07:15:00"),
    ([datetime(2026, 11, 20), time(7, 15)], "2026-11-20T07:15:00"),
])
def test_dates_and_times_are_read_as_written_excel_serials_too(parts, iso):
    assert moment_text(parts, DAY_FIRST) == iso


def test_month_first_reads_the_middle_number_as_the_day():
    assert moment_text(["11/20/2026 7:15"], MONTH_FIRST) == "2026-11-20T07:15:00"
    with pytest.raises(NoDate):
        moment_text(["11/20/2026"], DAY_FIRST)


def test_the_date_order_is_read_from_the_values_else_from_the_country():
    assert date_order(["05/11/2026", "20/11/2026"], "ZA") == (DAY_FIRST, "values")
    assert date_order(["05/11/2026", "11/20/2026"], "ZA") == (MONTH_FIRST, "values")
    assert date_order(["05/11/2026"], "ZA") == (DAY_FIRST, "country")
    assert date_order(["05/11/2026"], "US") == (MONTH_FIRST, "country")


def test_a_time_of_day_alone_is_read_for_a_show_and_a_bare_number_is_not_one():
    assert clock_text("24:00") == "24:00"
    with pytest.raises(NoDate):
        clock_text("6")
