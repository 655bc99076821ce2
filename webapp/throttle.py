"""Failed sign-ins throttled per account and per client address, with counters every worker shares.

flask-limiter checks both limits before a sign-in and counts only the attempts that the view reports as failed
(`count_failed_sign_in`), so that signing in and out all day never throttles anyone. Past either limit a sign-in
answers 429 with Retry-After (webapp.errors), right password or not, until the oldest failure leaves the window.
A counter store that does not answer never blocks a sign-in: the error is logged and the request goes on (to a 503
if the database is down for it too).
"""
from __future__ import annotations

import math

from flask import current_app, g, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from core.access import throttle
from core.access.users import normalise_email
from core.clock import utcnow

MESSAGE = "Too many failed sign-ins for this account or from your network. Wait a little, then try again."

limiter = Limiter(get_remote_address, storage_uri=throttle.STORAGE_URI, strategy=throttle.STRATEGY,
                  swallow_errors=True)


def _account() -> str:
    """The account a sign-in is for, as accounts are stored: 'Thandi@Jozi.FM ' and 'thandi@jozi.fm' count as one."""
    return normalise_email(request.form.get("email")) or "-"  # an empty key would skip the limit


def _failed(_response) -> bool:
    return g.get("sign_in_failed", False)


def count_failed_sign_in() -> None:
    """This request is a failed sign-in: it counts against its account and its address."""
    g.sign_in_failed = True


def _limit(setting: str, key_func, scope: str):
    return limiter.limit(lambda: getattr(current_app.config["SETTINGS"], setting), key_func=key_func, scope=scope,
                         methods=["POST"], deduct_when=_failed, error_message=MESSAGE)


per_account = _limit("login_limit_account", _account, "account")
per_address = _limit("login_limit_address", get_remote_address, "address")


def sign_in_limited(view):
    """Decorator of the sign-in view: both limits of failed sign-ins."""
    return per_account(per_address(view))


def seconds_until_retry() -> int:
    """How long the client of a throttled request waits before its next attempt is let through (at least 1 s)."""
    breached = limiter.current_limit
    if breached is None:  # a 429 raised by something else than these limits: a minute is what they would say
        return 60
    return max(1, math.ceil(breached.window.reset_time - utcnow().timestamp()))
