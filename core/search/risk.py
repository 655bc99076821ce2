"""Churn risk of one listener as a service: the model of core.search.churn over that listener's own interactions,
read in the station's time zone."""
from __future__ import annotations

from datetime import datetime

from core.clock import as_utc
from core.explore.listener import find_listener
from core.listeners.events import listener_history
from core.search.churn import churn_risk
from core.stations import defaults
from core.stations.companies import get_company


def listener_churn_risk(company_id: int, originator: str, now: datetime | None = None) -> dict:
    """{company_id, originator, level, score, signals, as_of} of one listener as of `now` (default: the clock);
    reads that listener's batches alone. ListenerNotFound for a listener who is unknown or was erased."""
    company = get_company(company_id)
    find_listener(company_id, originator, {"originator": 1})
    moment = as_utc(now)
    history = listener_history(company_id, originator, moment)
    risk = churn_risk(history.ms // 1000, moment, company.timezone or defaults.TIMEZONE)
    return {"company_id": company_id, "originator": originator, **risk, "as_of": moment.isoformat()}
