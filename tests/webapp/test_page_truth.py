"""Issue 49, item 1: every figure a page shows agrees with the API and with a reference the test computes from the
rows it inserted. A small generated station (listeners first heard in known weeks, three of them long before),
segmented and its past rebuilt; the overview's new listeners per week, a segment page's count and the latest of
its trend table, and the listener page's last interaction are read from the pages and checked."""
from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.access.api_keys import create_key
from core.access.users import create_user
from core.clock import utcnow
from core.history.rebuild import rebuild_history
from core.segmentation.runs import segment_company
from tests.factories import make_company, make_listener
from tests.memory import event
from tests.webapp.conftest import PASSWORD
from tests.webapp.test_trends_pages import chart_of, series, table

pytestmark = pytest.mark.db

TZ = "Africa/Johannesburg"
FIRST_HEARD_DAYS_AGO = {"27820000001": 400, "27820000002": 300, "27820000003": 200, "27820000004": 22,
                        "27820000005": 15, "27820000006": 9, "27820000007": 1}


@pytest.fixture
def station(app, client):
    """Company 1 (Johannesburg): each listener heard first that many days ago and then every few days until a day
    ago; segmented now and its past rebuilt; a producer signed in."""
    now = utcnow()
    make_company(1, name="Truth FM", timezone=TZ)
    firsts = {}
    for originator, first in FIRST_HEARD_DAYS_AGO.items():
        days = sorted({first, *range(1, first, 5)})
        make_listener(1, originator, [event(d, now=now) for d in days])
        firsts[originator] = now - timedelta(days=first)
    segment_company(1, now)
    rebuild_history(1, now)
    create_user("truth@fm.test", PASSWORD, companies=[1], name="Truth")
    client.post("/login", data={"email": "truth@fm.test", "password": PASSWORD})
    return firsts


def week_of(moment) -> str:
    """The ISO week of a moment in the station's zone."""
    year, week, _ = moment.astimezone(ZoneInfo(TZ)).isocalendar()
    return f"{year}-{week:02d}"


def test_new_listeners_per_week_on_the_overview_are_those_first_heard_that_week(client, station):
    reference = Counter(week_of(first) for first in station.values())
    key = {"X-API-Key": create_key([1], name="truth")[1]}
    api = client.get("/api/v1/segments/1/history?interval=week", headers=key).get_json()["points"]
    by_api = {week_of_date(date.fromisoformat(p["date"])): p["new"] for p in api}
    assert by_api == {week: reference.get(week, 0) for week in by_api}
    drawn = series(chart_of(client.get("/stations/1/").text, "new-lost"), "New")
    assert [int(n) for n in drawn] == [p["new"] for p in api][-len(drawn):]
    assert sum(int(n) for n in drawn) < len(station)  # the long-time listeners are never new


def week_of_date(day) -> str:
    year, week, _ = day.isocalendar()
    return f"{year}-{week:02d}"


def test_a_segment_page_s_count_is_its_trend_table_s_latest_and_the_api_s(client, station):
    key = {"X-API-Key": create_key([1], name="truth")[1]}
    summary = client.get("/api/v1/segments/1/summary", headers=key).get_json()
    counted = Counter(summary["segments"])
    segment = max(counted, key=counted.get)
    html = client.get(f"/stations/1/segments/{segment}").text
    size = int(re.search(r'data-testid="segment-size">([\d,]+)<', html).group(1).replace(",", ""))
    latest = table(chart_of(html, "sizes"))[0][0]
    assert size == int(latest.replace(",", "")) == summary["segments"][segment]
    explorer = client.get(f"/stations/1/explorer?segment={segment}").text
    assert re.search(r'data-testid="match-count">([\d,]+)<', explorer).group(1) == f"{size:,}"


def test_the_listener_page_names_the_day_of_the_last_interaction_as_its_time_says(client, station):
    html = client.get("/stations/1/listeners/27820000007").text  # last heard exactly 24 hours ago
    tile = html[html.index('data-testid="behaviour"'):]
    assert re.search(r'class="tile-text">Yesterday</strong>', tile)
    said = re.findall(r"[Ll]ast (?:interaction|one|heard from) (today|yesterday)", html)
    assert said and set(said) == {"yesterday"}
