"""Everything that differs between SecantusDB and a real MongoDB, worked around in one place.

SecantusDB 0.7 differences from MongoDB that the code works around (QUIRKS), each correct on MongoDB too:
- a `find().sort(...).limit(...)` does not use an index to sort (the whole match is read), so pages are cut from the
  in-memory snapshot (core.listeners.snapshot) and rows are fetched by `$in` on the (company_id, originator) index;
- `renameCollection` copies documents (about 7 s per 100k), so derived data is written as one GridFS blob per run;
- `$in` slows down more than linearly with its size: ten look-ups of 100 beat one of 1000 (0.1 s against 0.6 s),
  and four of 25 beat one of 100 (10.0 ms against 14.5 ms for 100 listeners' keys among 100,000; ten of 10 took
  11.9 ms), so look-ups are sent in chunks of IN_CHUNK;
- a find that is not an index range (a whole company) is materialised before its first batch is sent (1.8 s
  before the first of 100k listeners), while an index range of 2000 answers in 0.08 s; so many listeners are read
  as consecutive ranges of the (company_id, originator) index (RANGE_CHUNK), unless the wanted listeners are
  spread thin over the station (a range is read whole before its first batch, so it costs what it spans), and what
  was written since a `seq` is read in windows of SEQ_WINDOW of that number (`by_seq`): at 1,000,000 stored texts
  the first batch of the whole range came after 63.6 s, past a loaded server's socket timeout, a window's in 0.35 s;
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
  window (RATE_LIMIT_STRATEGY), which only compares timestamps that the client sends;
- when several `find_one_and_update(..., upsert=True)` of one new document race, each is applied but one of them is
  answered without its document (reproduction: 20 threads upsert `{"$inc": {"n": 1}}` on a new key at once; now and
  then one gets None back, and the document's n is 20), so `updated_creating` creates the document first and then
  updates it without upserting;
- a filter is served by an index only when the index covers every field it names: `{company_id, originator}` is a
  look-up in the unique index, but the same with `"erased_at": None` (or any other field) reads every document of the
  collection (1 ms against 4.5 s at 100,000 listeners); `_id` is always served. So a listener is read by its key
  alone and the rest checked in Python, and a conditional update of one document names its `_id` with the condition
  (`update_by_key`);
- a write retried by the driver (retryable writes, after a connection dropped under load) is applied again rather
  than recognised as the same write, so an `insert_many` whose first attempt was applied answers a duplicate key on
  every `_id` the driver gave its documents (seen in a loaded test run: 1,000 of 1,000 documents refused, all
  present; on a collection with another unique index the refusal may name that index instead). `insert_all` takes
  those for what they are; MongoDB answers a retry with the first attempt's result;
- an `$or` is answered by reading the whole collection, even when each branch has an index: libmongocrypt asks a key
  vault for keys with `{"$or": [{"_id": {"$in": [...]}}, {"keyAltNames": {"$in": [...]}}]}` (reproduction: 600 key
  documents; that filter for one `_id` takes 27.7 ms and `explain()` says COLLSCAN, `{"_id": {"$in": [id]}}` alone
  0.72 ms), so `find_keys` sends each branch on its own;
- a partial index is never used to answer a query: the key vault's unique index on `keyAltNames` with MongoDB's
  usual `partialFilterExpression` left every look-up by name a collection scan (2.1 s for 100 names among 5,000
  keys; explain() says COLLSCAN), so the vault's index is sparse (KEY_VAULT_INDEX), which on MongoDB does the same:
  keys without a name are left out of the uniqueness;
- the server answers the driver's `hello` in the same process that serves the reads, so during a whole-station read
  on a loaded host the answer can take longer than the driver's connect timeout; the driver then takes the server for
  down, clears its pool and cancels every read in flight (reproduction: `DB_TIMEOUT_MS=400`, which makes the connect
  timeout 1 s, `core.listeners.events.load_events(company_id)` of a 100,000-listener station without its columnar
  copy while another process keeps both cores busy: `_OperationCancelled: operation cancelled` after a few
  seconds). So the embedded server is given EMBEDDED_CONNECT_TIMEOUT_MS (`connect_timeout_ms`); a MongoDB answers
  `hello` on a thread of its own and keeps the service's setting;
- each retryable write (every write of a driver left at its default, `retryWrites=true`) makes the server scan
  every retryable write it recorded in the last 30 minutes, twice, and sort them all once it holds 10,000 of them,
  while not even recognising a retry (above): so a busy server spends most of its time on that bookkeeping
  (reproduction: 12,000 `update_one({"_id": "x"}, {"$inc": {"n": 1}})` on a fresh server take 105 s of its CPU
  with retryable writes and 13 s without; the next 12,000, with 10,000 kept, 367 s). So the URI of a server this
  service starts turns them off (EMBEDDED_URI_OPTIONS): a write cut by a dropped connection is then an error the
  caller sees rather than a retry the server applies twice. On a replica set the service keeps the driver's
  retryable writes (its MONGODB_URI says what it wants).
"""
from __future__ import annotations

