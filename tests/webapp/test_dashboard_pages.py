"""The dashboard shell over HTTP: sign-in, sessions, CSRF, station access and the overview's htmx fragment."""
from __future__ import annotations

import re

import pytest

from core.access.api_keys import create_key
from core.access.users import create_user
from tests.factories import make_company
from webapp.helpers import NAVIGATION

pytestmark = pytest.mark.db


def csrf_token_of(html: str) -> str:
    """The token of the first form on the page (the login form, or the sign-out form of the layout)."""
    tag = re.search(r'<input[^>]*name="csrf_token"[^>]*>', html).group(0)
    return re.search(r'value="([^"]+)"', tag).group(1)


def test_signing_in_goes_to_the_only_station_of_a_single_station_producer(client, auth, producer):
    response = auth.login(producer, follow_redirects=True)
    assert response.request.path == "/stations/1/"
    assert "Jozi FM" in response.text and "12,480" in response.text


def test_wrong_password_shows_an_error_and_stays_on_the_login_page(client, auth, producer):
    response = auth.login(producer, password="not-the-password")
    assert response.status_code == 200
    assert "do not match an account" in response.text
    assert client.get("/stations/1/").status_code == 302


def test_unknown_email_gets_the_same_answer_as_a_wrong_password(client, auth, producer):
    response = auth.login("nobody@jozi.fm")
    assert "do not match an account" in response.text


def test_login_form_carries_its_csrf_token_and_needs_it(client, producer, csrf_enabled):
    page = client.get("/login")
    token = csrf_token_of(page.text)
    refused = client.post("/login", data={"email": producer, "password": "on-air-2026"})
    assert refused.status_code == 400
    accepted = client.post("/login", data={"email": producer, "password": "on-air-2026", "csrf_token": token})
    assert accepted.status_code == 302


def test_logout_needs_the_csrf_token_too(client, auth, producer, csrf_enabled):
    token = csrf_token_of(client.get("/login").text)
    client.post("/login", data={"email": producer, "password": "on-air-2026", "csrf_token": token})
    assert client.post("/logout").status_code == 400
    page = client.get("/stations/1/")
    assert client.post("/logout", data={"csrf_token": csrf_token_of(page.text)}).status_code == 302
    assert client.get("/stations/1/").status_code == 302


def test_the_api_and_health_are_exempt_from_csrf(client, stations, csrf_enabled):
    _, token = create_key([1])
    response = client.post("/api/v1/segments/1/summary", headers={"X-API-Key": token})
    assert response.status_code in (404, 405) and response.is_json
    assert client.post("/health").status_code == 405


def test_logout_ends_the_session(client, auth, producer):
    auth.login(producer)
    response = auth.logout()
    assert response.headers["Location"] == "/login"
    assert "You have signed out" in client.get("/login").text
    assert client.get("/stations/1/").status_code == 302


def test_unauthenticated_overview_redirects_to_login_with_next(client, stations):
    response = client.get("/stations/1/")
    assert response.status_code == 302
    assert response.headers["Location"] == "/login?next=/stations/1/"


def test_login_returns_to_the_page_that_asked_for_it(client, manager):
    response = client.post("/login?next=/stations/2/", data={"email": manager, "password": "on-air-2026"})
    assert response.headers["Location"] == "/stations/2/"


def test_login_never_redirects_to_another_site(client, manager):
    response = client.post("/login?next=https://evil.example/", data={"email": manager, "password": "on-air-2026"})
    assert response.headers["Location"] == "/"


def test_unauthenticated_htmx_request_gets_hx_redirect(client, stations):
    response = client.get("/stations/1/", headers={"HX-Request": "true",
                                                  "HX-Current-URL": "http://localhost/stations/1/"})
    assert response.status_code == 401
    assert response.headers["HX-Redirect"] == "/login?next=/stations/1/"


def test_producer_of_station_1_cannot_open_station_2(client, auth, producer):
    auth.login(producer)
    response = client.get("/stations/2/")
    assert response.status_code == 403
    assert "Coast Radio" not in response.text and "5,310" not in response.text
    assert "not one of yours" in response.text


def test_a_station_that_does_not_exist_is_also_403_for_a_producer(client, auth, producer):
    auth.login(producer)
    assert client.get("/stations/99/").status_code == 403


def test_admin_sees_every_station(client, stations):
    create_user("ops@group.fm", "on-air-2026", companies=[], admin=True)
    client.post("/login", data={"email": "ops@group.fm", "password": "on-air-2026"})
    picker = client.get("/stations")
    assert "Jozi FM" in picker.text and "Coast Radio" in picker.text
    assert client.get("/stations/2/").status_code == 200


def test_user_of_two_stations_gets_the_picker(client, auth, manager):
    auth.login(manager)
    response = client.get("/", follow_redirects=True)
    assert response.request.path == "/stations"
    assert "Jozi FM" in response.text and "Coast Radio" in response.text


def test_overview_answers_its_fragment_alone_to_htmx(client, auth, producer):
    auth.login(producer)
    fragment = client.get("/stations/1/", headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert 'id="overview-body"' in fragment.text and "<html" not in fragment.text
    assert "HX-Request" in fragment.headers["Vary"]
    boosted = client.get("/stations/1/", headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert "<html" in boosted.text


def test_station_without_a_segmentation_shows_how_to_get_data(client, app):
    make_company(3, name="Fresh FM")
    create_user("new@fresh.fm", "on-air-2026", companies=[3])
    client.post("/login", data={"email": "new@fresh.fm", "password": "on-air-2026"})
    response = client.get("/stations/3/")
    assert response.status_code == 200
    assert "No segments yet" in response.text and "flask --app wsgi demo" in response.text


def test_first_segmentation_has_no_movements_yet(client, auth, manager):
    auth.login(manager)
    response = client.get("/stations/2/")
    assert "No movements yet: this is the first segmentation" in response.text
    assert 'data-testid="movement-matrix"' not in response.text


def test_navigation_never_links_to_a_page_that_does_not_exist(client, auth, producer, app):
    auth.login(producer)
    html = client.get("/stations/1/").text
    hrefs = set(re.findall(r'href="(/[^"]*)"', html))
    for href in hrefs:
        if not href.startswith("/static/"):
            assert client.get(href).status_code in (200, 302), href
    missing = [endpoint for _, endpoint, _ in NAVIGATION if endpoint not in app.view_functions]
    assert html.count(">Soon<") == len(missing)


@pytest.mark.parametrize("key", ["fans", "Super_Fan", "unsegmented"])
def test_an_unknown_segment_address_is_a_404_page_that_says_where_the_segments_are(client, auth, producer, key):
    auth.login(producer)
    response = client.get(f"/stations/1/segments/{key}")
    assert response.status_code == 404 and "segments are listed on the overview" in response.text
