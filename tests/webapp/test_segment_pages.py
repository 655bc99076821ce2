"""A segment's page over HTTP: its address, what its bars are a share of, and values too rare for a share."""
from __future__ import annotations

import re

import pytest

from core.access.users import create_user
from core.segmentation.runs import segment_company
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db


@pytest.fixture
def signed_in(client, app):
    """Jozi FM: 24 super fans, 21 of them women and 3 men; its producer signed in."""
    make_company(1, name="Jozi FM")
    for n in range(24):
        make_listener(1, f"2782000{n:04d}", [event(0.5 + 0.7 * i, channel=1 + i % 2) for i in range(20)],
                      gender="female" if n < 21 else "male")
    segment_company(1, NOW)
    create_user("thandi@jozi.fm", PASSWORD, companies=[1])
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def gender_rows(html: str) -> dict[str, str]:
    chart = html[html.index('data-testid="profile-gender"'):]
    chart = chart[:chart.index("</ul>")]
    return dict(re.findall(r'class="bar-label"[^>]*>([^<]+)</a>\s*<span class="(bar|bar-few)"', chart))


def test_a_value_of_fewer_than_twenty_listeners_is_a_count_and_a_common_one_a_bar(signed_in):
    html = signed_in.get("/stations/1/segments/super_fan").text
    rows = gender_rows(html)
    assert rows == {"Female": "bar", "Male": "bar-few"}
    assert re.search(r'data-testid="few">3 listeners<', html)


def test_the_bars_say_which_listeners_they_are_a_share_of(signed_in):
    whole = signed_in.get("/stations/1/segments/super_fan").text
    assert re.search(r'data-testid="bars-base">Bars: share of the 24 listeners in the segment', whole)
    sampled = signed_in.get("/stations/1/segments/super_fan?limit=10").text
    assert re.search(r'data-testid="bars-base">Bars: share of the 10 most engaged of the 24 listeners', sampled)
