"""A page and the API ask in one way: the same defaults, the same refusals (issue 50, item 2)."""
from __future__ import annotations

import re

import pytest

from core.access.api_keys import create_key
from tests.webapp.test_search_page import found, signed_in, station  # noqa: F401 - fixtures

pytestmark = pytest.mark.db


def api_key() -> dict:
    return {"X-API-Key": create_key([1], name="page and api")[1]}


def test_the_page_searches_with_the_apis_default_lowest_score(signed_in):  # noqa: F811 - the fixture
    answer = signed_in.get("/api/v1/segments/1/search?q=gospel%20choir", headers=api_key()).get_json()
    page = signed_in.get("/stations/1/search?q=gospel%20choir").text
    shown = re.search(r'name="min_score" value="([^"]+)"', page).group(1)
    assert float(shown) == answer["min_score"]
    assert found(page) == [listener["originator"] for listener in answer["results"]]


def refusal(answer) -> list[str]:
    return [item["msg"] for item in answer.get_json()["detail"]]


def test_the_explorer_and_the_api_refuse_an_unknown_parameter_alike(signed_in):  # noqa: F811 - the fixture
    api = signed_in.get("/api/v1/segments/1/filter?segmnt=loyal", headers=api_key())
    page = signed_in.get("/stations/1/explorer?segmnt=loyal")
    said = "Unknown parameter 'segmnt'; did you mean 'segment'?"
    assert api.status_code == 422 and refusal(api) == [said]
    assert said.replace("'", "&#39;") in page.text and 'data-testid="filter-problems"' in page.text


def test_a_page_refuses_a_value_given_twice_as_the_api_does(signed_in):  # noqa: F811 - the fixture
    api = signed_in.get("/api/v1/segments/1/filter?page_size=25&page_size=50", headers=api_key())
    explorer = signed_in.get("/stations/1/explorer?page_size=25&page_size=50")
    segment = signed_in.get("/stations/1/segments/super_fan?weeks=4&weeks=13")
    assert api.status_code == 422 and refusal(api) == ["Give this parameter once."]
    assert "Give this parameter once." in explorer.text
    assert segment.status_code == 422 and "Give this parameter once." in segment.text


def test_a_page_that_asks_nothing_refuses_a_name_in_its_address_as_the_api_does(signed_in):  # noqa: F811
    api = signed_in.get("/api/v1/alerts/1?rule=1", headers=api_key())
    page = signed_in.get("/stations/1/alerts?rule=1")
    assert api.status_code == page.status_code == 422
    assert refusal(api)[0].replace("'", "&#39;") in page.text
    assert signed_in.get("/stations/1/alerts").status_code == 200
    assert signed_in.get("/stations/1/alerts", headers={"HX-Request": "true"}).status_code == 200