import mongoengine
import numpy as np
from pymongo import ReturnDocument
from pymongo.database import Database
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure

QUIRKS = ("sort-without-index", "rename-copies", "in-grows-superlinearly", "projection-costs-more",
          "stop-hangs-after-a-closed-connection", "dates-against-now", "racing-upserts-lose-an-answer",
          "extra-fields-defeat-an-index", "a-retried-write-is-applied-again", "or-reads-everything",
          "partial-indexes-unused", "hello-waits-behind-reads", "retryable-writes-cost-a-scan")
IN_CHUNK = 25
RANGE_ABOVE = 500  # more listeners than this are read by index ranges rather than by $in look-ups
RANGE_CHUNK = 2000
SEQ_WINDOW = 5_000
STRAY_SHARE = 2  # a range may span this many other listeners per wanted one; thinner groups are looked up
RATE_LIMIT_STRATEGY = "moving-window"
KEY_VAULT_INDEX = {"keys": "keyAltNames", "unique": True, "sparse": True}
EMBEDDED_URI_OPTIONS = "directConnection=true&retryWrites=false"
"""The options of the URI of a server this service starts: one server, no replica set to discover, no retryable
writes (QUIRKS)."""
EMBEDDED_CONNECT_TIMEOUT_MS = 10_000
"""How long the driver waits for the embedded server's `hello` before taking it for down: a server that is down
refuses the connection at once whatever this is, so only a busy one is waited for longer."""
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


def connect_timeout_ms(timeout_ms: int, embedded: bool) -> int:
    """The driver's connect timeout (which also bounds its monitor's `hello`) for a server: at least a second, and
    EMBEDDED_CONNECT_TIMEOUT_MS for the embedded one."""
    return max(timeout_ms, EMBEDDED_CONNECT_TIMEOUT_MS if embedded else 1000)


def forget() -> None:
    """Ask the server again at the next use (a new connection may be to another kind of server)."""
    _backend.clear()


def projection(fields: dict) -> dict | None:
    """The projection for a bulk read: as given on MongoDB, none on SecantusDB."""
    return None if is_secantus(mongoengine.get_db()) else fields


def insert_all(collection, docs: list[dict]) -> None:
    """insert_many, unordered, of documents without an `_id` of their own: a duplicate key refused to a document
    whose `_id` (the one the driver gave it) is stored can then only be an attempt that was applied (QUIRKS), so
    such errors alone are success; any other fails."""
    try:
        collection.insert_many(docs, ordered=False)
    except BulkWriteError as error:
        refused = error.details.get("writeErrors", [])
        if error.details.get("writeConcernErrors") or not _applied_before(collection, refused):
            raise


def _applied_before(collection, refused: list[dict]) -> bool:
    """Whether every refused insert was a duplicate key of a document stored under its own `_id`. The server names
    whichever unique index it checked first: `_id`, or another (seen: `(company_id, originator)` of listeners)."""
    if not all(e.get("code") == 11000 and "_id" in (e.get("op") or {}) for e in refused):
        return False
    ids = [e["op"]["_id"] for e in refused]
    stored = {doc["_id"] for start in range(0, len(ids), IN_CHUNK)
              for doc in collection.find({"_id": {"$in": ids[start:start + IN_CHUNK]}}, {"_id": 1})}
    return stored >= set(ids)


def update_by_key(collection, key: dict, condition: dict, update: dict) -> int:
    """Update the document of a unique index key only if it also matches `condition`, atomically on that document:
    the key finds its `_id`, and the update's filter is the `_id` with the condition. Returns 1 if it was updated."""
    found = collection.find_one(key, {"_id": 1})
    if found is None:
        return 0
    return collection.update_one({"_id": found["_id"], **condition}, update).modified_count


