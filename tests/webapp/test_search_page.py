"""The search page over HTTP: ranked results with scores and why they matched, filters, the contract's defaults,
invalid values as messages, htmx fragments, tenancy and sign-in (the look-alikes: test_lookalike_pages.py)."""
from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest

from core.access.users import create_user
from core.clock import utcnow
from core.search import progress
from core.search.embeddings import embedder
from core.search.models import EmbeddingCounter
from core.search.vectors import refresh_embeddings
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

SEARCH = "/stations/1/search"
GOSPEL = ["Please play Rebecca Malope, praise and worship this Sunday", "Amen, the gospel choir blessed Mzansi"]
SOCCER = ["Kaizer Chiefs will beat Pirates in the derby", "What a goal! Soccer talk is the best show in Mzansi"]
MONEY = ["How do I save money for my small business?", "Interest rates and the stock market explained for Mzansi"]
HYMN = "27821000000"
"""A gospel listener of station 1."""


def person(company_id: int, originator: str, messages: list[str], **declared) -> None:
    make_listener(company_id, originator, [event(3 + i, message=m) for i, m in enumerate(messages)]
                  + [event(13 + i) for i in range(6)], **declared)


@pytest.fixture
@kept
def station(app):
    """Station 1 (Jozi FM): twelve listeners of three themes, segmented and embedded; station 2 (Coast Radio): one."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    for n in range(4):
        person(1, f"2782100000{n}", GOSPEL, name=f"Gospel {n}", location="Durban" if n % 2 else "Soweto",
               gender="female")
        person(1, f"2782200000{n}", SOCCER, name=f"Soccer {n}", location="Soweto", gender="male")
        person(1, f"2782300000{n}", MONEY, name=f"Money {n}", location="Sandton",
               gender="male" if n % 2 else "female")
    person(2, "27830000001", GOSPEL, name="Coast Secret")
    for company_id in (1, 2):
        segment_company(company_id, NOW)
        refresh_embeddings(company_id)
    return 1


@pytest.fixture
def signed_in(client, station):
    """A producer of station 1 only, signed in."""
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def found(html: str) -> list[str]:
    """The originators of the results, in their order."""
    return re.findall(r'data-testid="result" data-originator="([^"]+)"', html)


def scores(html: str) -> list[float]:
    return [float(s) for s in re.findall(r'data-testid="score" data-score="([^"]+)"', html)]


def test_the_page_renders_for_a_producer_with_the_form_and_a_prompt(signed_in):
    response = signed_in.get(SEARCH)
    assert response.status_code == 200
    html = response.text
    assert 'id="search-form"' in html and 'data-testid="search-prompt"' in html
    assert 'name="min_score" value="0.68"' in html and 'name="limit" value="100"' in html
    assert 'href="/stations/1/search" aria-current="page"' in html  # the navigation's entry is on and current


def test_an_empty_query_shows_the_prompt_without_an_error(signed_in):
    response = signed_in.get(SEARCH, query_string={"q": "   ", "gender": "female"})
    assert response.status_code == 200
    assert 'data-testid="search-prompt"' in response.text and 'data-testid="search-problems"' not in response.text


def test_a_themed_query_ranks_the_listeners_of_its_theme_first_with_scores(signed_in):
    html = signed_in.get(SEARCH, query_string={"q": "gospel music and church worship", "min_score": "0",
                                               "limit": "4"}).text
    assert {o[:5] for o in found(html)} == {"27821"} and len(found(html)) == 4
    assert scores(html) == sorted(scores(html), reverse=True) and all(0 <= s <= 1 for s in scores(html))
    assert "the more of them the listener holds" in html  # the score says what it stands on


def test_each_result_says_why_it_matched_and_links_to_the_listener(signed_in):
    html = signed_in.get(SEARCH, query_string={"q": "soccer fans", "min_score": "0", "limit": "1"}).text
    why = re.search(r'data-testid="matched">(.*?)</ul>', html, re.S).group(1)
    assert "soccer" in unescape(why).lower()
    assert f'href="/stations/1/listeners/{found(html)[0]}"' in html


def test_filters_narrow_the_listeners_ranked(signed_in):
    html = signed_in.get(SEARCH, query_string={"q": "Mzansi", "min_score": "0", "gender": "male"}).text
    assert found(html) and all(o[:5] in ("27822", "27823") for o in found(html))
    located = signed_in.get(SEARCH, query_string={"q": "Mzansi", "min_score": "0", "location": "sandt"}).text
    assert {o[:5] for o in found(located)} == {"27823"} and len(found(located)) == 4


def test_the_lowest_score_can_leave_nobody_and_says_so(signed_in):
    html = signed_in.get(SEARCH, query_string={"q": "money and business", "min_score": "1"}).text
    assert found(html) == [] and 'data-testid="search-no-match"' in html


@pytest.mark.parametrize("field, value, message", [
    ("limit", "0", "Must be between 1 and 1000."),
    ("limit", "lots", "Not a valid integer."),
    ("min_score", "1.5", "Must be greater than or equal to 0.0 and less than or equal to 1.0."),  # the API's words
    ("min_score", "nan", "Special numeric values (nan or infinity) are not permitted."),
    ("min_score", "high", "Not a valid number"),
    ("gender", "robot", "Must be one of"),
])
def test_an_invalid_value_is_named_in_a_message_never_a_500(signed_in, field, value, message):
    for headers in ({}, {"HX-Request": "true"}):
        response = signed_in.get(SEARCH, query_string={"q": "gospel", field: value}, headers=headers)
        assert response.status_code == 200
        problem = re.search(rf'data-testid="problem" data-param="{field}">(.*?)</li>', response.text, re.S)
        assert problem and message in unescape(problem.group(1))
        assert found(response.text) == []


def test_conditions_named_together_show_as_one_chip_of_the_same_interactions(signed_in):
    html = unescape(signed_in.get(SEARCH, query_string={"q": "song requests on SMS"}).text)
    chips = re.findall(r'<a class="chip" href="[^"]*" data-testid="understood-chip".*?</a>', html, re.DOTALL)
    assert len(chips) == 1 and "Same interactions" in chips[0] and "song request · on SMS" in chips[0]
    assert "as_text=song+requests&as_text=SMS" in chips[0] and len(found(html)) == 12


def test_a_province_shows_as_one_chip_naming_the_station_s_locations_it_took(signed_in):
    html = unescape(signed_in.get(SEARCH, query_string={"q": "listeners in gauteng"}).text)
    chips = re.findall(r'<a class="chip" href="[^"]*" data-testid="understood-chip".*?</a>', html, re.DOTALL)
    assert len(chips) == 1 and "Gauteng: Sandton, Soweto" in chips[0]
    assert len(found(html)) == 10  # the two gospel listeners in Durban are not in Gauteng


def test_an_htmx_request_gets_the_results_fragment_alone(signed_in):
    response = signed_in.get(SEARCH, query_string={"q": "soccer", "min_score": "0"}, headers={"HX-Request": "true"})
    assert 'id="search-results"' in response.text and found(response.text)
    assert "<html" not in response.text and 'id="search-form"' not in response.text
    assert "HX-Request" in response.headers["Vary"]


def test_a_producer_of_station_2_cannot_open_the_search_of_station_1(client, station):
    create_user("lwazi@coast.fm", PASSWORD, companies=[2], name="Lwazi")
    client.post("/login", data={"email": "lwazi@coast.fm", "password": PASSWORD})
    for path in (SEARCH, f"{SEARCH}?q=gospel", f"/stations/1/listeners/{HYMN}/similar"):
        response = client.get(path)
        assert response.status_code in (403, 404)
        assert "Gospel 0" not in response.text and "Jozi FM" not in response.text


def test_a_producer_of_station_1_never_finds_a_listener_of_station_2(signed_in):
    html = signed_in.get(SEARCH, query_string={"q": "gospel choir", "min_score": "0", "limit": "1000"}).text
    assert "27830000001" not in found(html) and "Coast Secret" not in html


@pytest.mark.parametrize("headers, status", [({}, 302), ({"HX-Request": "true"}, 401)])
def test_without_signing_in_the_search_sends_to_the_login_page(client, station, headers, status):
    response = client.get(f"{SEARCH}?q=gospel", headers=headers)
    assert response.status_code == status
    target = response.headers["Location"] if status == 302 else response.headers["HX-Redirect"]
    assert target.startswith("/login")


def test_a_station_without_listeners_explains_how_to_get_them_whatever_the_query(client, app):
    make_company(3, name="Empty FM")
    create_user("new@empty.fm", PASSWORD, companies=[3], name="New")
    client.post("/login", data={"email": "new@empty.fm", "password": PASSWORD})
    for path in ("/stations/3/search", "/stations/3/search?q=gospel"):
        response = client.get(path)
        assert response.status_code == 200 and 'data-testid="search-empty-station"' in response.text


def test_while_the_station_is_being_embedded_the_page_says_how_many_are_ready_and_about_how_long(client, app):
    make_company(1, name="Jozi FM")
    for n in range(4):
        person(1, f"2782100000{n}", GOSPEL, name=f"Gospel {n}")
    segment_company(1, NOW)
    refresh_embeddings(1, ["27821000000", "27821000001"])
    model = embedder().name
    run = progress.begin(1, model, 2)
    progress.advance(1, model, run, 1)  # one of two written in three minutes: about three minutes left
    EmbeddingCounter._get_collection().update_one(
        {"company_id": 1, "model": model}, {"$set": {f"runs.{run}.started_at": utcnow() - timedelta(minutes=3)}})
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    html = client.get(SEARCH, query_string={"q": "praise and worship", "min_score": "0"}).text
    notice = " ".join(re.search(r'data-testid="search-coverage">(.*?)</p>', html, re.S).group(1).split())
    assert notice.startswith("Ready for 2 of 4 listeners, about") and "3 minutes</span> left" in notice
    progress.end(1, model, run)
    html = client.get(SEARCH, query_string={"q": "praise and worship", "min_score": "0"}).text
    notice = " ".join(re.search(r'data-testid="search-coverage">(.*?)</p>', html, re.S).group(1).split())
    assert notice.startswith("Ready for 2 of 4 listeners: the others are still being read") and "left" not in notice
