"""Keyed pseudonyms and hashes: irreversible without the server secret, stable for the same input."""
from __future__ import annotations

import hashlib
import hmac
import re


def keyed_hash(secret: str, value: str) -> str:
    """HMAC-SHA256 of a value under the server secret, hex."""
    return hmac.new(secret.encode(), value.encode(), hashlib.sha256).hexdigest()


ERASED_PREFIX = "erased-"


def pseudonym(secret: str, company_id: int, originator: str) -> str:
    """The originator an erased listener is kept under."""
    return ERASED_PREFIX + keyed_hash(secret, f"{company_id}:{originator}")[:24]


def number_digits(number: str) -> str:
    """A phone number reduced to its digits, so '+27 82 123 4567' and '27821234567' hash alike."""
    return re.sub(r"\D", "", number or "")
