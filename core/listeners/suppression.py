"""The suppression list: keyed hashes of numbers erased with suppress=true, whose later data imports drop.

Only a keyed hash of the digits is kept, so the list itself holds no number; '+27 82 123 4567' and '27821234567'
hash alike.
"""
from __future__ import annotations

from collections.abc import Iterable

from core.clock import utcnow
from core.listeners.models import Suppression
from core.listeners.pseudonyms import keyed_hash, number_digits


def suppress_numbers(company_id: int, secret: str, numbers: Iterable[str | None]) -> int:
    """Put the numbers on the company's suppression list; returns how many distinct hashes it holds for them."""
    hashes = {keyed_hash(secret, number_digits(n)) for n in numbers if number_digits(n or "")}
    for digest in hashes:
        Suppression.objects(company_id=company_id, number_hash=digest).update_one(
            set_on_insert__created_at=utcnow(), upsert=True)
    return len(hashes)


class SuppressionList:
    """The suppressed numbers of each company, read once per import, checked by keyed hash."""

    def __init__(self, secret: str):
        self._secret, self._hashes = secret, {}

    def blocks(self, company_id: int, number: str) -> bool:
        """True when this number (an originator or a mobile number) was erased with suppress=true."""
        if company_id not in self._hashes:
            self._hashes[company_id] = {s.number_hash for s in Suppression.objects(company_id=company_id)}
        digits = number_digits(number)
        return bool(digits) and bool(self._hashes[company_id]) and \
            keyed_hash(self._secret, digits) in self._hashes[company_id]
