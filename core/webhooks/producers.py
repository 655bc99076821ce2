"""What produces events: every run's moves (a full, import or live run, read back by its run_id and time), an
audience's members joining or leaving, and erasure, which drops whatever is queued or kept of the listener."""
from __future__ import annotations

from core.listeners import snapshot
from core.segmentation.models import SegmentChange, SegmentRun
from core.webhooks.events import Event, queue_events, subscribed
from core.webhooks.models import WebhookEvent

ENTERED, LEFT, AUDIENCE = "listener.entered_segment", "listener.left_segment", "audience.members_changed"


def after_run(run: SegmentRun) -> int:
    """Queue the run's moves as events: for each listener who moved, left_segment then entered_segment (an
    endpoint gets the types it chose); how many were queued. Erased listeners send nothing."""
    endpoints = subscribed(run.company_id, (ENTERED, LEFT))
    if not endpoints:
        return 0
    changes = list(SegmentChange._get_collection().find(
        {"company_id": run.company_id, "run_id": run.run_id, "at": run.now},
        {"_id": 0, "originator": 1, "from_segment": 1, "to_segment": 1}).sort("_id", 1))
    changes = _not_erased(run.company_id, changes)
    events = []
    for change in changes:
        data = {"originator": change["originator"], "from_segment": change["from_segment"],
                "to_segment": change["to_segment"], "run_id": run.run_id, "run_kind": run.kind}
        events += [Event(LEFT, data, change["originator"]), Event(ENTERED, data, change["originator"])]
    return queue_events(run.company_id, events, endpoints) if events else 0


def after_members_change(company_id: int, audience: dict, changes: dict) -> int:
    """Queue an event per listener who joined or left the audience; how many were queued."""
    endpoints = subscribed(company_id, (AUDIENCE,))
    if not endpoints:
        return 0
    base = {"audience_id": audience.get("audience_id"), "audience_name": audience.get("name")}
    events = [Event(AUDIENCE, {**base, "originator": originator, "change": change}, originator)
              for change in ("joined", "left") for originator in changes.get(change) or []]
    return queue_events(company_id, events, endpoints) if events else 0


def erase_events(company_id: int, originator: str, pseudonym: str = "") -> int:
    """Drop every event of the listener, queued or kept for a replay (the delivery log holds only event ids)."""
    dropped = WebhookEvent._get_collection().delete_many({"company_id": company_id, "originator": originator})
    return dropped.deleted_count


def _not_erased(company_id: int, changes: list[dict]) -> list[dict]:
    """The changes of listeners the snapshot does not mark erased."""
    snap = snapshot.current(company_id)
    if not changes or not len(snap) or "erased" not in snap.cols:
        return changes
    erased = set(snap.originators[snap.cols["erased"].astype(bool)].tolist())
    return [c for c in changes if c["originator"] not in erased] if erased else changes


