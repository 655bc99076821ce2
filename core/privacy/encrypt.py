"""Sealing in place what a station stored before sealing was built (`flask --app wsgi encrypt`): every store declared
to the registry (core.personal.registry) seals or keys its own documents stored plain (its `migrate`), after which
the station is marked keyed and readers look for keys alone.

Station by station; each store's migration touches only what is still plain, so a run cut short (a kill, a
deploy) resumes where it stopped when started again. Copies made before (backups, the oplog) stay plain until they
expire.
"""
from __future__ import annotations

from collections.abc import Callable

from core.listeners import finding
from core.personal.registry import stores
from core.stations.companies import list_companies


def encrypt_stations(said: Callable[[str], None] = lambda _: None) -> dict:
    """Seal every station's plain documents; {"sealed": [company ids], "already": [company ids]}."""
    done: dict[str, list[int]] = {"sealed": [], "already": []}
    for company in list_companies():
        company_id = company.company_id
        counts = {store.name: store.migrate(company_id) for store in stores() if store.migrate is not None}
        finding.mark_keyed(company_id)  # readers look for keys alone from now on
        sealed = [f"{name} ({count:,})" for name, count in counts.items() if count]
        done["sealed" if sealed else "already"].append(company_id)
        if sealed:
            said(f"Station {company_id}: {', '.join(sealed)} sealed")
    return done
