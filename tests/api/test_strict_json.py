"""Strict JSON everywhere, in one place (issue 47): a key given twice, a number more precise than its field allows and a
text longer than its field holds are refused at their place, nothing is written, and the OpenAPI document states every
bound of every request body."""
from __future__ import annotations

import io
import json

import pytest

from core.config import active
from core.credits.ledger import account
from tests.api.document import openapi_document
from tests.api.test_live_interactions import interaction
from tests.factories import make_company

pytestmark = pytest.mark.db

LOAD = "/api/v1/agent/1/credits/load"
LIVE = "/api/v1/interactions/1"


@pytest.fixture
def admin(app, key_for):
    """Company 1's key with the admin key, to load credits."""
    return {**key_for(1), "X-Admin-Key": active().admin_key, "Content-Type": "application/json"}


@pytest.mark.parametrize(("raw", "loc"), [
    ('{"credits": 1, "credits": 999999}', ["body", "credits"]),
    ('{"credits": 999999, "credits": 1}', ["body", "credits"]),
    ('{"credits": 5, "note": {"why": "a", "why": "b"}}', ["body", "note", "why"]),
], ids=["top level, last one large", "top level, first one large", "nested"])
def test_a_key_given_twice_is_422_at_its_place_and_loads_nothing(client, admin, raw, loc):
    answer = client.post(LOAD, headers=admin, data=raw)
    assert answer.status_code == 422
    [item] = answer.get_json()["detail"]
    assert item["loc"] == loc and f"'{loc[-1]}'" in item["msg"]
    assert account(1)["balance"] == 0


def test_a_live_row_with_a_key_given_twice_is_422_at_the_row_and_stores_nothing(client, key_for, station):
    row = json.dumps(interaction("27829990001"))[:-1] + ', "campaign_type": "competition"}'
    answer = client.post(LIVE, headers={**key_for(1), "Content-Type": "application/json"}, data=f"[{row}]")
    assert answer.status_code == 422
    assert answer.get_json()["detail"][0]["loc"] == ["body", 0, "campaign_type"]
    assert client.get("/api/v1/listeners/1/27829990001", headers=key_for(1)).status_code == 404


@pytest.mark.parametrize(("written", "status"), [
    ("0.30000000000000004", 422), ("1.005", 422), ("0.300000000000000001", 422), ("12.345", 422),
    ("0.3", 200), ("10", 200), ("10.5", 200), ("1e2", 200), ("10.50", 200),
])
def test_credits_are_loaded_only_when_written_with_at_most_2_decimals(client, admin, written, status):
    answer = client.post(LOAD, headers=admin, data=f'{{"credits": {written}}}')
    assert answer.status_code == status, answer.get_json()
    if status == 422:
        assert answer.get_json()["detail"][0]["loc"] == ["body", "credits"]
    assert account(1)["balance"] == (float(written) if status == 200 else 0)


def mapped_preview(client, headers, mapping: str):
    """A preview whose `mapping` part is sent as written (a duplicate key survives no json.dumps)."""
    data = {"file": (io.BytesIO(b"Name,Cell\nThandi,082 123 4567\n"), "people.csv"), "mapping": mapping}
    return client.post("/api/v1/imports/1/profiles/preview", headers=headers, data=data,
                       content_type="multipart/form-data")


def test_a_mapping_with_a_column_given_twice_is_422_naming_the_column(client, key_for, app):
    make_company(1)
    answer = mapped_preview(client, key_for(1), '{"Cell": "mobile_number", "Name": "name", "Cell": "name"}')
    assert answer.status_code == 422
    [item] = answer.get_json()["detail"]
    assert item["loc"] == ["mapping", "Cell"] and "'Cell'" in item["msg"]


@pytest.mark.parametrize("mapping", ['{"Cell": ' + "[" * 5000 + "]" * 5000 + "}", '{"Cell": ' + "1" * 5000 + "}"],
                         ids=["nested 5,000 deep", "a 5,000-digit integer"])
def test_a_mapping_nested_5000_deep_or_with_a_5000_digit_integer_is_422(client, key_for, app, mapping):
    make_company(1)
    answer = mapped_preview(client, key_for(1), mapping)
    assert answer.status_code == 422
    assert answer.get_json()["detail"][0]["loc"][0] == "mapping"


