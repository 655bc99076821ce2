"""Signing in with the campaign platform through the login form (against the loopback platform of
tests.platform_server): a platform user lands on the stations of their campaigns and no other; a wrong password is
said and throttled as for a local account; a platform that fails is said plainly while local accounts still sign in;
tokens are renewed unseen, a refused renewal asks to sign in again with the page kept, and signing out deletes them;
no token reaches a cookie, a page, a URL or a log line, and nothing of the platform's answer is shown unescaped."""
from __future__ import annotations

import logging
import re
from html import unescape
from urllib.parse import unquote

import pytest

from core.access.models import PlatformSession
from core.access.session_tokens import storage_id, unseal
from tests.factories import make_company
from tests.platform_server import (  # noqa: F401
    CLIENT_SECRET,
    PASSWORD,
    USER,
    campaign,
    loopback_platform,
    platform_settings,
)
from tests.webapp.conftest import PASSWORD as LOCAL_PASSWORD
from webapp.throttle import MESSAGE as THROTTLED

pytestmark = pytest.mark.db

NO_MATCH = "That email and password do not match an account."
NOT_ANSWERING = "The campaign platform is not answering"
CAMPAIGNS = "/stations/1/campaigns"


def error_of(response) -> str | None:
    """The login page's error, as the reader sees it."""
    found = re.search(r'data-testid="login-error">([^<]*)<', response.text)
    return unescape(found.group(1)) if found else None


def sign_in(client, email: str = USER, password: str = PASSWORD, remember: bool = False, **options):
    fields = {"email": email, "password": password, **({"remember": "y"} if remember else {})}
    return client.post("/login", data=fields, **options)


def words(html: str) -> str:
    """The text a reader sees: tags dropped, entities decoded, white space collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def stored() -> PlatformSession:
    """The one platform session in the database."""
    return PlatformSession.objects.get()


@pytest.fixture
def platform(configured_platform, stations):
    """The loopback platform, configured, whose user has one campaign on station 1 (Jozi FM); stations 1 and 2 have
    data, and station 8 exists without being one of the user's."""
    make_company(8, name="Kaya Eight FM")
    configured_platform.campaigns = [campaign(company_id=1)]
    return configured_platform


def test_a_platform_user_signs_in_and_lands_on_the_station_of_their_campaigns(client, platform):
    landed = sign_in(client, follow_redirects=True)
    assert landed.status_code == 200 and landed.request.path == "/stations/1/"
    assert "Jozi FM" in landed.text and USER in landed.text
    assert PlatformSession.objects.count() == 1


def test_the_login_page_mentions_the_platform_account_when_the_platform_is_configured(client, platform):
    assert "or your campaign platform account" in words(client.get("/login").text)


def test_a_wrong_platform_password_is_said_as_a_wrong_local_password_is(client, platform, producer):
    platform_refused = sign_in(client, USER, "not-the-password")
    local_refused = sign_in(client, producer, "not-the-password")
    assert error_of(platform_refused) == error_of(local_refused) == NO_MATCH
    assert platform_refused.status_code == local_refused.status_code == 200
    assert [r.form["username"] for r in platform.of("token")] == [USER, producer]


def test_wrong_platform_passwords_count_towards_the_throttle_of_failed_sign_ins(client, platform):
    for _ in range(5):
        assert error_of(sign_in(client, USER, "not-the-password")) == NO_MATCH
    refused = sign_in(client)
    assert refused.status_code == 429 and THROTTLED in refused.text
    assert len(platform.of("token")) == 5


@pytest.mark.parametrize("step", ["500", "sleep", "garbage", "missing"])
def test_a_platform_that_fails_is_said_plainly_and_local_accounts_still_sign_in(client, platform, producer, step):
    platform.script["token"] = [step]
    failed = sign_in(client)
    assert failed.status_code == 200 and NOT_ANSWERING in error_of(failed)
    assert PlatformSession.objects.count() == 0
    local = sign_in(client, producer, LOCAL_PASSWORD)
    assert local.status_code == 302 and client.get("/stations/1/").status_code == 200


