"""Everything that differs between SecantusDB and a real MongoDB, worked around in one place.

SecantusDB 0.7 differences from MongoDB that the code works around (QUIRKS), each correct on MongoDB too:
- a `find().sort(...).limit(...)` does not use an index to sort (the whole match is read), so pages are cut from the
  in-memory snapshot (core.listeners.snapshot) and rows are fetched by `$in` on the (company_id, originator) index;
- `renameCollection` copies documents (about 7 s per 100k), so derived data is written as one GridFS blob per run;
- `$in` slows down more than linearly with its size: ten look-ups of 100 beat one of 1000 (0.1 s against 0.6 s),
  so look-ups by originator are sent in chunks of IN_CHUNK;
- a find that is not an index range (a whole company) is materialised before its first batch is sent (1.8 s
  before the first of 100k listeners), while an index range of 2000 answers in 0.08 s; so many listeners are read
  as consecutive ranges of the (company_id, originator) index (RANGE_CHUNK), which streams;
- a projection makes a find slower, not faster (the server decodes, projects and re-encodes each document in
  Python): 0.2 ms instead of 0.12 ms per 20-event batch, so bulk reads ask for whole documents there;
- a SIGTERM that arrives while a just-closed connection is still being accepted leaves the server running for good
  (reproduction: connect a TCP socket to its port, close it, send SIGTERM at once: still there after 30 s); a second
  SIGTERM ends it, so the guard of the server (core/db/guard.py) repeats the signal every two seconds;
- an expression that compares a stored date with `$$NOW` answers wrongly, and one that subtracts them fails
  (reproduction: store `{"at": datetime(2000, 1, 1, tzinfo=UTC)}`, then
  `aggregate([{"$project": {"past": {"$lt": ["$at", "$$NOW"]}}}])` says False, as does `$gt`, while `$lte` and
  `$gte` say True; `{"$subtract": ["$at", "$$NOW"]}` is an internal error). The limits library's fixed window starts
  a new window by that comparison and its sliding window subtracts, so failed sign-ins are counted with its moving
  window (RATE_LIMIT_STRATEGY), which only compares timestamps that the client sends.
"""
from __future__ import annotations

import mongoengine
import numpy as np
from pymongo.database import Database
from pymongo.errors import OperationFailure

QUIRKS = ("sort-without-index", "rename-copies", "in-grows-superlinearly", "projection-costs-more",
          "stop-hangs-after-a-closed-connection", "dates-against-now")
IN_CHUNK = 100
RANGE_ABOVE = 500  # more listeners than this are read by index ranges rather than by $in look-ups
RANGE_CHUNK = 2000
RATE_LIMIT_STRATEGY = "moving-window"
_backend: dict[str, bool] = {}


def is_secantus(db: Database) -> bool:
    """True when the server is SecantusDB (its buildInfo names it), False for a real MongoDB; asked once."""
    if "secantus" not in _backend:
        try:
            info = db.client.admin.command("buildInfo")
        except OperationFailure:  # a server without buildInfo is treated as MongoDB
            info = {}
        _backend["secantus"] = "secantusVersion" in info
    return _backend["secantus"]


def forget() -> None:
    """Ask the server again at the next use (a new connection may be to another kind of server)."""
    _backend.clear()


def projection(fields: dict) -> dict | None:
    """The projection for a bulk read: as given on MongoDB, none on SecantusDB."""
    return None if is_secantus(mongoengine.get_db()) else fields


def find_by_originator(collection, company_id: int, originators=None, fields: dict | None = None,
                       exact: bool = True):
    """Documents of a company, or of some of its listeners, streamed in originator order for many listeners.

    Few listeners: `$in` look-ups of IN_CHUNK. Many: consecutive (company_id, originator) index ranges, each holding
    RANGE_CHUNK of the wanted listeners and whatever lies between them, which is skipped unless the caller checks
    membership itself (`exact=False`). Every query starts with company_id, the first key of the index.
    """
    fields = projection(fields) if fields else None
    if originators is None:
        yield from collection.find({"company_id": company_id}, fields, batch_size=2000)
        return
    originators = originators if isinstance(originators, np.ndarray) else list(originators)
    wanted = np.unique(np.asarray(originators, dtype=str)) if len(originators) else np.array([], dtype=str)
    if len(wanted) <= RANGE_ABOVE:
        for start in range(0, len(wanted), IN_CHUNK):
            chunk = wanted[start:start + IN_CHUNK].tolist()
            yield from collection.find({"company_id": company_id, "originator": {"$in": chunk}}, fields)
        return
    keep = set(wanted.tolist()) if exact else None
    for start in range(0, len(wanted), RANGE_CHUNK):
        low, high = str(wanted[start]), str(wanted[min(start + RANGE_CHUNK, len(wanted)) - 1])
        found = collection.find({"company_id": company_id, "originator": {"$gte": low, "$lte": high}}, fields,
                                batch_size=RANGE_CHUNK)
        yield from (found if keep is None else (doc for doc in found if doc["originator"] in keep))
