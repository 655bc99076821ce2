"""An erasure cut short (a killed process) never leaves a listener half-erased: it is recorded before its first
store is reached, whom it erases sealed, and the next worker round finishes it store by store from where it stopped
(issue 48, item 7). Stores are reached through the registry: a store declared later is reached too."""
from __future__ import annotations

import pytest

from core.audiences.store import create_audience, get_audience
from core.campaigns.plans import get_plan, save_plan
from core.config import active
from core.credits.ledger import load
from core.db.leases import lease
from core.errors import ListenerNotFound
from core.explore.listener import get_listener
from core.personal import registry
from core.privacy.erasure import erase_listener
from core.privacy.models import AuditEntry, PendingErasure
from core.privacy.purge import ERASED
from core.service.worker import Worker
from tests.core.campaigns.test_plans import ANSWER, cached
from tests.core.privacy.test_erasure import ORIGINATOR, PERSON, SECRET, everything_stored, person  # noqa: F401
from tests.themes import GOSPEL_THEME

pytestmark = pytest.mark.db


class Killed(BaseException):
    """The process dies here: nothing after it in the erasure runs."""


def dies_the_first_time(calls: list):
    def erase(_erasure) -> int:
        calls.append(1)
        if len(calls) == 1:
            raise Killed
        return 0
    return erase


def test_an_erasure_killed_half_way_is_finished_by_the_next_worker_round(person, monkeypatch):  # noqa: F811
    calls = []
    dying = registry.Store("m_dies", "m_dies", erase=dies_the_first_time(calls))
    monkeypatch.setitem(registry._STORES, "m_dies", dying)
    with pytest.raises(Killed):
        erase_listener(1, ORIGINATOR, SECRET)
    [pending] = PendingErasure.objects
    assert set(pending.done) >= {"listeners", "interactions"} and "snapshot" not in pending.done
    assert b"nomvula" not in everything_stored() and ORIGINATOR.encode() not in everything_stored()
    assert not AuditEntry.objects(action=ERASED)
    Worker(active()).finish_erasures()
    assert not PendingErasure.objects and len(calls) == 2
    [entry] = AuditEntry.objects(action=ERASED)
    assert set(entry.details["stores"]) == {store.name for store in registry.stores() if store.erase}
    with pytest.raises(ListenerNotFound):
        get_listener(1, ORIGINATOR)
    Worker(active()).finish_erasures()  # nothing left: finished once
    assert AuditEntry.objects(action=ERASED).count() == 1


def test_an_erasure_under_way_in_another_process_is_left_to_it(person, monkeypatch):  # noqa: F811
    monkeypatch.setitem(registry._STORES, "m_dies", registry.Store("m_dies", "m_dies", erase=dies_the_first_time([])))
    with pytest.raises(Killed):
        erase_listener(1, ORIGINATOR, SECRET)
    [pending] = PendingErasure.objects
    with lease(f"erasure:{pending.id}"):  # its process still works on it
        Worker(active()).finish_erasures()
        assert PendingErasure.objects.count() == 1
    Worker(active()).finish_erasures()
    assert not PendingErasure.objects


def test_an_audience_and_a_plan_named_after_the_listener_name_them_no_more(person):  # noqa: F811
    load(1, 10)
    audience = create_audience(1, f"VIP {PERSON['mobile_number']}", GOSPEL_THEME, min_score=0)
    plan = save_plan(1, cached(answer={**ANSWER, "brief": f"Reach Nomvula Dlamini ({PERSON['email']}, 082 987 6543)"}))
    erase_listener(1, ORIGINATOR, SECRET)
    assert get_audience(1, audience["audience_id"])["name"] == "VIP [erased]"
    assert get_plan(1, plan["plan_id"])["recommendation"]["brief"] == "Reach [erased] ([erased], [erased])"
    assert b"nomvula" not in everything_stored() and b"987 6543" not in everything_stored()
