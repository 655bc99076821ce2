"""Help and the page shell over HTTP: the glossary, the explanations beside labels, charts as tables, the favicon, and
what the issue asked to go (the password placeholder, the second "Last interaction")."""
from __future__ import annotations

import re

import pytest
from markupsafe import escape

from core.access.users import create_user
from core.explore.glossary import TEXTS
from core.explore.spec import SPEC
from core.segmentation.rules import SEGMENTS
from core.segmentation.runs import segment_company
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

FAN = "27820000001"


@pytest.fixture
def signed_in(client, app):
    """Jozi FM with a super fan and a dormant listener, segmented; its producer signed in."""
    make_company(1, name="Jozi FM")
    make_listener(1, FAN, [event(0.5 + 0.7 * i, channel=1 + i % 2) for i in range(20)], name="Ayanda Dlamini")
    make_listener(1, "27820000002", [event(120)], name="Dineo Moloi")
    segment_company(1, NOW)
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def test_the_glossary_explains_every_segment_measure_and_filter(signed_in):
    html = signed_in.get("/glossary").text
    for kind, texts in TEXTS.items():
        for key, text in texts.items():
            assert str(escape(text)) in html, (kind, key)
    assert set(re.findall(r'data-testid="glossary-segment" data-key="([a-z_]+)"', html)) == set(SEGMENTS)
    assert set(re.findall(r'data-testid="glossary-filter" data-key="([a-z_]+)"', html)) == set(SPEC)


def test_the_glossary_is_for_signed_in_users(client, app):
    response = client.get("/glossary")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


@pytest.mark.parametrize("path", ["/stations/1/", "/stations/1/explorer", f"/stations/1/listeners/{FAN}"])
def test_every_page_links_the_glossary_from_its_navigation(signed_in, path):
    html = signed_in.get(path).text
    assert re.search(r'<nav class="nav" aria-label="Help">\s*<a [^>]*href="/glossary\?station=1"', html)


def station_menu(html: str) -> list[str]:
    return re.findall(r'href="(/stations/1/[a-z]*)"', html)


def test_the_glossary_keeps_the_menu_of_the_station_it_was_opened_from(signed_in):
    html = signed_in.get("/glossary?station=1").text
    assert "/stations/1/explorer" in station_menu(html) and 'data-testid="station-name"' in html


def test_the_glossary_of_a_producer_of_one_station_is_in_that_station_even_when_typed(signed_in):
    assert "/stations/1/explorer" in station_menu(signed_in.get("/glossary").text)


def test_the_glossary_of_a_user_of_several_stations_is_in_none_until_one_is_named(client, app):
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    create_user("sam@group.fm", PASSWORD, companies=[1, 2])
    client.post("/login", data={"email": "sam@group.fm", "password": PASSWORD})
    response = client.get("/glossary")
    assert response.status_code == 200 and "/stations/1/explorer" not in station_menu(response.text)
    assert "/stations/2/explorer" in client.get("/glossary?station=2").text


@pytest.mark.parametrize(("station", "status"), [("2", 403), ("x", 422)])
def test_the_glossary_in_a_station_not_ones_own_or_not_a_number_is_refused(signed_in, station, status):
    make_company(2, name="Coast Radio")
    assert signed_in.get(f"/glossary?station={station}").status_code == status


def test_help_tips_are_the_descriptions_of_their_buttons_and_no_id_is_used_twice(signed_in):
    html = signed_in.get("/stations/1/explorer").text
    ids = re.findall(r'\sid="([^"]+)"', html)
    described = re.findall(r'aria-describedby="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert described and set(described) <= set(ids)
    tips = dict(re.findall(r'role="tooltip" id="([^"]+)">([^<]*)<', html))
    assert str(escape(TEXTS["filter"]["weekday_pattern"])) in tips.values()


@pytest.mark.parametrize("path, least", [("/stations/1/", 1), ("/stations/1/explorer", 3)])
def test_every_chart_can_be_shown_as_a_table(signed_in, path, least):
    html = signed_in.get(path).text
    assert html.count('data-testid="chart-table"') >= least
    assert "<summary>Show as a table</summary>" in html


def test_the_listener_page_names_the_last_interaction_once(signed_in):
    html = signed_in.get(f"/stations/1/listeners/{FAN}").text
    assert html.count("Last interaction") == 1


def test_the_login_page_has_no_password_placeholder(client, app):
    password = re.search(r'<input[^>]*name="password"[^>]*>', client.get("/login").text).group(0)
    assert "placeholder" not in password


def test_the_favicon_is_served_where_browsers_look_for_it_and_where_the_layout_links_it(client, app):
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
    linked = re.search(r'<link rel="icon" href="([^"]+)"', client.get("/login").text).group(1)
    with client.get(linked) as icon:
        assert icon.status_code == 200
