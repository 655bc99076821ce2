"""The campaign platform's calls through real HTTP (the loopback platform of tests.platform_server), with no
database: the password grant sends what OAuth says and refuses an expiry that is not a positive number; a token
endpoint or a campaigns endpoint that fails, is slow or answers garbage is unavailable; campaigns are read from a list
or from pages, never from pages that loop or lead elsewhere, and their stations from the configured field. (Sessions,
their tokens and their renewal are tests/core/access/test_platform.py, on the database.)"""
from __future__ import annotations

from dataclasses import replace

import pytest

from core.access import platform
from core.access.platform_campaigns import campaigns_of, companies_of
from core.config import activate, active
from core.errors import PlatformRejected, PlatformUnavailable
from tests.platform_server import (  # noqa: F401
    CLIENT_ID,
    CLIENT_SECRET,
    PASSWORD,
    TIMEOUT_S,
    USER,
    campaign,
    loopback_platform,
)

FORM = "application/x-www-form-urlencoded"


@pytest.fixture
def server(platform_server):
    """The loopback platform, with the active settings naming it as the configured platform (as
    tests.platform_server's `configured_platform`, without the app and its database); restored after the test."""
    previous = active()
    activate(replace(previous, auth_url=platform_server.url, platform_url=platform_server.url,
                     platform_client_id=CLIENT_ID, platform_client_secret=CLIENT_SECRET, platform_timeout_s=TIMEOUT_S))
    yield platform_server
    activate(previous)


def campaigns_read() -> tuple[list[dict], list[int]]:
    """The campaigns of the user's password grant and their stations, as a sign-in reads them
    (core.access.platform_sessions)."""
    kept = campaigns_of(platform.fetch_campaigns(platform.password_grant(USER, PASSWORD).access_token),
                        platform.configured().platform_company_field)
    return kept, companies_of(kept)


def test_the_password_grant_posts_the_client_and_the_credentials_as_a_form(server):
    tokens = platform.password_grant(USER, PASSWORD)
    sent = server.of("token")[0]
    assert sent.method == "POST" and sent.headers["Content-Type"] == FORM
    assert sent.form == {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "grant_type": "password",
                         "username": USER, "password": PASSWORD}
    issued = server.issued[-1]
    assert (tokens.access_token, tokens.refresh_token, tokens.expires_in, tokens.scope) == (
        issued["access_token"], issued["refresh_token"], 3600, "read write")
    assert issued["access_token"] not in repr(tokens) and issued["refresh_token"] not in repr(tokens)


def test_a_wrong_password_is_rejected(server):
    with pytest.raises(PlatformRejected):
        platform.password_grant(USER, "not-the-password")


def test_invalid_grant_is_rejected_whatever_was_asked(server):
    server.script["token"] = ["invalid_grant"]
    with pytest.raises(PlatformRejected):
        platform.password_grant(USER, PASSWORD)


@pytest.mark.parametrize("step", ["500", "503", "401", "sleep", "garbage", "missing"])
def test_a_token_endpoint_that_fails_is_slow_or_answers_garbage_is_unavailable(server, step):
    server.script["token"] = [step]
    with pytest.raises(PlatformUnavailable):
        platform.password_grant(USER, PASSWORD)


@pytest.mark.parametrize("expires_in", ["soon", -5, 0, None, True, [3600]])
def test_a_grant_whose_expiry_is_not_a_positive_number_is_unavailable(server, expires_in):
    server.expires_in = expires_in
    with pytest.raises(PlatformUnavailable):
        platform.password_grant(USER, PASSWORD)


def test_a_platform_that_is_not_listening_is_unavailable(server):
    activate(replace(active(), auth_url="http://127.0.0.1:9"))  # the discard port: nothing listens there
    with pytest.raises(PlatformUnavailable):
        platform.password_grant(USER, PASSWORD)


@pytest.mark.parametrize("step", ["500", "sleep", "garbage"])
def test_campaigns_that_fail_make_the_platform_unavailable(server, step):
    server.script["campaigns"] = [step]
    with pytest.raises(PlatformUnavailable):
        campaigns_read()


@pytest.mark.parametrize("answer", [{"results": "none"}, {"campaigns": []}, "a list", [1, 2], [campaign(), None]])
def test_campaigns_that_are_not_a_list_of_objects_make_the_platform_unavailable(server, answer):
    server.campaigns = answer
    with pytest.raises(PlatformUnavailable):
        campaigns_read()


def test_campaigns_in_pages_are_followed_to_the_last(server):
    server.campaigns = [campaign(id=i, company_id=i) for i in range(1, 6)]
    server.page_size = 2
    assert campaigns_read()[1] == [1, 2, 3, 4, 5]
    assert [r.query.get("page") for r in server.of("campaigns")] == [None, "2", "3"]


@pytest.mark.parametrize("step", ["loop", "elsewhere"])
def test_pages_that_loop_or_lead_to_another_host_are_not_followed(server, step):
    server.campaigns, server.page_size = [campaign(), campaign(id=2)], 1
    server.script["campaigns"] = [step]
    with pytest.raises(PlatformUnavailable):
        campaigns_read()
    assert len(server.of("campaigns")) <= 2


def test_stations_come_from_the_configured_field_as_numbers_or_digits_and_other_campaigns_are_still_listed(server):
    activate(replace(active(), platform_company_field="station.id"))
    server.campaigns = [campaign(id=i, name=f"C{i}", station={"id": value}) for i, value in
                        enumerate([3, "4", " 5 ", "x", True, None, 2.5, -1])]
    kept, stations = campaigns_read()
    assert stations == [3, 4, 5]
    assert [c["name"] for c in kept] == [f"C{i}" for i in range(8)]


def test_a_campaign_keeps_what_a_producer_reads_as_plain_text_and_drops_what_is_not(server):
    server.campaigns = [campaign(name={"nested": "object"}, title="From the title", budget=True, status=["Live"],
                                 flight_start="2026-12-01T06:00:00+02:00", access_token_hint="x",
                                 landing_url="https://x", channel="Radio")]
    kept = campaigns_read()[0][0]
    assert kept["name"] == "From the title" and kept["budget"] is None and kept["status"] is None
    assert kept["starts"] == "2026-12-01" and kept["company_id"] == 1
    details = dict(kept["details"])
    assert details["Objective"] == "Sell 2,000 tickets" and details["Channel"] == "Radio"
    assert not {"Access token hint", "Landing url", "Id"} & set(details)
