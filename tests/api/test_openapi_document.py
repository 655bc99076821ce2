"""The OpenAPI document describes what the server sends: error bodies as {"detail": ...}, every status an operation
can answer, integer bounds, the `db` aliases, /health; and 405 answers carry Allow."""
from __future__ import annotations

import re

import pytest

from core.db.connection import ALIASES
from core.explore.operations import MAX_PAGE
from core.explore.spec import EXCLUSIONS
from tests.api.document import documented_operations, openapi_document

DOCUMENT = openapi_document()


def operation(method: str, path: str) -> dict:
    return DOCUMENT["paths"][path][method.lower()]


def parameters(method: str, path: str) -> list[dict]:
    """Path-level and operation parameters of one operation."""
    return DOCUMENT["paths"][path].get("parameters", []) + operation(method, path).get("parameters", [])


def test_error_bodies_are_detail_not_the_librarys_code_status_message():
    schemas = DOCUMENT["components"]["schemas"]
    assert set(schemas["Error"]["properties"]) == {"detail"}
    assert schemas["Error"]["properties"]["detail"]["type"] == "string"
    assert set(schemas["ValidationItem"]["properties"]) == {"loc", "msg", "type"}
    detail = schemas["ValidationError"]["properties"]["detail"]
    assert detail["type"] == "array" and detail["items"] == {"$ref": "#/components/schemas/ValidationItem"}


@pytest.mark.parametrize("method, path", documented_operations())
def test_every_operation_lists_each_error_it_can_answer_and_no_catch_all(method, path):
    responses = operation(method, path)["responses"]
    expected = {"422", "503"} | ({"401"} if not path.startswith("/health") else set()) \
        | ({"403"} if "{company_id}" in path else set()) | ({"404"} if "{" in path else set())
    assert expected <= set(responses) and "default" not in responses


def test_422_is_documented_with_the_detail_array_and_503_with_retry_after():
    responses = DOCUMENT["components"]["responses"]
    assert responses["UNPROCESSABLE_ENTITY"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ValidationError"}
    assert responses["SERVICE_UNAVAILABLE"]["headers"]["Retry-After"]["required"] is True


@pytest.mark.parametrize("method, path", documented_operations())
def test_every_integer_parameter_has_its_bounds(method, path):
    for param in parameters(method, path):
        schema = param["schema"].get("items", param["schema"])
        if schema.get("type") == "integer":
            assert {"minimum", "maximum"} <= schema.keys(), param["name"]


def test_page_has_a_documented_maximum_and_channel_type_refuses_0_as_the_parser_does():
    params = {p["name"]: p["schema"] for p in parameters("GET", "/api/v1/segments/{company_id}/filter")}
    assert params["page"]["maximum"] == MAX_PAGE
    assert params["channel_type"]["items"]["minimum"] == 1


def test_db_is_an_enum_of_the_configured_aliases():
    db = next(p for p in parameters("GET", "/api/v1/listeners/{company_id}/{originator}") if p["name"] == "db")
    assert db["schema"]["enum"] == list(ALIASES)


def test_free_text_parameters_say_they_may_not_be_blank():
    params = {p["name"]: p["schema"] for p in parameters("GET", "/api/v1/segments/{company_id}/filter")}
    assert params["name"]["minLength"] == 1 and params["location"]["items"]["minLength"] == 1


@pytest.mark.db
@pytest.mark.parametrize("value, refused", [(",", True), (" , ", True), ("vip,", False), ("vip", False)])
def test_a_list_of_all_of_values_is_documented_as_refused_when_it_names_none(client, station, key_for, value, refused):
    params = {p["name"]: p["schema"] for p in parameters("GET", "/api/v1/segments/{company_id}/filter")}
    for name in ("tags", "inferred_interests"):
        answer = client.get("/api/v1/segments/1/filter", headers=key_for(1), query_string={name: value})
        assert (answer.status_code == 422) is refused
        assert (re.search(params[name]["pattern"], value) is None) is refused  # the document says what the server does


def test_health_documents_its_200_and_503_bodies_and_needs_no_key():
    health = operation("GET", "/health")
    assert health["security"] == []
    for status in ("200", "503"):
        assert health["responses"][status]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Health"}
    assert "Retry-After" in health["responses"]["503"]["headers"]


@pytest.mark.db
def test_the_served_document_is_the_one_tested_here(client, app):
    assert client.get("/api/v1/openapi.json").get_json()["paths"] == DOCUMENT["paths"]


@pytest.mark.db
def test_a_405_from_the_api_carries_allow(client, app, key_for):
    response = client.post("/api/v1/segments/1/summary", headers=key_for(1))
    assert response.status_code == 405 and response.get_json() == {"detail": "Method not allowed"}
    assert "GET" in response.headers["Allow"]


@pytest.mark.db
def test_a_405_page_carries_allow(client, app):
    response = client.delete("/login")
    assert response.status_code == 405 and "GET" in response.headers["Allow"]


FILTERED = [("GET", "/api/v1/segments/{company_id}/filter"), ("GET", "/api/v1/segments/{company_id}/aggregate"),
            ("GET", "/api/v1/segments/{company_id}/completeness"),
            ("GET", "/api/v1/segments/{company_id}/cross-channel"), ("GET", "/api/v1/segments/{company_id}/export")]


@pytest.mark.parametrize("method, path", FILTERED)
def test_every_exclusion_is_documented_on_every_filtered_operation_like_its_filter(method, path):
    params = {p["name"]: p for p in parameters(method, path)}
    for name, included in EXCLUSIONS.items():
        assert params[name]["schema"] == params[included]["schema"], name
        assert params[name].get("explode") == params[included].get("explode")
        assert "leaves out" in params[name]["description"], name


def test_the_recommend_body_takes_every_exclusion():
    body = DOCUMENT["components"]["schemas"]["RecommendRequest"]["properties"]
    assert set(EXCLUSIONS) <= set(body)
    assert body["exclude_segment"]["items"]["enum"] == body["segment"]["items"]["enum"]


def test_every_success_of_the_contract_is_200_as_it_says_and_only_our_import_upload_is_202():
    successes = {(method.upper(), path): [code for code in operation["responses"] if code.startswith("2")]
                 for path, item in openapi_document()["paths"].items()
                 for method, operation in item.items() if method != "parameters"}
    assert successes.pop(("POST", "/api/v1/imports/{company_id}/{kind}")) == ["202"]
    assert all(codes == ["200"] for codes in successes.values()), successes
