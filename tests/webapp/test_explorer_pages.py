"""The explorer and listener pages over HTTP: URL filters, htmx fragments, exports, tenancy, CSRF and erasure."""
from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest

from core.access.users import create_user
from core.explore.listener import get_listener
from core.explore.spec import EXCLUSIONS, SPEC
from core.listeners.suppression import SuppressionList
from core.segmentation.runs import segment_company
from tests.conftest import kept
from tests.factories import make_company, make_listener
from tests.memory import NOW, event
from tests.webapp.conftest import PASSWORD

pytestmark = pytest.mark.db

EXPLORER = "/stations/1/explorer"
AYANDA, BONGI, CARL, DINEO, ESTHER, FRANK = (f"2782000000{i}" for i in range(1, 7))
COAST_LISTENER = "27830000001"


def busy(channels=(1, 2)) -> list[dict]:
    """Twenty interactions over the last two weeks on two channels: a super fan."""
    return [event(0.5 + 0.7 * i, channel=channels[i % len(channels)]) for i in range(20)]


@pytest.fixture
@kept
def crowd(app):
    """Station 1 (Jozi FM): three super fans (two women), a dormant woman, a competition chaser, an occasional man.
    Station 2 (Coast Radio): one listener nobody of station 1 may see."""
    make_company(1, name="Jozi FM")
    make_company(2, name="Coast Radio")
    make_listener(1, AYANDA, busy(), name="Ayanda Dlamini", gender="female", location="Soweto", tags=["vip"])
    make_listener(1, BONGI, busy(), name="Bongi Khumalo", gender="female", location="Durban")
    make_listener(1, CARL, busy(), name="Carl Botha", gender="male")
    make_listener(1, DINEO, [event(120), event(130)], name="Dineo Moloi", gender="female")
    make_listener(1, ESTHER, [event(10, campaign="competition"), event(20, campaign="competition")],
                  name="Esther Naidoo", gender="female")
    make_listener(1, FRANK, [event(10), event(40)], name="Frank Adams", gender="male")
    make_listener(2, COAST_LISTENER, busy(), name="Coast Secret", gender="female")
    segment_company(1, NOW)
    segment_company(2, NOW)


@pytest.fixture
def signed_in(client, crowd):
    """A producer of station 1 only, signed in."""
    create_user("thandi@jozi.fm", PASSWORD, companies=[1], name="Thandi Mokoena")
    client.post("/login", data={"email": "thandi@jozi.fm", "password": PASSWORD})
    return client


def listed(html: str) -> set[str]:
    """The originators in the results table."""
    return set(re.findall(r'data-testid="listener-row" data-originator="([^"]+)"', html))


def hrefs(html: str, testid: str) -> list[str]:
    """The links carrying this data-testid."""
    tags = re.findall(rf'<a [^>]*data-testid="{testid}"[^>]*>', html)
    return [unescape(re.search(r'href="([^"]+)"', tag).group(1)) for tag in tags]


