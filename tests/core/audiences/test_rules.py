"""The bounds of custom segments and audiences, checked in core: every problem at once, in the 422 shape; names the
same whatever their case and spacing; filters kept as the parameters that select them again."""
from __future__ import annotations

import pytest

from core.audiences.rules import AUDIENCE_LIMITS, Problems, distinct, filter_params
from core.errors import ValidationFailed
from core.explore.filters import parse_filters
from core.text.names import name_key


def test_every_problem_of_a_request_is_reported_at_once():
    problems = Problems()
    problems.text("theme", " ", 500)
    problems.whole("limit", 0, AUDIENCE_LIMITS)
    problems.score("min_score", 1.5)
    with pytest.raises(ValidationFailed) as raised:
        problems.check()
    assert [item["loc"] for item in raised.value.items] == [["body", "theme"], ["body", "limit"],
                                                            ["body", "min_score"]]


@pytest.mark.parametrize(("value", "expected"), [("  gospel  ", "gospel"), (None, None), ("   ", None)])
def test_text_is_trimmed_and_a_blank_optional_one_is_absent(value, expected):
    problems = Problems()
    assert problems.text("description", value, 10, required=False) == expected and not problems.items


@pytest.mark.parametrize("value", ["x" * 11, 5, "bad \ud800 text"])
def test_text_too_long_not_text_or_not_storable_is_refused(value):
    problems = Problems()
    assert problems.text("theme", value, 10) is None and len(problems.items) == 1


@pytest.mark.parametrize("value", [True, "5", 1.5, None, float("nan")])
def test_a_whole_number_is_a_json_number_without_fraction(value):
    problems = Problems()
    assert problems.whole("limit", value, (1, 5)) is None and problems.items[0]["type"] == "type_error"


@pytest.mark.parametrize(("value", "ok"), [(0, True), (1, True), (0.68, True), (1.0001, False), (-0.01, False),
                                           (float("nan"), False), (True, False)])
def test_a_score_lies_between_0_and_1(value, ok):
    problems = Problems()
    assert (problems.score("min_score", value) is not None) is ok


def test_queries_given_back_are_1_to_5_distinct_texts():
    problems = Problems()
    assert problems.queries(["gospel", " Gospel ", "soccer"]) == ["gospel", "soccer"]
    problems.queries([])
    problems.queries(["a"] * 6)
    assert len(problems.items) == 2


def test_names_ignore_case_and_spacing():
    assert name_key("  Gospel   LOVERS ") == name_key("gospel lovers")
    assert distinct(["A", "a", "b"]) == ["A", "b"]


def test_filters_are_kept_as_the_parameters_that_select_them_again():
    flt = parse_filters({"gender": ["male", "female"], "opt_in": "true", "tags": "vip,music", "peak_hour": "7"})
    params = filter_params(flt)
    assert params == {"gender": ["male", "female"], "tags": "vip,music", "peak_hour": "7", "opt_in": "true"}
    assert parse_filters(params) == flt
    assert filter_params(None) == {}
