"""The segmentation package's stores of personal values, declared to the registry (core.personal.registry): the
segment history, keyed by originator, the snapshot, which erasure reaches last (the listener's row moves to the
pseudonym, profiled as of the last run, so that no figure shifts), and the runs, whose rollups count the tags."""
from __future__ import annotations

from core.clock import from_epoch
from core.listeners import finding, snapshot, snapshot_files
from core.personal import originator_keys
from core.personal.keyed import is_keyed, tag_keys
from core.personal.registry import LAST, Erasure, Store, declare
from core.segmentation.leases import segment_lease
from core.segmentation.models import SegmentChange, SegmentRun
from core.segmentation.runs import resegment_listeners


def erase_history(erasure: Erasure) -> int:
    """The listener's segment moves kept under the pseudonym."""
    return SegmentChange._get_collection().update_many(
        finding.matching(erasure.company_id, [erasure.originator]),
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
        plain = snapshot_files.stored_plain(company_id)
        if plain:
            snapshot.publish(snapshot.current(company_id))
    return int(bool(plain))


HISTORY = declare(Store(
    "segment_history", "segment_changes", erase=erase_history,
    migrate=lambda company_id: originator_keys.key_plain(SegmentChange._get_collection(), company_id),
    personal=("originator",), free=("_id", "company_id", "from_segment", "to_segment", "at", "run_id")))
SNAPSHOT = declare(Store(
    "snapshot", "snapshot_deltas", erase=erase_snapshot_row, migrate=seal_snapshot, when=LAST,
    personal=("data", "vocab", "meta"),  # the rows, sealed; the vocabulary and meta of deltas before sealing
    free=("_id", "company_id", "base", "seq")))


def key_plain_tags(company_id: int) -> int:
    """Key the tags of the station's runs stored before their rollups keyed them; how many runs. Resumable: a run
    whose tags are all keyed is left alone."""
    collection, done = SegmentRun._get_collection(), 0
    for run in collection.find({"company_id": company_id}, {"rollup.tags": 1, "sums.tags": 1}):
        rollup_tags, sums_tags = (run.get("rollup") or {}).get("tags") or {}, (run.get("sums") or {}).get("tags") or []
        plain = sorted({tag for tag in [*rollup_tags, *(pair[0] for pair in sums_tags)] if not is_keyed(str(tag))})
        if not plain:
            continue
        keys = dict(zip(plain, tag_keys(company_id, map(str, plain)), strict=True))
        update = {"rollup.tags": {keys.get(tag, tag): per for tag, per in rollup_tags.items()}}
        if run.get("sums"):
            update["sums.tags"] = [[keys.get(tag, tag), per] for tag, per in sums_tags]
        done += collection.update_one({"_id": run["_id"]}, {"$set": update}).modified_count
    return done


RUNS = declare(Store("segment_runs", "segment_runs", migrate=key_plain_tags, personal=("rollup", "sums"),
                     free=("_id", "company_id", "run_id", "kind", "now", "started_at", "finished_at", "listeners",
                           "profiled", "changed", "timings", "movements")))
