"""The listener page's look-alikes over HTTP: loaded once the page is shown, the listeners who behave alike with their
scores, links and what they share, a page of their own without scripts, and what is said when there are none."""
from __future__ import annotations

import re

import pytest

from core.access.users import create_user
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

HYMN = "27821000000"
"""A listener of station 1 who enters competitions on show 1 over WhatsApp, tagged gospel."""
KINDS = {"21": (1, 2, "competition", ["gospel"]), "22": (2, 1, "song_request", ["jazz"]),
         "23": (3, 3, "shoutout", ["soccer"])}


@pytest.fixture
@kept
def station(app):
    """Station 1 (Jozi FM): four listeners of each of three kinds of behaviour and one who never interacted;
    station 2 (Coast Radio): one listener. Segmented as of NOW."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    for prefix, (show, channel, campaign, tags) in KINDS.items():
        for n in range(4):
            make_listener(1, f"278{prefix}00000{n}", [event(2 + 3 * i, channel=channel, campaign=campaign,
                                                            timeslot=show) for i in range(6 + n)],
                          name=f"Listener {prefix}-{n}", tags=tags)
    make_listener(1, "27829000000", [], name="Never heard")
    make_listener(2, "27830000001", [event(2, timeslot=1)], name="Coast Secret")
    for company_id in (1, 2):
        segment_company(company_id, NOW)
    return 1


@pytest.fixture
def signed_in(client, station):
    """A producer of station 1 only, signed in."""
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def panel(client, originator: str, company_id: int = 1) -> str:
    response = client.get(f"/stations/{company_id}/listeners/{originator}/similar", headers={"HX-Request": "true"})
    assert response.status_code == 200 and "<html" not in response.text
    return response.text


def test_the_listener_page_loads_its_look_alikes_lazily(signed_in):
    html = signed_in.get(f"/stations/1/listeners/{HYMN}").text
    section = re.search(r'<section id="similar"[^>]*>', html).group(0)
    assert f'hx-get="/stations/1/listeners/{HYMN}/similar"' in section and 'hx-trigger="load"' in section
    assert f'href="/stations/1/listeners/{HYMN}/similar"' in html  # the link that works without scripts


def test_the_look_alikes_are_the_listeners_who_behave_alike_with_scores_links_and_what_they_share(signed_in):
    html = panel(signed_in, HYMN)
    alike = re.findall(r'data-testid="similar-row" data-originator="([^"]+)"', html)
    assert alike and HYMN not in alike and {o[:5] for o in alike} == {"27821"}
    scores = [float(s) for s in re.findall(r'data-testid="score" data-score="([^"]+)"', html)]
    assert scores == sorted(scores, reverse=True) and all(s >= 0.75 for s in scores)
    assert f'href="/stations/1/listeners/{alike[0]}"' in html
    assert re.search(r'data-testid="similar-shares">Shares show 1 · WhatsApp · competition · Gospel<', html)


def test_a_station_too_small_to_measure_says_its_scores_are_the_raw_similarity(signed_in):
    assert "too small yet to measure what a score is worth" in panel(signed_in, HYMN)


def test_without_scripts_the_look_alikes_are_a_page_of_their_own(signed_in):
    response = signed_in.get(f"/stations/1/listeners/{HYMN}/similar")
    assert response.status_code == 200 and "<html" in response.text and "Listeners like this one" in response.text
    assert f'href="/stations/1/listeners/{HYMN}"' in response.text  # back to the listener


def test_a_listener_who_never_interacted_has_no_look_alikes_and_the_panel_says_why(signed_in):
    html = panel(signed_in, "27829000000")
    assert 'data-testid="similar-none"' in html and "this listener has no interactions" in html


def test_a_listener_with_no_look_alike_above_the_threshold_says_so(client, station):
    create_user("lwazi@coast.fm", PASSWORD, companies=[2], name="Lwazi")
    client.post("/login", data={"email": "lwazi@coast.fm", "password": PASSWORD})
    html = panel(client, "27830000001", company_id=2)
    assert 'data-testid="similar-none"' in html and "No other listener is alike enough" in html


def test_the_look_alikes_of_an_unknown_listener_are_the_404_page(signed_in):
    assert signed_in.get("/stations/1/listeners/27899999999/similar").status_code == 404
