"""The campaign platform over HTTP: OAuth 2.0 password and refresh grants at AUTH_URL, and the campaigns a user may
access at PLATFORM_URL.

Everything the platform answers is checked before use: a status other than the documented ones, a body that is not
JSON, JSON without the fields OAuth promises or of other types, a page of campaigns that is not a list, are all
PlatformUnavailable, as are a connection that fails and an answer slower than PLATFORM_TIMEOUT_S. Only `invalid_grant`
(wrong credentials, a refresh token that is no longer valid) and a refused access token are PlatformRejected.

Tokens and passwords travel only in request bodies and the Authorization header: nothing here logs a body, a header
or an error message of the platform, and URLs carry no secret (httpx logs each request's URL at INFO).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import httpx

from core.config import Settings, active
from core.errors import PlatformRejected, PlatformUnavailable
from core.outbound import http_client

log = logging.getLogger(__name__)

TOKEN_PATH = "/oauth2/access_token/"
CAMPAIGNS_PATH = "/collate/campaigns/"
MAX_PAGES = 50
"""Pages of campaigns followed at most; a platform that has more is taken as broken (its `next` loops somehow)."""
MAX_TOKEN = 4096
"""The longest token kept: anything longer is not a token."""
OAUTH_ERRORS = {"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client",
                "unsupported_grant_type", "invalid_scope"}
"""The error codes of RFC 6749 (5.2), the only words of the platform a log line repeats."""


@dataclass(frozen=True)
class Tokens:
    """What a grant answers; the tokens stay out of the repr, so that no log line or traceback shows them."""

    access_token: str = field(repr=False)
    refresh_token: str = field(repr=False)
    expires_in: int
    scope: str


def password_grant(username: str, password: str) -> Tokens:
    """The tokens of a platform user, by the resource owner password grant; PlatformRejected for wrong
    credentials."""
    return _grant({"grant_type": "password", "username": username, "password": password})


def refresh_grant(refresh_token: str) -> Tokens:
    """New tokens for a refresh token (the platform may answer a new refresh token or keep the old one);
    PlatformRejected when it no longer accepts it."""
    return _grant({"grant_type": "refresh_token", "refresh_token": refresh_token}, keep=refresh_token)


def fetch_campaigns(access_token: str) -> list:
    """The raw campaigns the token's user may access, every page followed: a JSON list, or pages whose `results` hold
    the list and whose `next` leads on (on the platform's own host only, since the token goes with it)."""
    settings = configured()
    url: str | None = settings.platform_url.rstrip("/") + CAMPAIGNS_PATH
    seen: set[str] = set()
    found: list = []
    while url:
        if url in seen or len(seen) >= MAX_PAGES:
            log.warning("the campaign platform's pages of campaigns loop or exceed %d pages", MAX_PAGES)
            raise PlatformUnavailable()
        seen.add(url)
        response = _call("GET", url, headers={"Authorization": f"Bearer {access_token}",
                                              "Accept": "application/json"})
        if response.status_code in (401, 403):
            raise PlatformRejected("The campaign platform refused the access token.")
        items, url = _page(_json_of(response), url, settings.platform_url)
        found.extend(items)
    return found


def configured() -> Settings:
    """The active settings, which must name the platform (a caller asks only when `platform_configured`)."""
    settings = active()
    if not settings.platform_configured:
        raise PlatformUnavailable("The campaign platform is not configured.")
    return settings


def _grant(fields: dict, keep: str | None = None) -> Tokens:
    settings = configured()
    form = {"client_id": settings.platform_client_id, "client_secret": settings.platform_client_secret, **fields}
    response = _call("POST", settings.auth_url.rstrip("/") + TOKEN_PATH, data=form)
    if response.status_code in (400, 401):
        code = _error_code(response)
        if code == "invalid_grant":
            raise PlatformRejected()
        log.error("the campaign platform refused a %s grant with %s (%s)%s", fields["grant_type"],
                  response.status_code, code if code in OAUTH_ERRORS else "no OAuth error code",
                  ": check PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET" if code == "invalid_client" else "")
        raise PlatformUnavailable()
    return _tokens(_json_of(response), keep)


def _call(method: str, url: str, **options) -> httpx.Response:
    """One request with the configured timeout; a failure to connect or to answer in time is PlatformUnavailable."""
    try:
        with http_client(timeout=active().platform_timeout_s, follow_redirects=False) as client:
            return client.request(method, url, **options)
    except (httpx.HTTPError, httpx.InvalidURL) as error:
        log.warning("the campaign platform did not answer %s %s: %s", method, urlsplit(url).path,
                    type(error).__name__)
        raise PlatformUnavailable() from error


def _json_of(response: httpx.Response):
    """The JSON of a 200 answer; any other status or a body that is not JSON is PlatformUnavailable."""
    if response.status_code != 200:
        log.warning("the campaign platform answered %s to %s", response.status_code, response.request.url.path)
        raise PlatformUnavailable()
    try:
        return response.json()
    except ValueError:
        log.warning("the campaign platform answered %s with a body that is not JSON", response.request.url.path)
        raise PlatformUnavailable() from None


def _error_code(response: httpx.Response) -> str | None:
    """The OAuth `error` of a refusal, None when the body says none."""
    try:
        payload = response.json()
    except ValueError:
        return None
    code = payload.get("error") if isinstance(payload, dict) else None
    return code if isinstance(code, str) else None


def _tokens(payload, keep: str | None) -> Tokens:
    """The grant's answer, checked field by field."""
    payload = payload if isinstance(payload, dict) else {}
    access, refresh = payload.get("access_token"), payload.get("refresh_token", keep)
    expires, scope = _whole(payload.get("expires_in")), payload.get("scope", "")
    if not (_token(access) and _token(refresh) and expires and isinstance(scope, str)):
        log.warning("the campaign platform answered a grant without a usable access_token, refresh_token, "
                    "expires_in or scope")
        raise PlatformUnavailable()
    return Tokens(access, refresh, expires, scope[:1000])


def _token(value) -> bool:
    return isinstance(value, str) and 0 < len(value) <= MAX_TOKEN and value.isprintable()


def _whole(value) -> int | None:
    """A positive whole number given as a number or as digits, else None."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _page(payload, here: str, base: str) -> tuple[list, str | None]:
    """The campaigns of one answer and the URL of the next page (None: the last)."""
    if isinstance(payload, list):
        return payload, None
    results = payload.get("results") if isinstance(payload, dict) else None
    following = payload.get("next") if isinstance(payload, dict) else None
    if not isinstance(results, list) or not isinstance(following, str | None):
        log.warning("the campaign platform's campaigns are neither a list nor a page with a list of results")
        raise PlatformUnavailable()
    if not following:
        return results, None
    target = urljoin(here, following)
    if urlsplit(target)[:2] != urlsplit(base)[:2]:
        log.warning("the campaign platform's next page of campaigns is on another host; not followed")
        raise PlatformUnavailable()
    return results, target
