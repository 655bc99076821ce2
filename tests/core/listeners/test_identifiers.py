"""The written forms of a listener's identifiers (ingest.md, originators and mobile numbers), checked in memory."""
from __future__ import annotations

import pytest

from core.listeners.identifiers import e164, is_originator


@pytest.mark.parametrize("originator", ["27821234567", "+27821234567", "a.b:c@d+e_f-1", "x" * 64, "7", "erased-0a1b"])
def test_an_originator_is_1_to_64_letters_digits_and_plus_dash_underscore_dot_colon_at(originator):
    assert is_originator(originator)


@pytest.mark.parametrize("originator", ["", "x" * 65, "a/b", "a b", "a\tb", "a\x00b", "a\x7fb", "27821234567\n",
                                        "émile", "a%2Fb", "a?b", "a#b", "a\\b"])
def test_anything_else_is_not_an_originator(originator):
    assert not is_originator(originator)


@pytest.mark.parametrize("originator", [".", ".."])
def test_an_originator_of_only_dots_is_refused_because_a_url_path_cannot_hold_it(originator):
    assert not is_originator(originator)


@pytest.mark.parametrize("written", [
    "082 123 4567", "082-123-4567", "082.123.4567", "(082) 123 4567", "(082) 123.4567", "0821234567",
    "+27 (0)82 123 4567", "+27(0)821234567", "0027 82 123 4567", "00 27 (0)82 123 4567", "27821234567",
    "+27 82 123 4567", " +27821234567 ",
])
def test_a_number_as_people_write_it_is_read_as_e164_of_the_company_country(written):
    assert e164(written, "ZA") == "+27821234567"


@pytest.mark.parametrize("written", ["n/a", "082 12", "no number", "12345", "082 123 45678", ""])
def test_a_value_that_is_no_phone_number_is_none(written):
    assert e164(written, "ZA") is None


def test_a_national_number_is_read_as_of_the_company_country():
    assert e164("07911 123456", "GB") == "+447911123456"
    assert e164("07911 123456", "ZA") is None


def test_a_country_code_without_plus_is_read_for_the_company_country_only():
    assert e164("447911123456", "GB") == "+447911123456"
    assert e164("447911123456", "ZA") is None  # 44... could as well be a mistyped national number


def test_a_leading_00_is_read_as_plus_even_where_the_country_dials_abroad_otherwise():
    assert e164("0027 82 123 4567", "US") == "+27821234567"


def test_bracketed_0_after_the_country_code_is_dropped_where_the_country_has_no_trunk_prefix():
    assert e164("+267 (0)71 123 456", "ZA") == "+26771123456"  # Botswana


def test_a_0_that_belongs_to_the_number_is_kept():
    assert e164("+39 (0)6 1234 5678", "ZA") == "+390612345678"  # Italian landlines keep their 0
