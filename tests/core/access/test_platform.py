"""Platform sessions through real HTTP (the loopback platform of tests.platform_server), on the database: the tokens
are kept server-side and sealed, wrong credentials and a platform that fails at sign-in store no session, tokens are
renewed before they expire, and campaigns refreshed every five minutes at most. (The grants and the campaigns as
read, with no database: test_platform_calls.py.)"""
from __future__ import annotations

from datetime import timedelta

import pytest

from core.access.models import PlatformSession
from core.access.platform_sessions import (
    PlatformAccess,
    current_platform_session,
    end_platform_session,
    sign_in_platform,
)
from core.access.session_tokens import storage_id, unseal
from core.access.sign_in import sign_in
from core.access.users import create_user
from core.clock import as_utc, utcnow
from core.config import active
from core.errors import PlatformRejected, PlatformUnavailable
from tests.platform_server import (  # noqa: F401
    CLIENT_ID,
    CLIENT_SECRET,
    PASSWORD,
    USER,
    campaign,
    loopback_platform,
    platform_settings,
)

pytestmark = pytest.mark.db

FORM = "application/x-www-form-urlencoded"


def signed_in(server, *stations: int) -> PlatformAccess:
    """A platform user signed in, their campaigns on these stations (one each)."""
    server.campaigns = [campaign(id=100 + s, name=f"Campaign on {s}", company_id=s) for s in stations]
    return sign_in_platform(USER, PASSWORD)


def stored(access: PlatformAccess) -> PlatformSession:
    """The session's document."""
    return PlatformSession.objects(id=storage_id(access.id)).get()


def tokens_of(access: PlatformAccess) -> tuple[str, str]:
    """The session's access and refresh tokens, unsealed."""
    document = stored(access)
    return unseal(access.id, document.access_token), unseal(access.id, document.refresh_token)


def test_signing_in_keeps_the_tokens_the_campaigns_and_their_stations_in_the_database(configured_platform):
    before = utcnow()
    made = signed_in(configured_platform, 1, 8)
    document, issued = stored(made), configured_platform.issued[-1]
    assert (document.username, document.scope) == (USER, "read write")
    assert tokens_of(made) == (issued["access_token"], issued["refresh_token"])
    assert before + timedelta(seconds=3590) < as_utc(document.expires_at) <= utcnow() + timedelta(seconds=3600)
    assert made.companies == tuple(document.companies) == (1, 8)
    assert [c["name"] for c in made.campaigns] == ["Campaign on 1", "Campaign on 8"]
    asked = configured_platform.of("campaigns")[0]
    assert asked.headers["Authorization"] == f"Bearer {issued['access_token']}"


def test_the_database_holds_the_tokens_sealed_under_the_hash_of_an_id_only_the_browser_has(configured_platform):
    made = signed_in(configured_platform, 1)
    issued = configured_platform.issued[-1]
    everything = str(PlatformSession.objects.as_pymongo()[0])
    assert len(made.id) >= 40 and made.id not in everything
    assert issued["access_token"] not in everything and issued["refresh_token"] not in everything
    assert unseal("another-session-id", stored(made).access_token) is None
    assert issued["access_token"] not in repr(made) + repr(stored(made))


def test_a_wrong_password_is_rejected(configured_platform):
    with pytest.raises(PlatformRejected):
        sign_in_platform(USER, "not-the-password")
    assert configured_platform.of("campaigns") == [] and PlatformSession.objects.count() == 0


def test_campaigns_that_refuse_the_token_just_made_at_sign_in_make_the_platform_unavailable(configured_platform):
    configured_platform.script["campaigns"] = ["401"]
    with pytest.raises(PlatformUnavailable):
        sign_in_platform(USER, PASSWORD)
    assert PlatformSession.objects.count() == 0


def expiry(access: PlatformAccess):
    return as_utc(stored(access).expires_at)


def fetched(access: PlatformAccess):
    return as_utc(stored(access).campaigns_at)


