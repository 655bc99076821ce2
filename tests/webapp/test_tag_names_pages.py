"""Tag names over HTTP: the overview links to them, a producer names a tag and every page (overview, explorer,
listener) says the name while filters keep the tag; a name that cannot be kept is said by its field; tenancy."""
from __future__ import annotations

import re

import pytest

from core.access.users import create_user
from core.segmentation.runs import segment_company
from core.stations.labels import tag_labels
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

TAGS = "/stations/1/tags"


@pytest.fixture
def producer(client, app):
    """Station 1 with two listeners tagged music_lover (one of them vip too), segmented; its producer signed in.
    Station 2 exists with a producer of its own."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    make_listener(1, "27820000001", [event(2), event(5)], tags=["music_lover", "vip"])
    make_listener(1, "27820000002", [event(3)], tags=["music_lover"])
    segment_company(1, NOW)
    create_user("thandi@jozi.fm", PASSWORD, companies=[1])
    create_user("sipho@coast.fm", PASSWORD, companies=[2])
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def rows(html: str) -> dict[str, str]:
    """Tag -> the value of its name field."""
    found = re.findall(r'data-tag="([^"]+)">.*?name="label"[^>]*?value="([^"]*)"', html, re.S)
    return dict(found)


def test_the_overview_links_to_the_tag_names_and_the_page_lists_each_tag_with_its_listeners(producer):
    assert 'href="/stations/1/tags"' in producer.get("/stations/1/").text
    html = producer.get(TAGS).text
    assert rows(html) == {"music_lover": "", "vip": ""}
    assert 'placeholder="Music lover"' in html
    assert re.search(r'data-tag="music_lover">.*?<td class="num">2<span', html, re.S)


def test_a_name_given_is_what_every_page_says_while_filters_keep_the_tag(producer):
    saved = producer.post(TAGS, data={"tag": ["music_lover", "vip"], "label": ["Music lovers", ""]})
    assert saved.status_code == 303 and saved.headers["Location"].endswith(TAGS)
    assert rows(producer.get(TAGS).text) == {"music_lover": "Music lovers", "vip": ""}
    assert ">Music lovers</span>" in producer.get("/stations/1/").text
    explorer = producer.get("/stations/1/explorer", query_string={"tags": "music_lover"}).text
    assert "Music lovers" in explorer and 'data-testid="match-count">2<' in explorer
    assert ">Music lovers</span>" in producer.get("/stations/1/listeners/27820000002").text


def test_a_name_too_long_is_said_by_its_field_and_nothing_is_kept(producer):
    refused = producer.post(TAGS, data={"tag": ["music_lover", "vip"], "label": ["Fans", "x" * 61]})
    assert refused.status_code == 422
    assert 'aria-invalid="true"' in refused.text and "Keep a name to 60 characters." in refused.text
    assert tag_labels(1) == {}


def test_another_station_s_producer_can_neither_read_nor_name_its_tags(client, producer):
    client.post("/logout")
    client.post("/login", data={"email": "sipho@coast.fm", "password": PASSWORD})
    assert client.get(TAGS).status_code == 403
    assert client.post(TAGS, data={"tag": ["vip"], "label": ["Theirs"]}).status_code == 403
    assert tag_labels(1) == {}