def updated_creating(collection, key: dict, update: dict, new: dict) -> dict:
    """Apply an atomic update to the document of `key`, inserting `new` under that key first if there is none;
    returns the document after the update. `key` must be covered by a unique index (racing creators keep one)."""
    after = collection.find_one_and_update(key, update, return_document=ReturnDocument.AFTER)
    if after is None:
        try:
            collection.update_one(key, {"$setOnInsert": new}, upsert=True)
        except DuplicateKeyError:
            pass  # another request created it a moment ago
        after = collection.find_one_and_update(key, update, return_document=ReturnDocument.AFTER)
    return after


def find_by_originator(collection, company_id: int, originators=None, fields: dict | None = None,
                       exact: bool = True, population=None):
    """Documents of a company, or of some of its listeners, streamed listener by listener.

    Few listeners: `$in` look-ups of IN_CHUNK. Many: consecutive (company_id, originator) index ranges, each holding
    RANGE_CHUNK of the wanted listeners and whatever lies between them, which is skipped unless the caller checks
    membership itself (`exact=False`). SecantusDB reads a range whole before its first batch, so a range costs
    what it spans: when the caller gives the station's `population` (its originators, sorted; or a function that
    gives them, called only if ranges would be read), a group of wanted
    listeners spread thinner than one in STRAY_SHARE + 1 is looked up instead (1,000 of 100,000 listeners: 0.3 s
    by look-ups against 7.5 s for the first range alone). Every query starts with company_id, the first key of the
    index.
    """
    fields = projection(fields) if fields else None
    if originators is None:
        yield from collection.find({"company_id": company_id}, fields, batch_size=2000)
        return
    originators = originators if isinstance(originators, np.ndarray) else list(originators)
    wanted = np.unique(np.asarray(originators, dtype=str)) if len(originators) else np.array([], dtype=str)
    if len(wanted) <= RANGE_ABOVE:
        yield from looked_up(collection, company_id, wanted.tolist(), fields)
        return
    population = population() if callable(population) else population
    for start in range(0, len(wanted), RANGE_CHUNK):
        group = wanted[start:start + RANGE_CHUNK]
        if population is not None and _span(population, group) > (STRAY_SHARE + 1) * len(group):
            yield from looked_up(collection, company_id, group.tolist(), fields)
            continue
        found = collection.find({"company_id": company_id, "originator": {"$gte": str(group[0]),
                                                                          "$lte": str(group[-1])}},
                                fields, batch_size=RANGE_CHUNK)
        keep = None if not exact else set(group.tolist())
        yield from (found if keep is None else (doc for doc in found if doc["originator"] in keep))


def _span(population: np.ndarray, group: np.ndarray) -> int:
    """How many of the station's listeners lie between the first and the last of a sorted group (the population may
    hold them as bytes)."""
    ends = np.asarray([group[0], group[-1]]).astype(population.dtype)
    return int(np.searchsorted(population, ends[1], side="right") - np.searchsorted(population, ends[0]))


def looked_up(collection, company_id: int, wanted: list[str], fields: dict | None = None):
    """Documents of these listeners, found by key in `$in` chunks of IN_CHUNK (for listeners in no known order)."""
    for start in range(0, len(wanted), IN_CHUNK):
        yield from collection.find({"company_id": company_id, "originator": {"$in": wanted[start:start + IN_CHUNK]}},
                                   fields)


def by_seq(collection, query: dict, after: int, upto: int, fields: dict | None = None):
    """Documents of `query` whose `seq` is above `after` and at most `upto`, window by window of SEQ_WINDOW numbers
    in ascending order; `query` and `seq` must make an index range (an index ending with `seq`)."""
    for start in range(after, upto, SEQ_WINDOW):
        yield from collection.find({**query, "seq": {"$gt": start, "$lte": min(start + SEQ_WINDOW, upto)}}, fields)


def find_keys(vault, ids, names=()):
    """Key documents of a key vault by `_id` or by name, raw. libmongocrypt asks for them with
    `{"$or": [{"_id": {"$in": ids}}, {"keyAltNames": {"$in": names}}]}`, which SecantusDB answers by reading the
    whole vault (QUIRKS: an `$or` is not served by the indexes of its branches); each branch alone is, in chunks."""
    seen = set()
    for field, values in (("_id", list(ids)), ("keyAltNames", list(names))):
        for start in range(0, len(values), IN_CHUNK):
            for key in vault.find({field: {"$in": values[start:start + IN_CHUNK]}}):
                if bytes(key["_id"].bytes) not in seen:
                    seen.add(bytes(key["_id"].bytes))
                    yield key
