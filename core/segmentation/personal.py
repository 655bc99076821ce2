"""The segmentation package's stores of personal values, declared to the registry (core.personal.registry): the
segment history, keyed by originator, and the snapshot, which erasure reaches last: the listener's row moves to
the pseudonym, profiled as of the last run, so that no figure shifts."""
from __future__ import annotations

from core.clock import from_epoch
from core.listeners import originator_keys, snapshot
from core.personal.registry import LAST, Erasure, Store, declare
from core.segmentation.models import SegmentChange
from core.segmentation.runs import resegment_listeners, segment_lease


def erase_history(erasure: Erasure) -> int:
    """The listener's segment moves kept under the pseudonym."""
    return SegmentChange._get_collection().update_many(
        originator_keys.matching(erasure.company_id, [erasure.originator]),
        {"$set": {"originator": erasure.pseudonym}}).modified_count


def erase_snapshot_row(erasure: Erasure) -> int:
    """The listener's snapshot row moved to the pseudonym, profiled as of its last run."""
    snap = snapshot.current(erasure.company_id)
    row = snap.row_of(erasure.originator) if len(snap) else None
    as_of = from_epoch(snap.cols["as_of"][row]) if row is not None else None
    resegment_listeners(erasure.company_id, [erasure.pseudonym], now=as_of, kind="erasure",
                        dropped=[erasure.originator])
    return 1


def seal_snapshot(company_id: int) -> int:
    """A snapshot stored before sealing, republished sealed (the plain files deleted as any replaced one is)."""
    with segment_lease(company_id):
        plain = snapshot.stored_plain(company_id)
        if plain:
            snapshot.publish(snapshot.current(company_id))
    return int(bool(plain))


HISTORY = declare(Store(
    "segment_history", "segment_changes", erase=erase_history,
    migrate=lambda company_id: originator_keys.key_plain(SegmentChange._get_collection(), company_id),
    personal=("originator",), free=("_id", "company_id", "from_segment", "to_segment", "at", "run_id")))
SNAPSHOT = declare(Store("snapshot", "snapshot_deltas", erase=erase_snapshot_row, migrate=seal_snapshot, when=LAST))
