"""A station's listeners as one copy (core.listeners.station_copies): what a full run reads with the listeners written
since, instead of every listener document and its envelope. Every write of a listener gives it a new
`profile_version` (core.listeners.sealed_writes; erasure too), so the listeners written since are those whose version
is younger than the copy's read (less the margin), and each replaces its older self in the copy by its `_id`.

The copy holds the listeners as the run reads them, opened (their declared fields: personal), sealed whole under
the copy's own key; the station's next erasure destroys it (`station_copies.forget`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

import bson

from core.clock import utcnow
from core.listeners import station_copies

KIND = "listeners"


def station_listeners(company_id: int, read: Callable[[dict], Iterable[dict]], keep: bool = False) -> list[dict]:
    """Every listener of the station (with its `_id`): its copy with the listeners written since in place of their
    older selves, or every listener when it has none. `read(query)` gives the station's listeners matching `query`,
    opened, with their `_id`. With `keep` (a full run, under the station's lease) what was read is copied, when the
    station is large enough for a copy to be worth it."""
    began, epoch = utcnow(), station_copies.epoch(company_id)
    copy = station_copies.current(company_id, KIND, epoch)
    if copy is None:
        found = list(read({}))
    else:
        changed = list(read({"profile_version": {"$gte": station_copies.since(copy[1])}}))
        ids = {doc["_id"] for doc in changed}
        found = [doc for doc in bson.decode_all(copy[0]) if doc["_id"] not in ids] + changed
    if keep and (copy is None or changed) and station_copies.worth_copying(len(found)):
        station_copies.save(company_id, KIND, b"".join(bson.encode(doc) for doc in found), began, epoch)
    return found
