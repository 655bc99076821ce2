"""Every answer carries the security headers, whatever produced it; cookies are HttpOnly and SameSite=Lax, Secure
when COOKIE_SECURE says so."""
from __future__ import annotations

import pytest

from core.access.api_keys import create_key
from core.config import Settings
from tests.webapp.conftest import PASSWORD
from tests.webapp.test_sign_in_security import unreachable
from webapp.security import CONTENT_SECURITY_POLICY, cookie_config

pytestmark = pytest.mark.db


@pytest.fixture
def signed_in(client, producer):
    client.post("/login", data={"email": producer, "password": PASSWORD})
    return client


@pytest.fixture
def api_key(stations):
    return create_key([1])[1]


def assert_protected(response) -> None:
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_the_policy_allows_no_inline_script_and_no_framing():
    directives = dict(d.split(" ", 1) for d in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["default-src"] == directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"


@pytest.mark.parametrize("path", ["/login", "/stations", "/stations/1/", "/nowhere"])
def test_pages_and_error_pages_are_protected_and_never_stored(signed_in, path):
    response = signed_in.get(path)
    assert_protected(response)
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("with_key, status", [(True, 200), (False, 401)])
def test_api_answers_and_api_errors_are_protected_and_never_stored(client, api_key, with_key, status):
    response = client.get("/api/v1/segments/1/summary", headers={"X-API-Key": api_key} if with_key else {})
    assert response.status_code == status and response.is_json
    assert_protected(response)
    assert response.headers["Cache-Control"] == "no-store"


def test_health_is_protected_and_never_stored(client):
    response = client.get("/health")
    assert_protected(response)
    assert response.headers["Cache-Control"] == "no-store"


def test_the_page_of_an_unreachable_database_is_protected(client, producer, monkeypatch):
    monkeypatch.setattr("core.access.sign_in.verify_login", unreachable)
    response = client.post("/login", data={"email": producer, "password": PASSWORD})
    assert response.status_code == 503
    assert_protected(response)
    assert response.headers["Cache-Control"] == "no-store"


def test_static_files_are_protected_and_may_be_cached(client, app):
    response = client.get("/static/css/app.css")
    assert response.status_code == 200
    assert_protected(response)
    assert "no-store" not in response.headers.get("Cache-Control", "")
    response.close()


def test_the_api_docs_page_is_protected(client, app):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    assert_protected(response)


def cookies_set_at_sign_in(client, producer) -> dict[str, str]:
    response = client.post("/login", data={"email": producer, "password": PASSWORD, "remember": "y"})
    return {header.split("=", 1)[0]: header for header in response.headers.getlist("Set-Cookie")}


def test_the_session_and_remember_me_cookies_are_http_only_and_same_site_lax(client, producer):
    cookies = cookies_set_at_sign_in(client, producer)
    assert set(cookies) == {"session", "remember_token"}
    for header in cookies.values():
        assert "HttpOnly" in header and "SameSite=Lax" in header and "Secure" not in header


def test_cookie_secure_makes_both_cookies_secure(app, client, producer, monkeypatch):
    for name, value in cookie_config(Settings.from_env({"COOKIE_SECURE": "true"})).items():
        monkeypatch.setitem(app.config, name, value)
    for header in cookies_set_at_sign_in(client, producer).values():
        assert "Secure" in header and "HttpOnly" in header and "SameSite=Lax" in header
