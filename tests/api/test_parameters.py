"""Nothing a client sends is silently ignored (docs/decisions.md §3): unknown, repeated and empty query parameters,
numbers out of bounds, company ids that are not plain digits and unknown body fields are 422 naming them."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from flask import Flask
from marshmallow import fields

import api
from api.arguments import Blueprint, RequestSchema
from tests.api.document import documented_operations
from webapp import errors

PATH_VALUES = {"company_id": "1", "originator": "27820000001", "kind": "profiles", "job_id": "0" * 24,
               "segment_key": "super_fan", "audience_id": "an-audience", "rule_id": "a-rule",
               "webhook_id": "wh_a", "delivery_id": "dlv_a"}


def detail_of(response) -> list[dict]:
    assert response.status_code == 422, response.get_data(as_text=True)
    return response.get_json()["detail"]


@pytest.mark.db
def test_a_misspelt_filter_is_422_naming_the_closest_parameter_not_every_listener(client, station, key_for):
    detail = detail_of(client.get("/api/v1/segments/1/filter?segmnt=dormant", headers=key_for(1)))
    assert detail == [{"loc": ["query", "segmnt"], "msg": "Unknown parameter 'segmnt'; did you mean 'segment'?",
                       "type": "extra_forbidden"}]


@pytest.mark.db
def test_a_misspelt_filter_on_export_downloads_nobody(client, station, key_for):
    response = client.get("/api/v1/segments/1/export?format=csv&segmnt=dormant", headers=key_for(1))
    assert response.status_code == 422 and "Content-Disposition" not in response.headers


@pytest.mark.db
@pytest.mark.parametrize("method, path", documented_operations())
def test_every_documented_operation_refuses_an_unknown_parameter(client, station, key_for, method, path):
    url = path.format(**PATH_VALUES) + "?verbose=1"
    detail = detail_of(client.open(url, method=method, headers=key_for(1)))
    assert detail[0]["loc"] == ["query", "verbose"] and detail[0]["type"] == "extra_forbidden"


@pytest.mark.db
@pytest.mark.parametrize("query, param", [("page=1&page=2", "page"), ("name=a&name=b", "name"),
                                          ("opt_in=true&opt_in=false", "opt_in")])
def test_a_parameter_repeated_where_one_value_is_allowed_is_422(client, station, key_for, query, param):
    detail = detail_of(client.get(f"/api/v1/segments/1/filter?{query}", headers=key_for(1)))
    assert detail[0]["loc"] == ["query", param] and detail[0]["msg"] == "Give this parameter once."


@pytest.mark.db
def test_a_repeatable_filter_may_be_repeated(client, station, key_for):
    response = client.get("/api/v1/segments/1/filter?segment=dormant&segment=super_fan", headers=key_for(1))
    assert response.status_code == 200 and response.get_json()["total"] == 3


@pytest.mark.db
@pytest.mark.parametrize("page, status", [("1000000", 200), ("1000001", 422)])
def test_page_stays_within_its_documented_maximum(client, station, key_for, page, status):
    assert client.get(f"/api/v1/segments/1/filter?page={page}", headers=key_for(1)).status_code == status


@pytest.mark.db
@pytest.mark.parametrize("query", ["segment=", "last_interaction_before=", "name=%20%20", "page=", "format="])
def test_an_empty_value_is_422_not_an_absent_parameter(client, station, key_for, query):
    path = "export" if query.startswith("format") else "filter"
    detail = detail_of(client.get(f"/api/v1/segments/1/{path}?{query}", headers=key_for(1)))
    assert detail[0]["loc"] == ["query", query.split("=")[0]] and "Empty value" in detail[0]["msg"]


@pytest.mark.db
@pytest.mark.parametrize("written", [" 1", "+1", "١", "1_0", "01.0", "-1", "99999999999999999999"])
def test_company_id_is_plain_ascii_digits(client, station, key_for, written):
    response = client.get(f"/api/v1/segments/{quote(written)}/summary", headers=key_for(all_companies=True))
    assert detail_of(response)[0]["loc"] == ["path", "company_id"]


@pytest.mark.db
def test_a_company_id_with_leading_zeros_is_still_that_company(client, station, key_for):
    assert client.get("/api/v1/segments/01/summary", headers=key_for(1)).status_code == 200


class ShadeArgsSchema(RequestSchema):
    shade = fields.Str()


class PaintArgsSchema(RequestSchema):
    colour = fields.Str(required=True)
    coats = fields.Int()


def throwaway_app() -> Flask:
    """The API plus operations nobody wrote a check for, one with a query schema and a JSON body on the house's base,
    one declaring nothing (under /api/, so that errors are JSON, and outside /api/v1/, so that it needs no key)."""
    blp = Blueprint("throwaway", __name__, url_prefix="/api/throwaway")

    @blp.route("/paint", methods=["POST"])
    @blp.arguments(ShadeArgsSchema, location="query")
    @blp.arguments(PaintArgsSchema)
    def paint(query, body):
        """Paint"""
        return {**query, **body}

    @blp.route("/dry")
    def dry():
        """Nothing to declare"""
        return {}

    app = Flask(__name__)
    api.init_app(app).register_blueprint(blp)
    errors.register(app)
    return app


def test_a_new_operation_refuses_unknown_query_parameters_without_code_of_its_own():
    client = throwaway_app().test_client()
    assert client.post("/api/throwaway/paint?shade=dark", json={"colour": "red"}).get_json() == {
        "shade": "dark", "colour": "red"}
    detail = detail_of(client.post("/api/throwaway/paint?shde=dark", json={"colour": "red"}))
    assert detail[0]["msg"] == "Unknown parameter 'shde'; did you mean 'shade'?"


def test_a_new_operation_declaring_nothing_takes_nothing():
    client = throwaway_app().test_client()
    assert client.get("/api/throwaway/dry").status_code == 200
    assert detail_of(client.get("/api/throwaway/dry?wet=1"))[0]["msg"] == (
        "Unknown parameter 'wet'; this operation takes none.")


def test_a_body_schema_refuses_each_unknown_field_once_naming_the_closest():
    body = json.dumps({"colour": "red", "cotas": 2, "shine": "gloss\u0000"})
    response = throwaway_app().test_client().post("/api/throwaway/paint", data=body, content_type="application/json")
    assert sorted(detail_of(response), key=lambda item: item["loc"]) == [
        {"loc": ["body", "cotas"], "msg": "Unknown field 'cotas'; did you mean 'coats'?", "type": "extra_forbidden"},
        {"loc": ["body", "shine"], "msg": "Unknown field 'shine'; known: coats, colour.", "type": "extra_forbidden"}]


@pytest.mark.db
def test_each_unknown_body_field_is_one_problem_whatever_its_value(client, station, key_for):
    body = {"name": "Gospel", "theme": "gospel lovers", "colour": "red\u0000", "nme": 1}
    detail = detail_of(client.post("/api/v1/audiences/1", json=body, headers=key_for(1)))
    assert sorted((item["loc"][1], item["type"]) for item in detail) == [("colour", "extra_forbidden"),
                                                                         ("nme", "extra_forbidden")]
