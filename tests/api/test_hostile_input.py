"""Nothing a client sends reaches a 500: JSON nested deeper than any body needs, numbers beyond a float, NaN, integers
of thousands of digits, keys given twice, bodies that are not JSON at all, lone surrogates and NUL in any text, long
filters. Each is refused with a JSON `detail` (422, or 400 for a body that is not JSON), documented in the OpenAPI
document, and nothing is written. (Request lines and headers: tests/cli/test_served_bounds.py.)"""
from __future__ import annotations

import pytest

from core.config import active
from core.credits.ledger import account, check
from core.text.strict_json import MAX_DEPTH
from tests.api.document import openapi_document

pytestmark = pytest.mark.db

JSON_BODIES = sorted((method.upper(), path) for path, item in openapi_document()["paths"].items()
                     for method, operation in item.items() if method != "parameters"
                     and "application/json" in operation.get("requestBody", {}).get("content", {}))


@pytest.fixture
def headers(app, key_for):
    """Company 1's key with the admin key: every operation can be reached."""
    return {**key_for(1), "X-Admin-Key": active().admin_key, "Content-Type": "application/json"}


def send(client, headers, method: str, path: str, raw: str):
    return client.open(path.replace("{company_id}", "1").replace("{audience_id}", "a").replace("{originator}", "x"),
                       method=method, headers=headers, data=raw)


@pytest.mark.parametrize(("method", "path"), JSON_BODIES)
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 100_000])
def test_json_nested_deeper_than_any_body_needs_is_422_on_every_json_operation(client, headers, method, path, depth):
    answer = send(client, headers, method, path, "[" * depth + "]" * depth)
    assert answer.status_code == 422, answer.get_data(as_text=True)[:200]
    assert answer.get_json()["detail"][0]["loc"] == ["body"]


@pytest.mark.parametrize(("method", "path"), JSON_BODIES)
@pytest.mark.parametrize("number", ["1e400", "-1e400", "NaN", "Infinity"])
def test_a_number_beyond_a_float_or_not_json_at_all_is_422_on_every_json_operation(client, headers, method, path,
                                                                                    number):
    answer = send(client, headers, method, path, f'{{"credits": {number}, "brief": "x", "theme": "x"}}')
    assert answer.status_code == 422, answer.get_data(as_text=True)[:200]


@pytest.mark.parametrize(("method", "path"), JSON_BODIES)
@pytest.mark.parametrize("raw", ['{"credits": ' + "1" * 5000 + ', "brief": "x", "theme": "x"}',
                                 '{"credits": -' + "9" * 5000 + ', "brief": "x", "theme": "x"}',
                                 '{"credits": 1, "brief": "x", "theme": "x", "credits": 2}'],
                         ids=["a 5,000-digit integer", "a negative one", "a key given twice"])
def test_a_5000_digit_integer_or_a_key_given_twice_is_422_at_its_place_on_every_json_operation(client, headers,
                                                                                               method, path, raw):
    answer = send(client, headers, method, path, raw)
    assert answer.status_code == 422, answer.get_data(as_text=True)[:200]
    assert answer.get_json()["detail"][0]["loc"] == ["body", "credits"]
    assert account(1)["balance"] == 0


@pytest.mark.parametrize(("method", "path"), JSON_BODIES)
@pytest.mark.parametrize("raw", ["{", '{"credits": 1,}', "{'credits': 1}", b"\xff\xfe{}"])
def test_a_body_that_is_not_json_at_all_is_400_on_every_json_operation(client, headers, method, path, raw):
    answer = send(client, headers, method, path, raw)
    assert answer.status_code == 400
    assert answer.get_json() == {"detail": "Malformed JSON body"}


def test_a_load_of_1e308_credits_is_422_and_loads_nothing(client, headers):
    answer = client.post("/api/v1/agent/1/credits/load", headers=headers, data='{"credits": 1e308}')
    assert answer.status_code == 422
    assert answer.get_json()["detail"][0]["loc"] == ["body", "credits"]
    assert account(1)["balance"] == 0


@pytest.mark.parametrize(("method", "path", "raw", "loc"), [
    ("POST", "/api/v1/agent/1/recommend", '{"brief": "gospel \\ud800 fans"}', ["body", "brief"]),
    ("POST", "/api/v1/agent/1/recommend", '{"brief": "gospel fans", "tags": "\\udfff"}', ["body", "tags"]),
    ("POST", "/api/v1/agent/1/recommend", '{"brief": "gospel", "location": ["Durban", "\\ud800"]}',
     ["body", "location", 1]),
    ("POST", "/api/v1/agent/1/parse-brief", '{"brief": "nul \\u0000 here"}', ["body", "brief"]),
    ("PATCH", "/api/v1/agent/1/credits/pause", '{"paused": true, "reason": "\\ud800"}', ["body", "reason"]),
    ("POST", "/api/v1/agent/1/credits/load", '{"credits": 5, "note": "\\ud800"}', ["body", "note"]),
    ("POST", "/api/v1/audiences/1", '{"name": "Gospel \\ud800", "theme": "gospel"}', ["body", "name"]),
    ("POST", "/api/v1/ai/segments/1/custom-segment", '{"theme": "gospel \\u0000"}', ["body", "theme"]),
])
def test_a_lone_surrogate_or_nul_in_any_text_is_422_at_its_place_and_nothing_is_written(client, headers, method,
                                                                                        path, raw, loc):
    answer = client.open(path, method=method, headers=headers, data=raw)
    assert answer.status_code == 422, answer.get_json()
    assert loc in [item["loc"] for item in answer.get_json()["detail"]]
    assert account(1)["balance"] == 0 and account(1)["paused"] is False and check(1)["agrees"]


@pytest.mark.parametrize("query", ["name=%00", "location=Dur%00ban", "tags=a%00b", "segment=dormant%00"])
def test_nul_in_a_query_value_is_422_naming_the_parameter(client, headers, query):
    answer = client.get(f"/api/v1/segments/1/filter?{query}", headers=headers)
    assert answer.status_code == 422
    assert answer.get_json()["detail"][0]["loc"] == ["query", query.partition("=")[0]]


def test_a_live_row_with_an_unstorable_message_is_kept_with_a_warning_not_refused_with_the_batch(client, station,
                                                                                                 headers):
    row = ('{"company_id": 1, "originator": "27821234567", "timestamp": "2026-11-20T10:00:00", "channel_type": 1, '
           '"campaign_type": "song_request", "message": "hi \\ud800"}')
    answer = client.post("/api/v1/interactions/1", headers=headers, data=f"[{row}]")
    assert answer.status_code == 200
    assert answer.get_json()["rows"][0]["status"] == "stored"
    assert answer.get_json()["rows"][0]["warnings"][0]["field"] == "message"


def test_a_filter_with_many_values_over_gunicorns_old_4094_bytes_is_answered(client, station, headers):
    query = "&".join(f"location=Place%20number%20{n}" for n in range(400))
    assert len(query) > 8_000
    assert client.get(f"/api/v1/segments/1/aggregate?{query}", headers=headers).status_code == 200


def test_every_operation_documents_414_and_431_and_every_body_operation_413():
    for path, item in openapi_document()["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                assert {"414", "431"} <= set(operation["responses"]), f"{method} {path}"
                assert ("413" in operation["responses"]) == ("requestBody" in operation), f"{method} {path}"
