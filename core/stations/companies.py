"""Stations: created on first sight by any import, with defaults an operator can change."""
from __future__ import annotations

from core.clock import utcnow, zone_of
from core.errors import CompanyNotFound
from core.stations.models import Company

COMPANY_IDS = (0, 2**63 - 1)
"""The company ids there can be: the database stores 8-byte integers, so a larger id could be neither kept nor found."""


def get_company(company_id: int) -> Company:
    """The company, or CompanyNotFound."""
    company = Company.objects(company_id=company_id).first()
    if company is None:
        raise CompanyNotFound(f"Company {company_id} not found")
    return company


def timezone_of(company_id: int) -> str:
    """The name of the company's time zone (core.clock.zone_of: the default station zone for one it does not name or
    that is unknown, and for an id no import has created yet: credits may be loaded for a station before its first
    import)."""
    company = Company.objects(company_id=company_id).only("timezone").first()
    return zone_of(company.timezone if company is not None else None).key


def ensure_company(company_id: int) -> Company:
    """The company, created with defaults if it does not exist yet (race-safe upsert)."""
    Company.objects(company_id=company_id).update_one(set_on_insert__created_at=utcnow(),
                                                      set_on_insert__originators_keyed=True, upsert=True)
    return Company.objects.get(company_id=company_id)


def list_companies(company_ids: list[int] | None = None) -> list[Company]:
    """All companies, or those of the given ids, by id."""
    query = Company.objects if company_ids is None else Company.objects(company_id__in=company_ids)
    return list(query.order_by("company_id"))


def bump_version(company_id: int) -> int:
    """Mark the company's listener data as changed (cached snapshots of it are stale); returns the new version."""
    company = Company.objects(company_id=company_id).modify(inc__data_version=1, new=True, upsert=True)
    return company.data_version
