"""An audience's document as stored: each originator it names (members, the last refresh's joined and left, a
strategy's filter on one) by its key (core.personal.originator_keys), its texts and queries sealed
(core.audiences.texts), and read back with both opened; the audiences' store of personal values, declared to the
registry (core.personal.registry) for erasure and `encrypt`.

Separate from the audiences' life (core.audiences.store: create, list, read, refresh, delete) because it is how any
document of the collection is written and read, whoever writes it, and what erasure and `encrypt` reach.
"""
from __future__ import annotations

from collections.abc import Callable

from core.audiences import texts
from core.audiences.members import erase_members
from core.audiences.models import Audience
from core.listeners import sealed_profiles
from core.personal import originator_keys
from core.personal.registry import Erasure, Store, declare

NAMING = ("members", "changes", "strategy")  # the parts of an audience document that name listeners


def key_plain(company_id: int) -> int:
    """Store by their keys the originators of audiences saved before keys (`flask --app wsgi encrypt`); how many
    audiences. Resumable: only audiences that name a plain originator are written."""
    collection, done = Audience._get_collection(), 0
    for doc in collection.find({"company_id": company_id}):
        if not all(map(originator_keys.names_nobody, _originators_in(doc))):
            parts = with_keys(company_id, doc)
            collection.update_one({"_id": doc["_id"]},
                                  {"$set": {name: parts[name] for name in NAMING if name in parts}})
            done += 1
    return done


def with_keys(company_id: int, doc: dict) -> dict:
    """An audience document (or part) as stored: each originator it names (members, the last refresh's joined and
    left, a strategy's filter on one) by its key (core.personal.originator_keys)."""
    def keyed(values: list[str]) -> list[str]:
        keys = originator_keys.keys_of(company_id, values)
        return [value if originator_keys.names_nobody(value) else key for value, key in zip(values, keys, strict=True)]

    return _replaced(doc, keyed)


def as_stored(company_id: int, doc: dict) -> dict:
    """A new audience's document as stored: its originators keyed, its texts and queries sealed
    (core.audiences.texts)."""
    stored = with_keys(company_id, doc)
    strategy = {name: value for name, value in stored["strategy"].items() if name != "queries"}
    return {**{name: value for name, value in stored.items() if name not in texts.TEXTS}, "strategy": strategy,
            **texts.sealed(company_id, doc["audience_id"], doc, doc["strategy"]["queries"])}


def as_read(company_id: int, docs: list[dict]) -> list[dict]:
    """Audience documents as read, their texts opened, with originators in place of their keys (all of them looked up
    at once)."""
    docs = texts.opened(docs)
    values = [value for doc in docs for value in _originators_in(doc)]
    found = dict(zip(values, sealed_profiles.originators_of(company_id, values), strict=True))
    return [_replaced(doc, lambda stored: [found[value] for value in stored]) for doc in docs]


def _originators_in(doc: dict) -> list[str]:
    changes, filters = doc.get("changes") or {}, (doc.get("strategy") or {}).get("filters") or {}
    return [*(m["originator"] for m in doc.get("members") or ()), *_listed(changes, "joined"),
            *_listed(changes, "left"), *([filters["originator"]] if filters.get("originator") else [])]


def _listed(changes: dict, name: str) -> list[str]:
    """Who joined or left, where the refresh kept them as a list (earlier ones kept only how many)."""
    return changes[name] if isinstance(changes.get(name), list) else []


def _replaced(doc: dict, convert: Callable[[list[str]], list[str]]) -> dict:
    """The document with each originator `_originators_in` lists converted (in that order)."""
    converted = iter(convert(_originators_in(doc)))
    out = dict(doc)
    if doc.get("members") is not None:
        out["members"] = [{**member, "originator": next(converted)} for member in doc["members"]]
    if doc.get("changes"):
        out["changes"] = {**doc["changes"]}
        for name in ("joined", "left"):
            if isinstance(doc["changes"].get(name), list):
                out["changes"][name] = [next(converted) for _ in doc["changes"][name]]
    filters = (doc.get("strategy") or {}).get("filters") or {}
    if filters.get("originator"):
        out["strategy"] = {**doc["strategy"], "filters": {**filters, "originator": next(converted)}}
    return out


def erase_listener(erasure: Erasure) -> int:
    """The listener out of every audience (core.audiences.members), and every spelling of them out of the names,
    themes and queries producers wrote ("VIP 27829990001"); how many audiences changed."""
    return erase_members(erasure.company_id, erasure.originator, erasure.pseudonym) + texts.scrub(erasure)


def _migrate(company_id: int) -> int:
    """Originators keyed and texts sealed, of audiences stored before either was."""
    return key_plain(company_id) + texts.seal_plain(company_id)


STORE = declare(Store("audiences", "audiences", erase=erase_listener, migrate=_migrate,
                      personal=(*NAMING, "sealed_texts", "name_key", *texts.TEXTS),
                      free=("_id", "company_id", "audience_id", "texts_key", "limit", "min_score", "expiry_days",
                            "holdout_percent", "campaign", "plan_id", "created_at", "refreshed_at", "expires_at")))
