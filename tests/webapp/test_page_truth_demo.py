"""Issue 49, item 1, on the demo station (300 listeners, the generator's own seed): the overview's new listeners per
week are those whose first interaction, in the generator's rows read by this test, falls in that week; the overview's
distribution, each segment page's count, the latest of its trend table and the explorer agree with the API."""
from __future__ import annotations

import re
from collections import Counter
from datetime import datetime

import pytest

from core.access.api_keys import create_key
from core.access.users import create_user
from core.clock import utcnow
from core.demo.seed import seed_demo
from core.demo.station import generate_station
from core.history.rebuild import rebuild_history
from tests.webapp.conftest import PASSWORD
from tests.webapp.test_page_truth import week_of, week_of_date
from tests.webapp.test_trends_pages import chart_of, series, table

pytestmark = pytest.mark.db

LISTENERS, SEED = 300, 7


@pytest.fixture(scope="module")
def moment():
    return utcnow()


@pytest.fixture
def demo(app, client, moment):
    """The demo station seeded as of `moment`, its past rebuilt, a producer signed in; the first time each listener
    was heard, from the generator's rows."""
    seed_demo(1, LISTENERS, SEED, now=moment)
    rebuild_history(1, moment)
    create_user("truth@demo.test", PASSWORD, companies=[1], name="Truth")
    client.post("/login", data={"email": "truth@demo.test", "password": PASSWORD})
    first: dict[str, datetime] = {}
    for row in generate_station(1, LISTENERS, SEED, moment).interactions():
        heard = datetime.fromisoformat(row["timestamp"])
        first[row["originator"]] = min(first.get(row["originator"], heard), heard)
    return first


def test_the_demo_s_new_listeners_per_week_are_those_first_heard_that_week(client, demo):
    reference = Counter(week_of(heard) for heard in demo.values())
    key = {"X-API-Key": create_key([1], name="truth")[1]}
    points = client.get("/api/v1/segments/1/history?interval=week", headers=key).get_json()["points"]
    by_api = {week_of_date(datetime.fromisoformat(p["date"]).date()): p["new"] for p in points}
    assert by_api == {week: reference.get(week, 0) for week in by_api}
    assert sum(by_api.values()) > 0  # the demo's newcomers of the last weeks are counted, in their weeks
    drawn = series(chart_of(client.get("/stations/1/").text, "new-lost"), "New")
    assert [int(n) for n in drawn] == [p["new"] for p in points][-len(drawn):]


def test_every_segment_page_of_the_demo_agrees_with_its_trend_the_api_and_the_explorer(client, demo):
    key = {"X-API-Key": create_key([1], name="truth")[1]}
    segments = client.get("/api/v1/segments/1/summary", headers=key).get_json()["segments"]
    assert sum(segments.values()) == len(demo)
    for segment, count in segments.items():
        html = client.get(f"/stations/1/segments/{segment}").text
        size = int(re.search(r'data-testid="segment-size">([\d,]+)<', html).group(1).replace(",", ""))
        latest = int(table(chart_of(html, "sizes"))[0][0].replace(",", ""))
        explorer = client.get(f"/stations/1/explorer?segment={segment}").text
        shown = int(re.search(r'data-testid="match-count">([\d,]+)<', explorer).group(1).replace(",", ""))
        assert (segment, size, latest, shown) == (segment, count, count, count)
