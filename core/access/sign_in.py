"""Who a sign-in is: one form serves local accounts and campaign platform users alike.

1. A local account whose password matches signs in as that local user; the platform is not asked.
2. Otherwise, when the platform is configured (AUTH_URL, PLATFORM_URL, PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET
   all set), the platform is asked with the same email and password by the OAuth 2.0 password grant; its user signs
   in, with the stations of the campaigns the platform lets them access.
3. Credentials that neither accepts give None: the form says "That email and password do not match an account.",
   whichever refused them, and the attempt counts once towards the throttle of failed sign-ins.
4. A platform that fails (down, slower than PLATFORM_TIMEOUT_S, an answer that is not what OAuth promises) raises
   PlatformUnavailable: the form says the campaign platform is not answering, and the attempt counts as failed too
   (the local password did not match, so guessing at a local account is throttled while the platform is down).
   Local accounts still sign in meanwhile, by rule 1.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.access.models import User
from core.access.platform_sessions import PlatformAccess, sign_in_platform
from core.access.users import verify_login
from core.config import active
from core.errors import PlatformRejected


@dataclass(frozen=True)
class SignedIn:
    """Who signed in: a local account, or a platform user's new session."""

    local: User | None = None
    platform: PlatformAccess | None = None


def sign_in(email: str, password: str) -> SignedIn | None:
    """The local user or the new platform session these credentials sign in as, None when neither accepts them;
    PlatformUnavailable when the platform had to be asked and failed."""
    user = verify_login(email, password)
    if user is not None:
        return SignedIn(local=user)
    if not platform_configured():
        return None
    try:
        return SignedIn(platform=sign_in_platform(email, password))
    except PlatformRejected:
        return None


def platform_configured() -> bool:
    """True when platform users can sign in."""
    return active().platform_configured
