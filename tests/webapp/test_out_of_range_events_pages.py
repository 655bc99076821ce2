"""The dashboard of a station one of whose listeners has interactions stored outside the accepted range (0001-01-01,
1899-12-31, 9999-12-31, any int64) or after the run's `now`: the listener's pages, the overview and every page that
reads the station's events answer, never 5xx; the timeline shows only the interactions in range."""
from __future__ import annotations

import re

import pytest

from core.access.users import create_user
from core.segmentation.rules import SEGMENTS
from tests.out_of_range import PLACEHOLDER, out_of_range_station
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

LISTENER = f"/stations/1/listeners/{PLACEHOLDER}"
IN_RANGE = 9
"""The placeholder listener's interactions in range: 8 ordinary ones and the one three days after NOW."""


@pytest.fixture(params=[True, False], ids=["segmented since", "stored after the last run"])
def signed_in(client, app, request):
    """A producer of the station, signed in."""
    out_of_range_station(1, segmented_since=request.param)
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def pages() -> list[tuple[str, str]]:
    """(method, path) of the listener's pages, the overview and the pages that read the station's events."""
    return [("get", LISTENER), ("get", f"{LISTENER}/similar"), ("get", f"{LISTENER}/ai"), ("post", f"{LISTENER}/ai"),
            ("get", "/stations/1/"), ("get", "/stations/1/segmentation"), ("get", "/stations/1/ai"),
            ("post", "/stations/1/ai"), *[("get", f"/stations/1/segments/{key}") for key in SEGMENTS],
            ("get", "/stations/1/explorer"), ("get", "/stations/1/explorer/export.csv"),
            ("get", "/stations/1/explorer/export.json"), ("get", "/stations/1/search?q=praise+and+worship")]


def test_no_page_fails_for_a_listener_with_interactions_outside_the_accepted_range(signed_in):
    found = []
    for method, path in pages():
        answer = getattr(signed_in, method)(path)
        answer.get_data()  # an export fails while it is read, after its status
        if answer.status_code >= 400:
            found.append(f"{method.upper()} {path}: {answer.status_code}")
    assert found == []


def test_the_timeline_shows_only_the_interactions_in_range(signed_in):
    html = signed_in.get(LISTENER).text
    assert len(re.findall(r'data-testid="interaction"', html)) == IN_RANGE
    assert not re.search(r"\b(9999|1899)\b", html)  # a year; not a tooltip's random id ("tip-89999351")
