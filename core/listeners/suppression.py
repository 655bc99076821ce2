"""The suppression list: keyed hashes of numbers erased with suppress=true, whose later data imports drop.

Only a keyed hash of the digits is kept, so the list itself holds no number; '+27 82 123 4567' and '27821234567'
hash alike, and with the company's country '082 123 4567' is checked as '27821234567'.
"""
from __future__ import annotations

from collections.abc import Iterable

from core.clock import utcnow
from core.listeners.identifiers import e164
from core.listeners.models import Suppression
from core.personal.pseudonyms import keyed_hash, number_digits


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

    def blocks(self, company_id: int, number: str, country: str | None = None) -> bool:
        """True when this number (an originator or a mobile number) was erased with suppress=true; given the
        company's `country`, a number written in national form ('0821234567') is recognised too."""
        if company_id not in self._hashes:
            self._hashes[company_id] = {s.number_hash for s in Suppression.objects(company_id=company_id)}
        hashes = self._hashes[company_id]
        return bool(hashes) and any(keyed_hash(self._secret, digits) in hashes
                                    for digits in _digit_forms(number, country))


def _digit_forms(number: str, country: str | None) -> list[str]:
    """The digits as written and, for a number written with a leading 0 (national or 00 form), those of its E.164.

    Digits without a leading 0 already are the international form; only the others need the phone parser, which
    is too slow (tens of microseconds) to run on every originator of a large import.
    """
    digits = number_digits(number)
    forms = [digits] if digits else []
    international = e164(number, country) if country and digits.startswith("0") else None
    if international:
        forms.append(number_digits(international))
    return forms