def test_a_live_campaign_type_of_100000_characters_refuses_that_row_and_stores_the_others(client, key_for, station):
    rows = [interaction("27829990001"), interaction("27829990002", campaign_type="x" * 100_000),
            interaction("27829990003")]
    answer = client.post(LIVE, headers=key_for(1), json=rows)
    assert answer.status_code == 200
    assert [row["status"] for row in answer.get_json()["rows"]] == ["stored", "bad", "stored"]
    [reason] = answer.get_json()["rows"][1]["reasons"]
    assert "campaign_type" in reason and "100 characters" in reason and "xxxx" not in reason
    assert client.get("/api/v1/listeners/1/27829990002", headers=key_for(1)).status_code == 404


def test_a_live_message_of_100000_characters_is_left_out_with_a_warning_and_the_row_is_stored(client, key_for,
                                                                                                station):
    answer = client.post(LIVE, headers=key_for(1), json=[interaction("27829990001", message="y" * 100_000)])
    [row] = answer.get_json()["rows"]
    assert row["status"] == "stored"
    assert [warning["field"] for warning in row["warnings"]] == ["message"]
    assert "4,096 characters" in row["warnings"][0]["reason"]


def test_an_unknown_body_field_is_reported_once_naming_the_closest_known_one(client, key_for, app):
    body = {"kind": "below", "metric": "total", "threshold": 5, "webhok": True,
            "email": {"to": ["producer@station.co.za"], "at_onse": True}}
    answer = client.post("/api/v1/alerts/1", headers=key_for(1), json=body)
    assert answer.status_code == 422
    assert sorted(answer.get_json()["detail"], key=lambda item: item["loc"]) == [
        {"loc": ["body", "email", "at_onse"], "msg": "Unknown field 'at_onse'; did you mean 'at_once'?",
         "type": "extra_forbidden"},
        {"loc": ["body", "webhok"], "msg": "Unknown field 'webhok'; did you mean 'webhook'?",
         "type": "extra_forbidden"}]


@pytest.mark.parametrize("raw", ["[" * 5000 + "]" * 5000, '{"email": ' + "1" * 5000 + "}",
                                 '{"email": "a@b.co", "email": "c@d.co"}'])
def test_a_page_posted_as_json_the_reader_refuses_is_400_never_500(client, raw):
    answer = client.post("/login", data=raw, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400


DOCUMENT = openapi_document()


def _resolved(schema: dict) -> dict:
    while "$ref" in schema:
        schema = DOCUMENT["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def unbounded(schema: dict, at: str) -> list[str]:
    """Where a string has no maxLength or a number no maximum, in a request body's schema ($ref resolved); a file's
    bound is MAX_UPLOAD_MB, a setting answered 413, which the document lists on every operation with a body."""
    found, stack = [], [(schema, at)]
    while stack:
        schema, at = stack.pop()
        schema = _resolved(schema)
        kind = schema.get("type")
        if kind == "string" and "maxLength" not in schema and schema.get("format") != "binary":
            found.append(at)
        if kind in ("number", "integer") and "maximum" not in schema:
            found.append(at)
        stack.extend((sub, f"{at}|{i}") for i, sub in enumerate(schema.get("anyOf", []) + schema.get("oneOf", [])))
        stack.extend((sub, f"{at}.{name}") for name, sub in schema.get("properties", {}).items())
        for part in ("items", "additionalProperties"):
            if isinstance(schema.get(part), dict):
                stack.append((schema[part], f"{at}[{part}]"))
    return found


REQUEST_BODIES = [pytest.param(content["schema"], id=f"{method.upper()} {path} {kind}")
                  for path, item in DOCUMENT["paths"].items() for method, operation in item.items()
                  if method != "parameters"
                  for kind, content in operation.get("requestBody", {}).get("content", {}).items()]


@pytest.mark.parametrize("schema", REQUEST_BODIES)
def test_every_string_of_every_request_body_has_a_max_length_and_every_number_a_maximum(schema):
    assert unbounded(schema, "body") == []
