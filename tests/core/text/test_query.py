"""Query parameters as a client sends them (core.text.query): one rule per test, no database."""
from __future__ import annotations

import pytest

from core.errors import ValidationFailed
from core.text.query import QueryRule, check_query

RULES = {"segment": QueryRule(repeatable=True), "name": QueryRule(),
         "page": QueryRule(integer=True, minimum=1, maximum=1_000_000),
         "channel_type": QueryRule(repeatable=True, integer=True, minimum=1, maximum=10_000)}


def problems(params: dict, rules: dict = RULES) -> list[dict]:
    """The 422 items check_query reports for these parameters (none when it accepts them)."""
    try:
        check_query(params, rules)
    except ValidationFailed as error:
        return error.items
    return []


def test_known_parameters_with_values_are_accepted():
    assert problems({"segment": ["dormant", "at_risk"], "name": ["Ayanda"], "page": ["2"]}) == []


def test_an_unknown_parameter_is_refused_naming_the_closest_known_one():
    assert problems({"segmnt": ["dormant"]}) == [
        {"loc": ["query", "segmnt"], "msg": "Unknown parameter 'segmnt'; did you mean 'segment'?",
         "type": "extra_forbidden"}]


def test_an_unknown_parameter_like_none_lists_the_known_ones():
    assert problems({"xyzzy": ["1"]})[0]["msg"] == (
        "Unknown parameter 'xyzzy'; known: channel_type, name, page, segment.")


def test_an_operation_without_parameters_refuses_any():
    assert problems({"verbose": ["1"]}, {})[0]["msg"] == "Unknown parameter 'verbose'; this operation takes none."


def test_a_parameter_repeated_where_one_value_is_allowed_is_refused():
    assert problems({"name": ["a", "b"]}) == [
        {"loc": ["query", "name"], "msg": "Give this parameter once.", "type": "value_error"}]


@pytest.mark.parametrize("value", ["", "   "])
def test_an_empty_value_is_refused_not_taken_as_absent(value):
    assert problems({"segment": [value]})[0]["type"] == "string_too_short"


@pytest.mark.parametrize("written", [" 2", "+2", "٢", "2_0", "2.0", "two"])
def test_a_whole_number_is_plain_ascii_digits(written):
    assert problems({"page": [written]}) == [
        {"loc": ["query", "page"], "msg": "Not a valid integer.", "type": "int_parsing"}]


@pytest.mark.parametrize("params, accepted", [({"page": ["1"]}, True), ({"page": ["1000000"]}, True),
                                              ({"page": ["0"]}, False), ({"page": ["1000001"]}, False),
                                              ({"channel_type": ["1", "10001"]}, False)])
def test_whole_numbers_stay_within_their_inclusive_bounds(params, accepted):
    assert (problems(params) == []) is accepted


def test_every_problem_is_reported_at_once():
    found = problems({"segmnt": ["x"], "name": ["a", "b"], "page": ["0"]})
    assert [item["loc"][1] for item in found] == ["segmnt", "name", "page"]
