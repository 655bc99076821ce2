"""The sessions of campaign platform users: made at sign-in, kept alive by the refresh grant, their campaigns and
stations refreshed from the platform at most every five minutes, deleted at sign-out. The tokens never leave this
module: callers get a PlatformAccess (who, which stations, which campaigns), and the database holds them sealed
(core.access.session_tokens).

Renewal: an access token that expires within RENEW_MARGIN is renewed with the refresh token at the next request.
When the platform refuses the refresh token, or the token has expired and the platform does not answer, the session
is deleted and the person signs in again. Campaigns: a request more than CAMPAIGNS_EVERY after the last fetch asks
again; a platform that fails then keeps the last list, and is asked again no sooner than RETRY_EVERY later, so that a
platform that is down is not asked at every request. A station gone from the new list can no longer be opened.
"""
from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from core.access import platform
from core.access.models import PlatformSession
from core.access.platform_campaigns import MAX_CAMPAIGNS, campaigns_of, companies_of
from core.access.session_tokens import seal, storage_id, unseal
from core.clock import as_utc
from core.errors import PlatformRejected, PlatformUnavailable

log = logging.getLogger(__name__)

RENEW_MARGIN = timedelta(seconds=60)
CAMPAIGNS_EVERY = timedelta(minutes=5)
RETRY_EVERY = timedelta(minutes=1)
TOUCH_EVERY = timedelta(hours=1)
"""How often a session in use has its last use written (which keeps it from expiring), rather than at every
request."""


@dataclass(frozen=True)
class PlatformAccess:
    """A platform user's session as the rest of the service sees it: the random id their browser holds, who they are,
    the stations they may open and their campaigns. No token."""

    id: str
    username: str
    companies: tuple[int, ...]
    campaigns: tuple[dict, ...]


def sign_in_platform(username: str, password: str, now: datetime | None = None) -> PlatformAccess:
    """A new session for a platform user, with their campaigns: PlatformRejected for wrong credentials,
    PlatformUnavailable when the platform fails at either step."""
    now = as_utc(now)
    tokens = platform.password_grant(username.strip(), password)
    try:
        campaigns = _campaigns(tokens.access_token)
    except PlatformRejected:  # a token it has just made: the platform is not itself
        raise PlatformUnavailable() from None
    session_id = secrets.token_urlsafe(32)
    stored = PlatformSession(id=storage_id(session_id), username=username.strip(), created_at=now, used_at=now,
                             campaigns_at=now, campaigns_tried_at=now, **campaigns)
    _set_tokens(stored, session_id, tokens, now)
    stored.save(force_insert=True)
    return _access(session_id, stored)


def current_platform_session(session_id: str, now: datetime | None = None) -> PlatformAccess | None:
    """The session, its access token renewed when about to expire and its campaigns refreshed when due; None when
    there is no such session or it has just ended (the refresh token was refused, or an expired token could not be
    renewed)."""
    now = as_utc(now)
    stored = PlatformSession.objects(id=storage_id(session_id)).first() if session_id else None
    if stored is not None and as_utc(stored.expires_at) - RENEW_MARGIN <= now:
        stored = _renewed(session_id, stored, now)
    if stored is not None and _campaigns_due(stored, now):
        stored = _with_fresh_campaigns(session_id, stored, now)
    if stored is None:
        return None
    if as_utc(stored.used_at) + TOUCH_EVERY <= now:
        PlatformSession.objects(id=stored.id).update_one(set__used_at=now)
    return _access(session_id, stored)


def end_platform_session(session_id: str) -> None:
    """Sign out: the session and its tokens are deleted."""
    PlatformSession.objects(id=storage_id(session_id)).delete()


def _renewed(session_id: str, stored: PlatformSession, now: datetime) -> PlatformSession | None:
    """The session with new tokens; None (and the session deleted) when the platform refuses the refresh token, or
    fails while the access token has expired."""
    refresh = unseal(session_id, stored.refresh_token)
    try:
        if refresh is None:
            raise PlatformRejected("The refresh token cannot be read.")
        tokens = platform.refresh_grant(refresh)
    except PlatformRejected:
        return _ended_unless_renewed(stored, "the campaign platform refused the refresh token")
    except PlatformUnavailable:
        if as_utc(stored.expires_at) > now:
            return stored  # still valid for a few seconds: the next request tries again
        return _ended(stored, "the access token expired and the campaign platform did not renew it")
    _set_tokens(stored, session_id, tokens, now)
    PlatformSession.objects(id=stored.id).update_one(
        set__access_token=stored.access_token, set__refresh_token=stored.refresh_token,
        set__expires_at=stored.expires_at, set__scope=stored.scope)
    return stored


def _campaigns_due(stored: PlatformSession, now: datetime) -> bool:
    fetched, tried = stored.campaigns_at, stored.campaigns_tried_at
    return (fetched is None or as_utc(fetched) + CAMPAIGNS_EVERY <= now) and \
        (tried is None or as_utc(tried) + RETRY_EVERY <= now)


def _with_fresh_campaigns(session_id: str, stored: PlatformSession, now: datetime) -> PlatformSession | None:
    """The session with its campaigns and stations fetched again; the last ones kept when the platform fails, and
    None (the session ended) when it refuses the access token."""
    try:
        fresh = _campaigns(unseal(session_id, stored.access_token) or "")
    except PlatformUnavailable:
        PlatformSession.objects(id=stored.id).update_one(set__campaigns_tried_at=now)
        stored.campaigns_tried_at = now
        return stored
    except PlatformRejected:
        return _ended_unless_renewed(stored, "the campaign platform refused the access token")
    PlatformSession.objects(id=stored.id).update_one(set__campaigns=fresh["campaigns"],
                                                     set__companies=fresh["companies"], set__campaigns_at=now,
                                                     set__campaigns_tried_at=now)
    stored.campaigns, stored.companies = fresh["campaigns"], fresh["companies"]
    stored.campaigns_at = stored.campaigns_tried_at = now
    return stored


def _campaigns(access_token: str) -> dict:
    """The user's campaigns (the first MAX_CAMPAIGNS) and the stations of all of them, from the platform."""
    campaigns = campaigns_of(platform.fetch_campaigns(access_token), platform.configured().platform_company_field)
    return {"campaigns": campaigns[:MAX_CAMPAIGNS], "companies": companies_of(campaigns)}


def _set_tokens(stored: PlatformSession, session_id: str, tokens: platform.Tokens, now: datetime) -> None:
    stored.access_token = seal(session_id, tokens.access_token)
    stored.refresh_token = seal(session_id, tokens.refresh_token)
    stored.scope = tokens.scope
    stored.expires_at = now + timedelta(seconds=min(tokens.expires_in, 10 * 365 * 86400))


def _access(session_id: str, stored: PlatformSession) -> PlatformAccess:
    return PlatformAccess(session_id, stored.username, tuple(stored.companies or ()), tuple(stored.campaigns or ()))


def _ended_unless_renewed(stored: PlatformSession, why: str) -> PlatformSession | None:
    """The session as another request has just renewed it, if one has (the tokens this one used are then the old
    ones, which the platform may refuse); else the session ends."""
    again = PlatformSession.objects(id=stored.id).first()
    if again is not None and (again.access_token, again.refresh_token) != (stored.access_token, stored.refresh_token):
        return again
    return _ended(stored, why)


def _ended(stored: PlatformSession, why: str) -> None:
    log.info("a campaign platform session ended: %s", why)
    PlatformSession.objects(id=stored.id).delete()
    return None
