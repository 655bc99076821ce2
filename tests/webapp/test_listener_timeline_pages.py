"""The listener page's interaction timeline over HTTP: the newest page in station time with show names, the "older"
link that htmx answers with the next entries alone and that works as a plain link, and the page's refusals."""
from __future__ import annotations

import re
from html import unescape

import pytest

from core.access.users import create_user
from core.privacy.erasure import erase_listener
from core.stations.models import Show
from tests.factories import make_company, make_listener
from tests.memory import event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

LERATO, COAST_LISTENER = "27820000001", "27830000001"
PAGE = f"/stations/1/listeners/{LERATO}"
HTMX = {"HX-Request": "true"}


@pytest.fixture
def signed_in(client, app):
    """Lerato of Jozi FM with 120 interactions an hour apart, the newest a WhatsApp message during the Breakfast Club;
    a producer of Jozi FM only, signed in."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    Show(company_id=1, timeslot_id=3, title="Breakfast Club", days=[1, 2, 3, 4, 5, 6, 7], start="06:00",
         end="09:00").save()
    newest = event(1, channel=2, timeslot=3, message="Please play some gqom!")
    make_listener(1, LERATO, [newest] + [event(1 + i / 24) for i in range(1, 120)], name="Lerato")
    make_listener(2, COAST_LISTENER, [event(1, message="Coast secret")], name="Coast Secret")
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def entries(html: str) -> list[str]:
    """The timeline entries of a response, as their text."""
    return re.findall(r'<li class="interaction" data-testid="interaction".*?</li>', html, re.S)


def older_link(html: str) -> str | None:
    """Where the "older" link leads, None without one."""
    found = re.search(r'<a [^>]*href="([^"]+)"[^>]*data-testid="timeline-older"', html, re.S)
    return unescape(found.group(1)) if found else None


def test_the_listener_page_shows_the_newest_interactions_in_station_time_with_their_show(signed_in):
    html = unescape(signed_in.get(PAGE).text)
    shown = entries(html)
    assert len(shown) == 50 and "120 interactions, newest first" in html
    assert "19 Nov 2026, 14:00 SAST" in shown[0] and 'datetime="2026-11-19T12:00:00+00:00"' in shown[0]
    assert "WhatsApp" in shown[0] and "Breakfast Club" in shown[0] and "Please play some gqom!" in shown[0]
    assert "18 Nov 2026, 15:00 SAST" in shown[23] and "SMS" in shown[23] and "outside every show" in shown[23]
    assert older_link(html) == f"{PAGE}?page=2"


def test_the_older_link_asked_by_htmx_gets_the_next_entries_alone(signed_in):
    response = signed_in.get(f"{PAGE}?page=2", headers=HTMX)
    assert response.status_code == 200 and "HX-Request" in response.headers["Vary"]
    assert "<html" not in response.text and 'data-testid="listener-name"' not in response.text
    shown = entries(response.text)
    assert len(shown) == 50 and "17 Nov 2026, 12:00 SAST" in shown[0]
    assert older_link(response.text) == f"{PAGE}?page=3"
    assert "20 more" in response.text


def test_the_last_page_of_the_timeline_has_no_older_link(signed_in):
    response = signed_in.get(f"{PAGE}?page=3", headers=HTMX)
    assert len(entries(response.text)) == 20 and older_link(response.text) is None


def test_without_javascript_the_older_link_opens_the_whole_page_at_the_older_entries(signed_in):
    html = unescape(signed_in.get(f"{PAGE}?page=2").text)
    assert 'data-testid="listener-name"' in html and len(entries(html)) == 50
    assert "Interactions 51–100 of 120." in html and f'href="{PAGE}" data-testid="timeline-newest"' in html


def test_a_page_past_the_oldest_interaction_says_so(signed_in):
    html = signed_in.get(f"{PAGE}?page=9").text
    assert entries(html) == [] and "Page 9 is past the oldest interaction." in html


@pytest.mark.parametrize("page", ["0", "two", "1.5"])
def test_an_invalid_page_of_the_timeline_is_explained_never_a_500(signed_in, page):
    response = signed_in.get(f"{PAGE}?page={page}")
    assert response.status_code == 422 and "page" in response.text


def test_a_listener_without_interactions_says_so(signed_in):
    make_listener(1, "27820000009", name="Quiet")
    html = signed_in.get("/stations/1/listeners/27820000009").text
    assert "No interactions yet." in html and older_link(html) is None


def test_the_timeline_of_another_stations_listener_is_refused(signed_in):
    for headers in ({}, HTMX):
        response = signed_in.get(f"/stations/2/listeners/{COAST_LISTENER}?page=1", headers=headers)
        assert response.status_code == 403 and "Coast secret" not in response.text


def test_an_erased_listeners_old_number_has_no_timeline(signed_in, app):
    erase_listener(1, LERATO, app.config["SETTINGS"].secret_key)
    for headers in ({}, HTMX):
        assert signed_in.get(f"{PAGE}?page=2", headers=headers).status_code == 404
