"""The signature every delivery carries, as Stripe and GitHub sign theirs: `X-Signature: t=<unix seconds>,v1=<hex
HMAC-SHA256 of "<t>.<body>" with the endpoint's secret>`, so that a receiver knows the body is ours and recent."""
from __future__ import annotations

import hashlib
import hmac

HEADER = "X-Signature"


def signature(secret: str, body: bytes, timestamp: int) -> str:
    """The header's value for this body sent at `timestamp` (unix seconds)."""
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={mac}"