def test_campaigns_that_fail_at_sign_in_are_said_as_a_platform_not_answering(client, platform):
    platform.script["campaigns"] = ["garbage"]
    assert NOT_ANSWERING in error_of(sign_in(client))


def test_a_station_not_among_the_users_campaigns_is_403_and_nothing_of_it_is_shown(client, platform):
    sign_in(client)
    for path in ("/stations/8/", "/stations/8/campaigns", "/stations/8/briefs", "/stations/8/explorer",
                 "/stations/8/credits", "/stations/2/"):
        page = client.get(path)
        assert page.status_code == 403, path
        assert "Kaya Eight FM" not in page.text and "Coast Radio" not in page.text
    assert "Kaya Eight FM" not in client.get("/stations/1/").text


def test_an_expired_access_token_is_renewed_on_the_next_page(client, platform):
    platform.expires_in = 30  # under the minute within which a token is renewed
    sign_in(client)
    platform.expires_in = 3600
    assert client.get(CAMPAIGNS).status_code == 200
    grants = [r.form["grant_type"] for r in platform.of("token")]
    assert grants == ["password", "refresh_token"]
    assert unseal(sole_session_id(client), stored().access_token) == platform.issued[-1]["access_token"]
    assert client.get(CAMPAIGNS).status_code == 200 and len(platform.of("token")) == 2


def test_a_refused_renewal_sends_the_user_to_sign_in_with_the_page_kept(client, platform):
    platform.expires_in = 30
    sign_in(client)
    platform.script["token"] = ["invalid_grant"]
    refused = client.get(CAMPAIGNS)
    assert refused.status_code == 302
    assert unquote(refused.headers["Location"]) == f"/login?next={CAMPAIGNS}"
    assert PlatformSession.objects.count() == 0
    assert client.get("/stations/1/").status_code == 302


def test_an_htmx_request_whose_renewal_is_refused_is_told_to_sign_in(client, platform):
    platform.expires_in = 30
    sign_in(client)
    platform.script["token"] = ["invalid_grant"]
    refused = client.get("/stations/1/", headers={"HX-Request": "true", "HX-Current-URL": "http://x/stations/1/"})
    assert refused.status_code == 401 and unquote(refused.headers["HX-Redirect"]) == "/login?next=/stations/1/"


def test_signing_out_deletes_the_platform_session_and_its_tokens(client, platform):
    sign_in(client)
    assert PlatformSession.objects.count() == 1
    assert client.post("/logout").status_code == 302
    assert PlatformSession.objects.count() == 0
    assert client.get(CAMPAIGNS).status_code == 302


def test_the_remember_me_cookie_holds_the_session_id_only_and_stops_at_sign_out(app, client, platform):
    sign_in(client, remember=True)
    remembered = client.get_cookie("remember_token").value
    session_id = unquote(remembered).removeprefix("p:").split("|")[0]
    assert stored().id == storage_id(session_id)
    later = app.test_client()
    later.set_cookie("remember_token", remembered)
    assert later.get(CAMPAIGNS).status_code == 200
    client.post("/logout")
    again = app.test_client()
    again.set_cookie("remember_token", remembered)
    assert again.get(CAMPAIGNS).status_code == 302


def test_no_token_reaches_a_cookie_a_page_or_a_url(app, client, platform):
    platform.expires_in = 30  # so that the pages below renew it, and both generations of tokens are checked
    seen = [sign_in(client, remember=True)]
    platform.expires_in = 3600
    for path in ("/", "/stations", "/stations/1/", CAMPAIGNS, "/stations/1/briefs"):
        seen.append(client.get(path))
    cookies = [client.get_cookie(name).value for name in ("session", "remember_token")]
    session = app.session_interface.get_signing_serializer(app).loads(cookies[0])
    assert storage_id(session["_user_id"].removeprefix("p:")) == stored().id
    texts = [*cookies, str(session)] + [r.text + str(r.headers) for r in seen]
    for secret in secrets_of(platform):
        assert not [text for text in texts if secret in text]


