"""Arguments as a client sends them (api.arguments.RequestSchema, read by the one parser): one rule per test, no
database. The same reading serves the API and the pages."""
from __future__ import annotations

import pytest
from flask import Flask
from marshmallow import fields
from werkzeug.exceptions import HTTPException

from api.arguments import NoArguments, RequestSchema, Whole, parser
from api.errors import validation_items
from api.filter_args import FilterArgs
from core.explore.filters import parse_filters


class Args(RequestSchema):
    segment = fields.List(fields.Str())
    name = fields.Str()
    page = Whole(1, 1_000_000)
    channel_type = fields.List(Whole(1, 10_000))


def problems(query: str, schema=Args, location: str = "query") -> list[dict]:
    """The 422 items the parser reports for this query string (none when it accepts it)."""
    app = Flask(__name__)
    path, data = (f"/?{query}", None) if location == "query" else ("/", query)
    with app.test_request_context(path, method="POST", data=data,
                                  content_type="application/x-www-form-urlencoded"):
        try:
            parser.parse(schema, location=location)
        except HTTPException as error:
            return validation_items(error.data)
    return []


def test_known_parameters_with_values_are_accepted():
    assert problems("segment=dormant&segment=at_risk&name=Ayanda&page=2") == []


def test_an_unknown_parameter_is_refused_once_naming_the_closest_known_one():
    assert problems("segmnt=dormant") == [
        {"loc": ["query", "segmnt"], "msg": "Unknown parameter 'segmnt'; did you mean 'segment'?",
         "type": "extra_forbidden"}]


def test_an_unknown_parameter_like_none_lists_the_known_ones():
    assert problems("xyzzy=1")[0]["msg"] == "Unknown parameter 'xyzzy'; known: channel_type, name, page, segment."


def test_an_operation_without_parameters_refuses_any():
    assert problems("verbose=1", NoArguments)[0]["msg"] == "Unknown parameter 'verbose'; this operation takes none."


def test_a_parameter_repeated_where_one_value_is_allowed_is_refused():
    assert problems("name=a&name=b") == [
        {"loc": ["query", "name"], "msg": "Give this parameter once.", "type": "value_error"}]


@pytest.mark.parametrize("value", ["", "%20%20"])
def test_an_empty_value_is_refused_not_taken_as_absent(value):
    assert problems(f"segment={value}")[0]["type"] == "string_too_short"


def test_a_refused_required_value_is_said_once_not_also_missing():
    class Required(RequestSchema):
        q = fields.Str(required=True)

    assert [item["msg"] for item in problems("q=", Required)] == [
        "Empty value: give a value or leave the parameter out."]


@pytest.mark.parametrize("written", ["%202", "%2B2", "%D9%A2", "2_0", "2.0", "two"])
def test_a_whole_number_is_plain_ascii_digits(written):
    assert problems(f"page={written}") == [
        {"loc": ["query", "page"], "msg": "Not a valid integer.", "type": "int_parsing"}]


@pytest.mark.parametrize("query, accepted", [("page=1", True), ("page=1000000", True), ("page=0", False),
                                             ("page=1000001", False), ("channel_type=1&channel_type=10001", False)])
def test_whole_numbers_stay_within_their_inclusive_bounds(query, accepted):
    assert (problems(query) == []) is accepted


def test_every_problem_is_reported_at_once():
    found = problems("segmnt=x&name=a&name=b&page=0")
    assert sorted(item["loc"][1] for item in found) == ["name", "page", "segmnt"]


def test_a_form_is_read_by_the_same_rules():
    assert problems("nme=Ayanda", location="form")[0] == {
        "loc": ["body", "nme"], "msg": "Unknown parameter 'nme'; did you mean 'name'?", "type": "extra_forbidden"}


def test_the_filter_arguments_load_into_the_filter_core_parses():
    app = Flask(__name__)
    query = "segment=dormant&segment=super_fan&channel_type=2&tags=vip,music&opt_in=yes&peak_hour=7"
    with app.test_request_context(f"/?{query}"):
        flt = parser.parse(FilterArgs, location="query")["flt"]
    assert flt == parse_filters({"segment": ["dormant", "super_fan"], "channel_type": ["2"], "tags": ["vip,music"],
                                 "opt_in": ["yes"], "peak_hour": ["7"]})


def test_a_filter_value_is_refused_in_cores_words():
    assert problems("segment=fans", FilterArgs)[0]["msg"].startswith("Must be one of:")
