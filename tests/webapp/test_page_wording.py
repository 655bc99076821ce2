"""Pages write counts as English: "1 listener" and "12,480 listeners", verbs that agree, never "1 listeners"."""
from __future__ import annotations

import re
from html import unescape

import pytest

from core.access.users import create_user
from tests.factories import make_company
from tests.webapp.conftest import PASSWORD, store_segment_run
from tests.webapp.test_explorer_pages import AYANDA, EXPLORER, crowd, signed_in  # noqa: F401  (fixtures)

pytestmark = pytest.mark.db


def text_of(html: str) -> str:
    """The words a reader sees: tags dropped, entities decoded, white space collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def one_listener_station(client, app):
    """Station 3 with a single listener, a super fan who was at risk before the last run; its producer signed in."""
    make_company(3, name="Tiny FM")
    store_segment_run(3, {"super_fan": 1}, matrix={"at_risk": {"super_fan": 1}})
    create_user("solo@tiny.fm", PASSWORD, companies=[3])
    client.post("/login", data={"email": "solo@tiny.fm", "password": PASSWORD})
    return client


def test_the_overview_of_a_one_listener_station_speaks_in_the_singular(one_listener_station):
    words = text_of(one_listener_station.get("/stations/3/").text)
    assert not re.search(r"\b1 (listeners|segments|stations)\b", words)
    assert "Your only listener is a super fan" in words
    assert "1 listener changed segment" in words
    assert re.search(r"Segment distribution .*1 listener\b", words)


def test_the_overview_of_a_large_station_counts_in_the_plural(client, auth, producer):
    auth.login(producer)
    words = text_of(client.get("/stations/1/").text)
    assert "12,480 listeners" in words and "across 7 segments" in words
    assert "1,420 listeners" in words  # the super fans' insight card
    assert "1 listeners" not in words


def test_the_station_picker_counts_stations(client, auth, manager):
    auth.login(manager)
    assert "You have access to 2 stations." in text_of(client.get("/stations").text)


@pytest.mark.usefixtures("signed_in")
def test_the_explorer_verb_agrees_with_the_number_of_matches(client):
    one = text_of(client.get(f"{EXPLORER}?originator={AYANDA}").text)
    assert "1 of 6 listeners matches" in one and "Breakdowns of the 1 matching listener" in one
    assert "0 of 1 listener have every declared field; 1 misses at least one." in one
    assert "No age group recorded for this listener." in one
    many = text_of(client.get(f"{EXPLORER}?gender=female").text)
    assert "4 of 6 listeners match " in many and "Breakdowns of the 4 matching listeners" in many


@pytest.mark.usefixtures("signed_in")
def test_the_listener_page_counts_its_history_interactions_and_channels(client):
    words = text_of(client.get(f"/stations/1/listeners/{AYANDA}").text)
    assert "1 entry" in words and "20 interactions in all" in words
    assert "2 channels in the last 30 days" in words
    assert "Why they are a super fan" in words


def test_tags_are_written_as_words_with_the_tag_as_given_beside_them(client, auth, producer):
    auth.login(producer)
    html = client.get("/stations/1/").text
    assert '<span class="tag" title="prize-winner">Prize-winner</span>' in html
    assert ">prize-winner<" not in html
