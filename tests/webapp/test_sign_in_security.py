"""Signing in and out safely: sessions end everywhere at sign-out, the CSRF token changes at sign-in, and failed
sign-ins are throttled per account and per address."""
from __future__ import annotations

import dataclasses

import pytest
from pymongo.errors import ServerSelectionTimeoutError

from core.access import throttle
from core.service import startup
from tests.webapp.conftest import PASSWORD
from tests.webapp.test_dashboard_pages import csrf_token_of
from webapp import create_app
from webapp.throttle import MESSAGE

pytestmark = pytest.mark.db


def sign_in(client, email: str, password: str = PASSWORD, **fields):
    return client.post("/login", data={"email": email, "password": password, **fields})


@pytest.fixture
def limits(app, monkeypatch):
    """Sets the limits of failed sign-ins, as LOGIN_LIMIT_ACCOUNT and LOGIN_LIMIT_ADDRESS would."""

    def set_limits(**changes) -> None:
        monkeypatch.setitem(app.config, "SETTINGS", dataclasses.replace(app.config["SETTINGS"], **changes))

    return set_limits


def test_an_old_session_cookie_is_refused_after_signing_out(client, producer):
    sign_in(client, producer)
    old = client.get_cookie("session").value
    client.post("/logout")
    client.set_cookie("session", old)
    assert client.get("/stations/1/").headers["Location"].startswith("/login")


def test_the_remember_me_cookie_stops_working_after_signing_out(app, client, producer):
    sign_in(client, producer, remember="y")
    remembered = client.get_cookie("remember_token").value
    client.post("/logout")
    later = app.test_client()
    later.set_cookie("remember_token", remembered)
    assert later.get("/stations/1/").headers["Location"].startswith("/login")


def test_the_remember_me_cookie_signs_in_a_new_browser_session(app, client, producer):
    sign_in(client, producer, remember="y")
    later = app.test_client()
    later.set_cookie("remember_token", client.get_cookie("remember_token").value)
    assert later.get("/stations/1/").status_code == 200


def test_signing_out_ends_the_session_on_every_other_device(app, client, producer):
    laptop, phone = client, app.test_client()
    sign_in(laptop, producer)
    sign_in(phone, producer)
    laptop.post("/logout")
    assert phone.get("/stations/1/").status_code == 302


def test_the_csrf_token_from_before_signing_in_is_refused_after(client, producer, csrf_enabled):
    before = csrf_token_of(client.get("/login").text)
    sign_in(client, producer, csrf_token=before)
    after = csrf_token_of(client.get("/stations/1/").text)
    assert after != before
    assert client.post("/logout", data={"csrf_token": before}).status_code == 400
    assert client.post("/logout", data={"csrf_token": after}).status_code == 302


def test_the_sixth_failed_sign_in_of_an_account_within_a_minute_is_429_with_retry_after(client, producer):
    for _ in range(5):
        assert sign_in(client, producer, "not-the-password").status_code == 200
    refused = sign_in(client, producer)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert MESSAGE in refused.text
    assert client.get("/stations/1/").status_code == 302


def test_an_account_counts_as_one_whatever_the_case_and_spaces_of_its_email(client, producer, limits):
    limits(login_limit_account="2/minute")
    sign_in(client, "Thandi@Jozi.FM", "not-the-password")
    sign_in(client, " thandi@jozi.fm ", "not-the-password")
    assert sign_in(client, producer).status_code == 429


def test_failed_sign_ins_from_one_address_are_limited_across_accounts(app, producer, limits):
    limits(login_limit_address="3/minute")
    here, elsewhere = app.test_client(), app.test_client()
    here.environ_base["REMOTE_ADDR"], elsewhere.environ_base["REMOTE_ADDR"] = "198.51.100.7", "203.0.113.9"
    for email in ("a@jozi.fm", "b@jozi.fm", "c@jozi.fm"):
        sign_in(here, email, "not-the-password")
    assert sign_in(here, producer).status_code == 429
    assert sign_in(elsewhere, producer).status_code == 302


def test_signing_in_and_out_all_day_is_never_throttled(client, producer, limits):
    limits(login_limit_account="2/minute", login_limit_address="2/minute")
    for _ in range(4):
        assert sign_in(client, producer).status_code == 302
        client.post("/logout")


def test_a_form_without_a_password_is_not_a_failed_sign_in(client, producer, limits):
    limits(login_limit_account="1/minute")
    sign_in(client, producer, "")
    assert sign_in(client, producer).status_code == 302


def test_a_counter_store_that_does_not_answer_never_blocks_signing_in(client, producer, monkeypatch):
    monkeypatch.setattr(throttle, "get_db", unreachable)
    for _ in range(6):
        sign_in(client, producer, "not-the-password")
    assert sign_in(client, producer).status_code == 302


def test_signing_in_while_the_database_is_down_is_503_not_500(client, producer, monkeypatch):
    monkeypatch.setattr(throttle, "get_db", unreachable)
    monkeypatch.setattr("core.access.sign_in.verify_login", lambda *_: unreachable())
    response = sign_in(client, producer)
    assert response.status_code == 503
    assert response.headers["Retry-After"]


def unreachable(*_):
    raise ServerSelectionTimeoutError("the database does not answer")


@pytest.fixture
def behind_a_proxy(test_env, app):
    """An app as deployed behind one reverse proxy (TRUSTED_PROXIES=1), over the same database."""
    proxied = create_app({"ENV": {**test_env, "TRUSTED_PROXIES": "1"}, "TESTING": True, "WTF_CSRF_ENABLED": False})
    yield proxied
    startup.start(app.config["SETTINGS"])


def test_behind_a_trusted_proxy_sign_ins_are_counted_per_client_address_the_proxy_names(behind_a_proxy, producer):
    behind_a_proxy.config["SETTINGS"] = dataclasses.replace(behind_a_proxy.config["SETTINGS"],
                                                            login_limit_address="3/minute")
    proxy = behind_a_proxy.test_client()
    proxy.environ_base["REMOTE_ADDR"] = "10.0.0.2"  # every request comes from the proxy
    for email in ("a@jozi.fm", "b@jozi.fm", "c@jozi.fm"):
        proxy.post("/login", data={"email": email, "password": "not-the-password"},
                   headers={"X-Forwarded-For": "198.51.100.7"})
    refused = proxy.post("/login", data={"email": producer, "password": PASSWORD},
                         headers={"X-Forwarded-For": "198.51.100.7"})
    other = proxy.post("/login", data={"email": producer, "password": PASSWORD},
                       headers={"X-Forwarded-For": "203.0.113.9"})
    assert (refused.status_code, other.status_code) == (429, 302)
