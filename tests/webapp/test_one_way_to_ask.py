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
