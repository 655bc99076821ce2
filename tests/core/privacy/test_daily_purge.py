"""The daily purge, when an operator asks for one (DAILY_PURGE=true), runs only when an erasure happened since the last
one: a new server's first start does not stop its database to rewrite files that hold nothing erased."""
from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import utcnow
from core.config import Settings
from core.privacy.models import AuditEntry
from core.privacy.purge import ACTION, ERASED
from core.service.daily import jobs_of

pytestmark = pytest.mark.db

DAILY = Settings.from_env({"DAILY_SEGMENTATION": "false", "DAILY_PURGE": "true", "PURGE_AT": "02:00"})


def purge_due(now) -> bool:
    return next(job for job in jobs_of(DAILY) if job.name == "purge").due(now)


def test_without_any_erasure_the_purge_is_not_due(app):
    assert not purge_due(utcnow())


def test_an_erasure_never_purged_makes_the_purge_due(app):
    AuditEntry(company_id=1, action=ERASED, at=utcnow() - timedelta(days=2)).save()
    assert purge_due(utcnow())


def test_an_erasure_before_the_last_purge_is_already_purged(app):
    AuditEntry(company_id=1, action=ERASED, at=utcnow() - timedelta(days=2)).save()
    AuditEntry(company_id=0, action=ACTION, at=utcnow() - timedelta(days=1)).save()
    assert not purge_due(utcnow())


def test_an_erasure_after_the_last_purge_is_purged_at_the_next_purge_time(app):
    AuditEntry(company_id=0, action=ACTION, at=utcnow() - timedelta(days=3)).save()
    AuditEntry(company_id=1, action=ERASED, at=utcnow() - timedelta(days=2)).save()
    assert purge_due(utcnow())