def test_no_log_line_holds_a_token_or_a_password(client, platform, caplog):
    caplog.set_level(logging.DEBUG)
    platform.expires_in = 30
    sign_in(client, USER, "a-wrong-password-1")
    sign_in(client)
    platform.expires_in = 3600
    client.get(CAMPAIGNS)
    client.get("/stations/1/briefs")
    platform.script["campaigns"] = ["500"]
    client.post("/logout")
    lines = [record.getMessage() + repr(record.args) for record in caplog.records]
    assert any("oauth2/access_token" in line for line in lines), "httpx's request lines are in the scan"
    assert any("platform_sessions" in line for line in lines), "and the database driver's documents"
    for secret in [*secrets_of(platform), "a-wrong-password-1"]:
        assert not [line for line in lines if secret in line]


def sole_session_id(client) -> str:
    """The platform session id the client's session cookie holds."""
    with client.session_transaction() as session:
        return session["_user_id"].removeprefix("p:")


def secrets_of(server) -> list[str]:
    """Everything that must never be shown or logged: the password, the client secret and every token issued."""
    tokens = [answer[name] for answer in server.issued for name in ("access_token", "refresh_token")]
    assert len(tokens) >= 2
    return [PASSWORD, CLIENT_SECRET, *tokens]


def test_the_campaigns_page_lists_the_stations_campaigns_each_starting_a_brief(client, platform):
    platform.campaigns = [campaign(company_id=1), campaign(id=2, name="Coast winter sale", company_id=2)]
    sign_in(client)
    page = client.get(CAMPAIGNS)
    text = words(page.text)
    assert "Summer gospel concert" in text and "Coast winter sale" not in text
    assert "1 Dec 2026 to 14 Dec 2026" in text and "Joyous Sounds" in text and "ZAR 50,000" in text
    assert "Sell 2,000 tickets" in text and "Live" in text
    link = unescape(re.search(r'href="([^"]+)" data-testid="campaign-start-brief"', page.text).group(1))
    assert link.startswith("/stations/1/briefs?brief=")
    briefs = client.get(link)
    assert briefs.status_code == 200
    textarea = re.search(r'data-testid="brief-text"[^>]*>([^<]*)</textarea>', briefs.text).group(1)
    assert unescape(textarea) == campaign()["description"]


def test_a_campaign_with_markup_in_its_fields_is_shown_escaped(client, platform):
    platform.campaigns = [campaign(name="<script>alert(1)</script>", advertiser='"><img src=x onerror=alert(2)>',
                                   description="<b>bold</b>")]
    sign_in(client)
    page = client.get(CAMPAIGNS).text
    assert "<script>alert(1)" not in page and "<img src=x" not in page and "<b>bold" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    briefs = client.get(unescape(re.search(r'href="([^"]+)" data-testid="campaign-start-brief"', page).group(1)))
    assert "<b>bold" not in briefs.text and "&lt;b&gt;bold&lt;/b&gt;" in briefs.text


def test_a_local_user_is_told_that_campaigns_come_from_the_platform(client, platform, producer):
    sign_in(client, producer, LOCAL_PASSWORD)
    page = client.get(CAMPAIGNS)
    assert page.status_code == 200 and 'data-testid="campaigns-local"' in page.text
    assert "Summer gospel concert" not in page.text


def test_a_brief_too_long_for_a_link_is_cut_at_a_word_to_fit_it(client, platform):
    brief = "Fête à Durban, été — dimanche matin. " * 60  # 2,000 characters kept, over 3,000 once in a URL
    platform.campaigns = [campaign(description=brief)]
    sign_in(client)
    link = unescape(re.search(r'href="([^"]+)" data-testid="campaign-start-brief"', client.get(CAMPAIGNS).text)[1])
    assert len(link) < 3100
    prefilled = unescape(re.search(r'data-testid="brief-text"[^>]*>([^<]*)</textarea>', client.get(link).text)[1])
    assert prefilled.endswith(" …") and brief.startswith(prefilled.removesuffix(" …") + " ")
