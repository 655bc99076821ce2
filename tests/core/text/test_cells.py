"""Every CSV the service writes shows formulas as text (OWASP CSV injection) and numbers as numbers."""
from __future__ import annotations

import csv
import io

import pytest

from core.text.cells import CsvText, safe_cell


@pytest.mark.parametrize("cell", ['=HYPERLINK("http://x")', "+SUM(A1)", "-2+3", "@SUM(A1)", "\t=1+1", "\r=1+1",
                                  "=", "+", "-", "@", "+27 82 123 4567", "-5-5", "+1e9", "--5"])
def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_prefixed_with_a_quote(cell):
    assert safe_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-5", "3.2", "-3.25", "0", "42", "+27821234567", "+4479111234"])
def test_plain_numbers_and_e164_numbers_stay_as_they_are(cell):
    assert safe_cell(cell) == cell


@pytest.mark.parametrize("cell", ["Thandi M", "a=b", "vip|gqom", "", "2026-11-20T07:15:00+02:00", "x@y.z"])
def test_ordinary_text_stays_as_it_is(cell):
    assert safe_cell(cell) == cell


@pytest.mark.parametrize("cell", [-5, 3.2, 0, None, True])
def test_values_that_are_not_text_stay_as_they_are(cell):
    assert safe_cell(cell) is cell


def test_csv_text_writes_every_row_through_the_cell_rule_and_hands_out_what_it_wrote():
    out = CsvText()
    out.row(["name", "originator", "score"])
    out.row(["=cmd|' /C calc'!A0", "+27821234567", -5])
    first = out.take()
    assert list(csv.reader(io.StringIO(first))) == [["name", "originator", "score"],
                                                     ["'=cmd|' /C calc'!A0", "+27821234567", "-5"]]
    assert out.take() == ""
