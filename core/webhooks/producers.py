"""What produces events: every run's moves (a full, import or live run, read back by its run_id and time, and the
first segments of its new listeners, which it carries), an audience's members joining or leaving, and erasure, which
drops whatever is queued or kept of the listener."""
from __future__ import annotations

from core.clock import as_utc
from core.listeners import sealed_profiles, snapshot
from core.personal.registry import Store, by_listener, declare
from core.segmentation.models import SegmentChange, SegmentRun
from core.webhooks import outbox
from core.webhooks.events import Event, queue_events, subscribed

ENTERED, LEFT, AUDIENCE = "listener.entered_segment", "listener.left_segment", "audience.members_changed"


def after_run(run: SegmentRun) -> int:
    """Queue the run's moves as events: for a listener's first segment entered_segment alone (`from_segment`
    null), for each later move left_segment then entered_segment (an endpoint gets the types it chose); how many
    were queued. Whatever made the run (full, import, live), a move is an event. Erased listeners send nothing. A
    full run also sweeps the keys of the station's outbox."""
    if run.kind == "full":
        outbox.sweep(run.company_id)
    endpoints = subscribed(run.company_id, (ENTERED, LEFT))
    if not endpoints:
        return 0
    changes = _not_erased(run.company_id, _firsts_of(run) + _moves_of(run))
    events = []
    for change in changes:
        data = {"originator": change["originator"], "from_segment": change["from_segment"],
                "to_segment": change["to_segment"], "run_id": run.run_id, "run_kind": run.kind}
        left = [Event(LEFT, data, change["originator"])] if change["from_segment"] is not None else []
        events += [*left, Event(ENTERED, data, change["originator"])]
    return queue_events(run.company_id, events, endpoints) if events else 0


def after_members_change(company_id: int, audience: dict, changes: dict) -> int:
    """Queue an event per listener of the target arm who joined or left the audience (core.audiences hands over no
    one of its holdout), each saying how many members the holdout keeps out; how many were queued."""
    endpoints = subscribed(company_id, (AUDIENCE,))
    if not endpoints:
        return 0
    base = {"audience_id": audience.get("audience_id"), "audience_name": audience.get("name"),
            "held_out": int(changes.get("held_out") or 0)}
    events = [Event(AUDIENCE, {**base, "originator": originator, "change": change}, originator)
              for change in ("joined", "left") for originator in changes.get(change) or []]
    return queue_events(company_id, events, endpoints) if events else 0


def erase_events(company_id: int, originator: str, pseudonym: str = "") -> int:
    """Drop every event of the listener, queued or kept for a replay (the delivery log holds only event ids), and
    make every copy unreadable (core.webhooks.outbox); how many batches held any. A batch left empty goes."""
    return outbox.erase(company_id, originator)


def _firsts_of(run: SegmentRun) -> list[dict]:
    """The listeners the run gave their first segment, as moves from none: kept on the run in memory, since a
    first assignment is no change document (core.segmentation.recording)."""
    return [{"originator": originator, "from_segment": None, "to_segment": segment}
            for originator, segment in run.first_segments.items()]


def _moves_of(run: SegmentRun) -> list[dict]:
    """The run's segment changes in the order it wrote them: read by (company_id, run_id), which the index serves
    whole, and a live run's (one run_id per snapshot file) told apart by their time in Python."""
    changes = SegmentChange._get_collection().find({"company_id": run.company_id, "run_id": run.run_id})
    moment = as_utc(run.now).replace(microsecond=as_utc(run.now).microsecond // 1000 * 1000)  # as stored
    mine = sorted((c for c in changes if as_utc(c["at"]) == moment), key=lambda c: c["_id"])
    named = sealed_profiles.originators_of(run.company_id, [c["originator"] for c in mine])  # stored as keys
    return [{**change, "originator": originator} for change, originator in zip(mine, named, strict=True)]


def _not_erased(company_id: int, changes: list[dict]) -> list[dict]:
    """The changes of listeners the snapshot does not mark erased."""
    snap = snapshot.current(company_id)
    if not changes or not len(snap) or "erased" not in snap.cols:
        return changes
    erased = set(snap.originators[snap.cols["erased"].astype(bool)].tolist())
    return [c for c in changes if c["originator"] not in erased] if erased else changes


STORE = declare(Store("webhook_events", "webhook_batches", erase=by_listener(erase_events),
                      personal=("events", "sealed_events", "sealed_bodies", "originators"),  # sealed, keyed
                      free=("_id", "company_id", "webhook_id", "seq", "count", "delivered", "attempts", "created_at",
                            "delivered_at", "replay_of", "bodies_group")))
