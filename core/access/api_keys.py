"""API keys: random tokens shown once, stored as SHA-256 hashes, each scoped to some companies or to all."""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from core.access.models import ApiKey
from core.clock import utcnow
from core.errors import Forbidden, NotFound, Unauthorized

TOKEN_PREFIX = "lss_"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class KeyScope:
    """What a presented key may read."""

    key_id: str
    name: str
    companies: frozenset[int]
    all_companies: bool

    def allows(self, company_id: int) -> bool:
        """True when the key covers this company."""
        return self.all_companies or company_id in self.companies


def create_key(companies: list[int], all_companies: bool = False, name: str = "") -> tuple[ApiKey, str]:
    """Create a key and return it with its token; the token is never stored and cannot be shown again."""
    if not companies and not all_companies:
        raise ValueError("a key needs at least one company, or all")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    key = ApiKey(name=name, key_hash=_hash(token), prefix=token[:10], companies=sorted(set(companies)),
                 all_companies=all_companies).save()
    return key, token


def authenticate(token: str | None) -> KeyScope:
    """The scope of a presented token; Unauthorized when missing, unknown or revoked."""
    if not token:
        raise Unauthorized("Missing API key: send it in the X-API-Key header")
    key = ApiKey.objects(key_hash=_hash(token), revoked_at=None).first()
    if key is None or not hmac.compare_digest(key.key_hash, _hash(token)):
        raise Unauthorized("Invalid or revoked API key")
    return KeyScope(str(key.id), key.name, frozenset(key.companies), key.all_companies)


def authorise(scope: KeyScope, company_id: int) -> None:
    """Forbidden unless the key covers the company (the same answer whether or not the company exists)."""
    if not scope.allows(company_id):
        raise Forbidden("This API key is not allowed to access this company")


def check_admin(presented: str | None, admin_key: str | None) -> None:
    """Admin endpoints need X-Admin-Key equal to ADMIN_KEY (constant-time compare)."""
    if not admin_key:
        raise Forbidden("Admin endpoints are disabled: ADMIN_KEY is not configured on the server")
    if not presented or not hmac.compare_digest(presented.encode(), admin_key.encode()):
        raise Forbidden("A valid X-Admin-Key header is required for this endpoint")


def list_keys() -> list[ApiKey]:
    """Every key, newest first (hashes only)."""
    return list(ApiKey.objects.order_by("-created_at"))


def revoke_key(prefix_or_id: str) -> ApiKey:
    """Revoke a key by its printed prefix or its id."""
    key = ApiKey.objects(prefix=prefix_or_id).first()
    if key is None and len(prefix_or_id) == 24:
        key = ApiKey.objects(id=prefix_or_id).first()
    if key is None:
        raise NotFound(f"No API key {prefix_or_id}")
    key.revoked_at = utcnow()
    key.save()
    return key