def test_the_filters_of_the_url_are_applied(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female&segment=super_fan").text
    assert listed(html) == {AYANDA, BONGI}
    assert 'data-testid="match-count">2<' in html


def test_without_filters_every_listener_of_the_station_is_listed(signed_in):
    html = signed_in.get(EXPLORER).text
    assert listed(html) == {AYANDA, BONGI, CARL, DINEO, ESTHER, FRANK}
    assert COAST_LISTENER not in html


def test_the_form_shows_the_filters_of_the_url_as_chosen(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female&segment=super_fan&name=Ayanda").text
    assert re.search(r'name="segment" value="super_fan" checked', html)
    assert re.search(r'name="gender" value="female" checked', html)
    assert not re.search(r'name="gender" value="male" checked', html)
    assert 'name="name" value="Ayanda"' in html


def form_of(html: str) -> str:
    start = html.index('id="explorer-filters"')
    return html[start:html.index("</form>", start)]


def test_the_form_holds_every_filter_of_the_spec_but_the_exclusions(signed_in):
    names = set(re.findall(r'name="([a-z_]+)"', form_of(signed_in.get(EXPLORER).text)))
    assert set(SPEC) - set(EXCLUSIONS) <= names and not names & set(EXCLUSIONS)


def test_an_exclusion_of_the_url_is_applied_shown_as_a_chip_and_kept_by_the_form_and_links(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female&exclude_segment=super_fan").text
    assert listed(html) == {DINEO, ESTHER}
    chip = re.search(r'data-filter="exclude_segment".*?chip-name">([^<]*)<.*?chip-value[^>]*>([^<]*)<', html, re.S)
    assert chip and (chip.group(1), chip.group(2)) == ("Segment", "not Super fans")
    assert '<input type="hidden" name="exclude_segment" value="super_fan">' in form_of(html)
    exports = hrefs(html, "export-csv") + hrefs(html, "export-json")
    assert len(exports) == 2 and all("exclude_segment=super_fan" in href for href in exports)
    remove = unescape(re.search(r'href="([^"]+)"[^>]*data-filter="exclude_segment"', html).group(1))
    assert "exclude_segment" not in remove and "gender=female" in remove


def test_the_form_offers_the_stations_own_values_with_their_counts(signed_in):
    html = signed_in.get(EXPLORER).text
    soweto = re.search(r'value="Soweto">.*?option-count">(\d+)<', html, re.S)
    assert soweto and soweto.group(1) == "1"
    assert "WhatsApp" in html and "SMS" in html


def test_an_htmx_request_gets_the_results_fragment_alone(signed_in):
    response = signed_in.get(f"{EXPLORER}?segment=super_fan", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="explorer-results"' in response.text
    assert "<html" not in response.text and 'id="explorer-filters"' not in response.text
    assert "HX-Request" in response.headers["Vary"]
    assert listed(response.text) == {AYANDA, BONGI, CARL}


@pytest.mark.parametrize("header", ["HX-Boosted", "HX-History-Restore-Request"])
def test_boosted_navigation_and_history_restore_get_the_whole_page(signed_in, header):
    response = signed_in.get(EXPLORER, headers={"HX-Request": "true", header: "true"})
    assert "<html" in response.text and 'id="explorer-filters"' in response.text
    assert "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize("query, param, message", [
    ("peak_hour=99", "peak_hour", "Must be between 0 and 23."),
    ("gender=robot", "gender", "Must be one of: male, female, non_binary, undisclosed."),
    ("last_interaction_after=yesterday", "last_interaction_after", "Not a valid ISO 8601 date-time."),
    ("opt_in=maybe", "opt_in", "Not a valid boolean."),
    ("page=x", "page", "Not a valid integer."),
    ("page_size=5000", "page_size", "Must be between 1 and 1000."),
])
def test_an_invalid_parameter_is_named_in_a_message_never_a_500(signed_in, query, param, message):
    for headers in ({}, {"HX-Request": "true"}):
        response = signed_in.get(f"{EXPLORER}?segment=super_fan&{query}", headers=headers)
        assert response.status_code == 200
        problem = re.search(rf'data-testid="problem" data-param="{param}">(.*?)</li>', response.text, re.S)
        assert problem and message in unescape(problem.group(1))
        assert listed(response.text) == set()


def test_the_message_of_an_invalid_parameter_links_to_the_view_without_it(signed_in):
    html = signed_in.get(f"{EXPLORER}?segment=super_fan&peak_hour=99").text
    remove = unescape(re.search(r'data-param="peak_hour">.*?href="([^"]+)"', html, re.S).group(1))
    assert "peak_hour" not in remove and "segment=super_fan" in remove
    assert listed(signed_in.get(remove).text) == {AYANDA, BONGI, CARL}


def test_each_active_filter_chip_links_to_the_view_without_it(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female&segment=super_fan").text
    chips = dict((name, unescape(href)) for href, name in
                 re.findall(r'<a class="chip" href="([^"]+)" data-testid="chip" data-filter="(\w+)"', html))
    assert chips == {"segment": f"{EXPLORER}?gender=female", "gender": f"{EXPLORER}?segment=super_fan"}
    assert listed(signed_in.get(chips["gender"]).text) == {AYANDA, BONGI, CARL}


def test_filters_that_match_nobody_show_an_empty_result(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=male&segment=dormant").text
    assert 'data-testid="no-match"' in html and "No listener matches these filters" in html
    assert listed(html) == set()


def test_a_station_without_listeners_explains_how_to_get_them(client, app):
    make_company(3, name="Fresh FM")
    create_user("new@fresh.fm", PASSWORD, companies=[3])
    client.post("/login", data={"email": "new@fresh.fm", "password": PASSWORD})
    response = client.get("/stations/3/explorer")
    assert response.status_code == 200
    assert 'data-testid="explorer-empty"' in response.text and "flask --app wsgi demo" in response.text


def test_results_are_paginated_and_page_links_keep_the_filters(signed_in):
    first = signed_in.get(f"{EXPLORER}?page_size=2").text
    assert len(listed(first)) == 2 and "Showing <strong>1–2</strong> of 6" in first
    second_url = hrefs(first, "page-next")[0]
    assert "page=2" in second_url and "page_size=2" in second_url
    seen = listed(first) | listed(signed_in.get(second_url).text) | listed(
        signed_in.get(f"{EXPLORER}?page_size=2&page=3").text)
    assert seen == {AYANDA, BONGI, CARL, DINEO, ESTHER, FRANK}
    filtered = signed_in.get(f"{EXPLORER}?segment=super_fan&page_size=2").text
    assert "segment=super_fan" in hrefs(filtered, "page-next")[0]


def test_a_page_past_the_end_says_so(signed_in):
    html = signed_in.get(f"{EXPLORER}?page_size=25&page=9").text
    assert "past the last page" in html


def test_charts_completeness_and_heat_map_describe_the_filtered_set(signed_in):
    html = signed_in.get(f"{EXPLORER}?segment=super_fan").text
    for testid in ("chart-segment", "chart-gender", "chart-has_channel", "completeness", "heat-map"):
        assert f'data-testid="{testid}"' in html
    heat = html[html.index('data-testid="heat-map"'):]
    assert "100%" in heat and "WhatsApp" in heat  # all three super fans use SMS and WhatsApp


def test_export_links_carry_the_filters(signed_in):
    html = signed_in.get(f"{EXPLORER}?gender=female&segment=super_fan").text
    for testid, path in (("export-csv", "export.csv"), ("export-json", "export.json")):
        href = hrefs(html, testid)[0]
        assert href.startswith(f"{EXPLORER}/{path}?") and "gender=female" in href and "segment=super_fan" in href


def test_csv_export_streams_every_match_with_the_filters(signed_in):
    response = signed_in.get(f"{EXPLORER}/export.csv?gender=female&segment=super_fan")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"].startswith("attachment")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert {row["originator"] for row in rows} == {AYANDA, BONGI}
    assert {row["segment"] for row in rows} == {"super_fan"}


def test_json_export_streams_every_match_with_the_filters(signed_in):
    response = signed_in.get(f"{EXPLORER}/export.json?gender=female")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert {r["originator"] for r in json.loads(response.text)} == {AYANDA, BONGI, DINEO, ESTHER}


def test_export_of_a_channel_pair_keeps_only_listeners_on_both(signed_in):
    body = json.loads(signed_in.get(f"{EXPLORER}/export.json?channel_pair=1,2").text)
    assert {r["originator"] for r in body} == {AYANDA, BONGI, CARL}


def test_export_with_an_invalid_filter_is_a_422_page(signed_in):
    response = signed_in.get(f"{EXPLORER}/export.csv?peak_hour=99")
    assert response.status_code == 422 and "peak_hour" in response.text


@pytest.mark.parametrize("method, path", [
    ("get", "/stations/2/explorer"),
    ("get", "/stations/2/explorer?segment=super_fan"),
    ("get", "/stations/2/explorer/export.csv"),
    ("get", "/stations/2/explorer/export.json"),
    ("get", f"/stations/2/listeners/{COAST_LISTENER}"),
    ("post", f"/stations/2/listeners/{COAST_LISTENER}/erase"),
])
def test_a_producer_of_station_1_cannot_reach_station_2(signed_in, method, path):
    response = getattr(signed_in, method)(path)
    assert response.status_code == 403
    assert "Coast Radio" not in response.text and "Coast Secret" not in response.text
    assert get_listener(2, COAST_LISTENER)["declared"]["name"] == "Coast Secret"


def test_the_listener_page_shows_profile_reasons_behaviour_and_history(signed_in):
    response = signed_in.get(f"/stations/1/listeners/{AYANDA}")
    assert response.status_code == 200
    html = unescape(response.text)
    assert "Ayanda Dlamini" in html and 'data-segment="super_fan"' in html
    assert re.search(r'data-testid="reason">\d+ interactions in the last 30 days on 2 channels', html)
    assert 'data-testid="rfm"' in html and "SMS" in html and "WhatsApp" in html
    assert "Soweto" in html and "vip" in html and "Not given" in html
    assert "First segmented as" in html
    assert f'action="/stations/1/listeners/{AYANDA}/erase"' in html and 'name="csrf_token"' in html


def test_an_unknown_listener_is_the_404_page(signed_in):
    response = signed_in.get("/stations/1/listeners/27999999999")
    assert response.status_code == 404 and 'data-testid="error-page"' in response.text


def test_a_404_page_echoes_at_most_a_short_prefix_of_the_originator_asked_for(signed_in):
    asked = "27999999999" + "x" * 60
    response = signed_in.get(f"/stations/1/listeners/{asked}")
    assert response.status_code == 404 and asked[:13] not in response.text


def test_a_listener_whose_originator_has_every_allowed_character_is_linked_opened_and_erased(signed_in):
    odd = "a.b:c@d+e_f-1"
    make_listener(1, odd, busy(), name="Odd Form")
    segment_company(1, NOW)
    link = re.search(rf'data-originator="{re.escape(odd)}">\s*<td[^>]*>\s*<a class="number" href="([^"]+)"',
                     signed_in.get(EXPLORER).text)
    page = signed_in.get(unescape(link.group(1)))
    assert page.status_code == 200 and "Odd Form" in page.text
    action = unescape(re.search(r'<form method="post" action="([^"]+/erase)"', page.text).group(1))
    assert signed_in.post(action).status_code == 302
    assert signed_in.get(f"/stations/1/listeners/{odd}").status_code == 404


def test_erase_without_the_csrf_token_is_refused(signed_in, csrf_enabled):
    erase = f"/stations/1/listeners/{AYANDA}/erase"
    assert signed_in.post(erase).status_code == 400
    assert signed_in.get(f"/stations/1/listeners/{AYANDA}").status_code == 200
    page = signed_in.get(f"/stations/1/listeners/{AYANDA}").text
    token = re.search(r'<dialog.*?name="csrf_token" value="([^"]+)"', page, re.S).group(1)
    assert signed_in.post(erase, data={"csrf_token": token}).status_code == 302


def test_erasing_removes_the_listener_and_confirms_with_the_receipt(signed_in):
    response = signed_in.post(f"/stations/1/listeners/{AYANDA}/erase",
                              data={"return_to": f"http://localhost{EXPLORER}?gender=female"})
    assert response.status_code == 302 and response.headers["Location"] == f"{EXPLORER}?gender=female"
    html = signed_in.get(response.headers["Location"]).text
    assert f"Listener {AYANDA} was erased" in html and "interactions 20" in html
    assert listed(html) == {BONGI, DINEO, ESTHER}
    assert signed_in.get(f"/stations/1/listeners/{AYANDA}").status_code == 404
    assert signed_in.post(f"/stations/1/listeners/{AYANDA}/erase").status_code == 404


def test_erasing_with_suppression_puts_the_number_on_the_suppression_list(signed_in, app):
    response = signed_in.post(f"/stations/1/listeners/{BONGI}/erase", data={"suppress": "true"},
                              follow_redirects=True)
    assert "will be dropped at import" in response.text
    assert SuppressionList(app.config["SETTINGS"].secret_key).blocks(1, BONGI)


def test_erasing_returns_only_to_this_stations_explorer(signed_in):
    response = signed_in.post(f"/stations/1/listeners/{CARL}/erase",
                              data={"return_to": "https://evil.example/stations/1/explorer?x=1"})
    assert response.headers["Location"] == EXPLORER


def test_the_explorer_is_live_in_the_navigation(signed_in):
    html = signed_in.get("/stations/1/").text
    assert f'href="{EXPLORER}"' in html


EMPTY_FORM = "segment=&name=&last_interaction_before=&peak_hour=&tags=&page="


def test_the_empty_fields_of_the_form_are_no_filter(signed_in):
    html = signed_in.get(f"{EXPLORER}?{EMPTY_FORM}&gender=female").text
    assert listed(html) == {AYANDA, BONGI, DINEO, ESTHER}
    assert 'data-testid="problem"' not in html


def test_an_export_ignores_the_empty_fields_of_the_form(signed_in):
    response = signed_in.get(f"{EXPLORER}/export.json?{EMPTY_FORM}&channel_pair=&gender=male")
    assert {r["originator"] for r in json.loads(response.text)} == {CARL, FRANK}
