"""A listener's segment history: the first assignment (kept in the snapshot) and every later move."""
from __future__ import annotations

from core.clock import from_epoch
from core.listeners import finding
from core.listeners.snapshot import Snapshot
from core.segmentation.models import SegmentChange


def segment_history(company_id: int, originator: str, snap: Snapshot | None = None,
                    row: int | None = None) -> list[dict]:
    """The first assignment (from the snapshot row) and every later segment change, oldest first."""
    history = []
    if row is not None and "first_segment" in snap.cols:
        at = from_epoch(snap.cols["first_segmented_at"][row])
        history.append({"from": None, "to": snap.labels("first_segment")[row], "at": at.isoformat()})
    stored_as = list(finding.lookup(company_id, [originator]))
    changes = SegmentChange.objects(company_id=company_id, originator__in=stored_as).order_by("at")
    return history + [{"from": c.from_segment, "to": c.to_segment, "at": c.at.isoformat()} for c in changes]
