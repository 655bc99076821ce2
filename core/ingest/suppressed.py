"""Rows of suppressed numbers (erasure with suppress=true, docs/decisions.md §7): every importer drops them the same
way and counts them, so that `rows = imported + duplicates + suppressed + bad rows` holds for every kind."""
from __future__ import annotations

from core.config import active
from core.ingest.tally import Companies, Tally
from core.listeners.suppression import SuppressionList


class SuppressedNumbers:
    """One import's view of the suppression list: which rows to drop, each dropped row counted as suppressed."""

    def __init__(self, tally: Tally, companies: Companies):
        self._list, self._tally, self._companies = SuppressionList(active().secret_key), tally, companies
        self._blocked: set[tuple[int, str]] = set()

    def drops(self, company_id: int, *numbers: str | None) -> bool:
        """True, and the row counted as suppressed, when any of the row's numbers is suppressed for the company."""
        if any(self._is_blocked(company_id, number) for number in numbers if number):
            self._tally.suppressed += 1
            return True
        return False

    def _is_blocked(self, company_id: int, number: str) -> bool:
        """Blocked numbers are remembered, so the later rows of a suppressed listener cost no hashing."""
        if (company_id, number) in self._blocked:
            return True
        if self._list.blocks(company_id, number, self._companies.country(company_id)):
            self._blocked.add((company_id, number))
            return True
        return False
