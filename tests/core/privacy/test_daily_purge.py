"""The daily purge, when an operator asks for one (DAILY_PURGE=true), runs only when an erasure happened since the last
one: a new server's first start does not stop its database to rewrite files that hold nothing erased. In memory: the
audit's last erasure and last purge are given (core.privacy.purge.last_erasure and last_purge read them)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import utcnow
from core.config import Settings
from core.privacy import purge
from core.service import daily
from core.service.daily import jobs_of

DAILY = Settings.from_env({"DAILY_SEGMENTATION": "false", "DAILY_PURGE": "true", "PURGE_AT": "02:00"})


@pytest.fixture
def audit(monkeypatch):
    """audit(erased=, purged=): the audit's last erasure and last purge, each a time or None (and no station with
    alert rules, whose daily checks are not these tests')."""
    monkeypatch.setattr(daily, "stations_with_rules", lambda: [])
    monkeypatch.setattr(daily, "list_companies", lambda ids=None: [])

    def given(erased=None, purged=None) -> None:
        monkeypatch.setattr(purge, "last_erasure", lambda: erased)
        monkeypatch.setattr(purge, "last_purge", lambda: purged)

    return given


def purge_due(now) -> bool:
    return next(job for job in jobs_of(DAILY) if job.name == "purge").due(now)


def test_without_any_erasure_the_purge_is_not_due(audit):
    audit()
    assert not purge_due(utcnow())


def test_an_erasure_never_purged_makes_the_purge_due(audit):
    audit(erased=utcnow() - timedelta(days=2))
    assert purge_due(utcnow())


def test_an_erasure_before_the_last_purge_is_already_purged(audit):
    audit(erased=utcnow() - timedelta(days=2), purged=utcnow() - timedelta(days=1))
    assert not purge_due(utcnow())


def test_an_erasure_after_the_last_purge_is_purged_at_the_next_purge_time(audit):
    audit(erased=utcnow() - timedelta(days=2), purged=utcnow() - timedelta(days=3))
    assert purge_due(utcnow())
