"""Rows uploaded to one station (in memory): they take its company_id, and rows of another station are bad rows."""
from __future__ import annotations

import pytest

from core.config import Settings
from core.ingest.station import station_rows


def test_a_row_without_company_id_takes_the_stations():
    assert list(station_rows([(2, {"originator": "a"})], 7)) == [(2, {"originator": "a", "company_id": 7})]


def test_a_row_naming_another_station_is_a_bad_row_with_its_line():
    [(line, reason)] = station_rows([(3, {"company_id": "8", "originator": "a"})], 7)
    assert line == 3 and reason.startswith("company_id 8 is another station")


def test_a_row_of_the_station_and_an_unreadable_company_id_pass_on_unchanged():
    rows = [(2, {"company_id": "7", "originator": "a"}), (3, {"company_id": "x"}), (4, "not valid JSON")]
    assert list(station_rows(rows, 7)) == rows


def test_the_upload_limit_is_a_setting_of_whole_megabytes():
    assert Settings.from_env({}).max_upload_mb == 100
    assert Settings.from_env({"MAX_UPLOAD_MB": "5"}).max_upload_mb == 5
    with pytest.raises(ValueError, match="MAX_UPLOAD_MB"):
        Settings.from_env({"MAX_UPLOAD_MB": "0"})