def test_an_access_token_that_expires_within_a_minute_is_renewed_with_the_refresh_grant(configured_platform):
    made = signed_in(configured_platform, 1)
    first = configured_platform.issued[-1]
    later = expiry(made) - timedelta(seconds=30)
    assert current_platform_session(made.id, later) == made
    refresh = configured_platform.of("token")[-1]
    assert refresh.form == {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "grant_type": "refresh_token",
                            "refresh_token": first["refresh_token"]}
    latest = configured_platform.issued[-1]
    assert tokens_of(made) == (latest["access_token"], latest["refresh_token"])
    assert latest["refresh_token"] != first["refresh_token"]
    assert abs(expiry(made) - (later + timedelta(seconds=3600))) < timedelta(milliseconds=1)


def test_an_access_token_far_from_expiry_is_not_renewed(configured_platform):
    made = signed_in(configured_platform, 1)
    assert current_platform_session(made.id, expiry(made) - timedelta(minutes=2)) == made
    assert len(configured_platform.of("token")) == 1


def test_a_refused_refresh_ends_the_session(configured_platform):
    made = signed_in(configured_platform, 1)
    configured_platform.script["token"] = ["invalid_grant"]
    assert current_platform_session(made.id, expiry(made) - timedelta(seconds=30)) is None
    assert PlatformSession.objects.count() == 0


def test_an_expired_token_the_platform_does_not_renew_ends_the_session(configured_platform):
    made = signed_in(configured_platform, 1)
    configured_platform.script["token"] = ["500"]
    assert current_platform_session(made.id, expiry(made) + timedelta(seconds=1)) is None
    assert PlatformSession.objects.count() == 0


def test_a_token_still_valid_is_kept_while_the_platform_does_not_renew_it(configured_platform):
    made = signed_in(configured_platform, 1)
    before = tokens_of(made)
    configured_platform.script["token"] = ["sleep"]
    assert current_platform_session(made.id, expiry(made) - timedelta(seconds=30)) == made
    assert tokens_of(made) == before


def test_campaigns_are_fetched_again_after_five_minutes_and_a_station_no_longer_listed_is_gone(configured_platform):
    made = signed_in(configured_platform, 1, 8)
    configured_platform.campaigns = [campaign(company_id=1)]
    start = fetched(made)
    soon = current_platform_session(made.id, start + timedelta(minutes=4, seconds=59))
    assert soon.companies == (1, 8) and len(configured_platform.of("campaigns")) == 1
    later = current_platform_session(made.id, start + timedelta(minutes=5))
    assert later.companies == (1,) and len(configured_platform.of("campaigns")) == 2
    assert stored(made).companies == [1]


def test_campaigns_the_platform_fails_to_refresh_are_kept_and_asked_again_a_minute_later(configured_platform):
    made = signed_in(configured_platform, 1, 8)
    configured_platform.script["campaigns"] = ["500"]
    start = fetched(made)
    for minutes, asked in ((6, 2), (6.5, 2), (7, 3)):
        kept = current_platform_session(made.id, start + timedelta(minutes=minutes))
        assert kept.companies == (1, 8)
        assert len(configured_platform.of("campaigns")) == asked, minutes


def test_signing_out_deletes_the_session_and_its_tokens(configured_platform):
    made = signed_in(configured_platform, 1)
    end_platform_session(made.id)
    assert PlatformSession.objects.count() == 0
    assert current_platform_session(made.id) is None


def test_a_local_account_whose_password_matches_never_asks_the_platform(configured_platform):
    create_user(USER, "local-password-1", companies=[2])
    assert sign_in(USER, "local-password-1").local.email == USER
    assert configured_platform.requests == []


def test_a_local_password_that_does_not_match_asks_the_platform(configured_platform):
    create_user(USER, "local-password-1", companies=[2])
    assert sign_in(USER, PASSWORD).platform.companies == (1,)
    assert sign_in(USER, "neither-password") is None


def test_without_the_platform_configured_only_local_accounts_sign_in(app, platform_server):
    assert not active().platform_configured
    assert sign_in(USER, PASSWORD) is None
    assert platform_server.requests == []
