"""Declared and inferred demographics of many listeners as snapshot columns.

Completeness uses declared values only (never inferred): a field is filled when it holds a non-blank value.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from core.db import quirks
from core.listeners import listener_copies, sealed_profiles
from core.listeners.fields import (
    CATEGORICAL,
    COMPLETENESS,
    COMPLETENESS_ATTRIBUTE,
    DECLARED_NAMES,
    FLAGS,
    INFERRED_SINGLE,
    PARTIAL_TEXT,
)
from core.listeners.models import Listener
from core.listeners.snapshot_rows import Snapshot

PROJECTION = {"_id": 0, "originator": 1, "tags": 1, "inferred": 1, "erased_at": 1, "created_at": 1,
              **{name: 1 for name in DECLARED_NAMES}}


def read_listeners(company_id: int, originators: Iterable[str] | None = None,
                   projection: dict | None = None) -> list[dict]:
    """Listener documents of the company, or of some of its listeners (declared fields unless told otherwise)."""
    return list(iter_listeners(company_id, originators, projection))


def read_declared(company_id: int, originators: Iterable[str] | None = None, keep_copy: bool = False) -> Snapshot:
    """The declared columns (`declared_columns`) of the company's listeners, or of some of them. The whole company's
    are read from its copy and the listeners written since (core.listeners.listener_copies): a full run of 100,000
    listeners otherwise reads every document and makes its columns again, about 1.5 s of a run of 5. With
    `keep_copy` (a full run) what was read is copied for the next read."""
    if originators is not None:
        return declared(company_id, read_listeners(company_id, originators))
    collection = Listener._get_collection()
    fields = quirks.projection(sealed_profiles.fields_of({**PROJECTION, "_id": 1}))

    def read(query: dict) -> Snapshot:
        return declared(company_id, list(sealed_profiles.opened_stream(
            collection.find({"company_id": company_id, **query}, fields, batch_size=2000))), ids=True)

    found = listener_copies.station_declared(company_id, read, keep_copy)
    return Snapshot(company_id, {name: column for name, column in found.cols.items() if name != listener_copies.ID},
                    found.vocab)


def declared(company_id: int, docs: list[dict], ids: bool = False) -> Snapshot:
    """The declared columns of these listener documents, in their order; with `ids`, each document's `_id` too."""
    cols, vocab = declared_columns(docs)
    if ids:
        cols[listener_copies.ID] = np.array([doc["_id"].binary for doc in docs], dtype="S12")
    return Snapshot(company_id, cols, vocab)


def iter_listeners(company_id: int, originators: Iterable[str] | None = None, projection: dict | None = None,
                   exact: bool = True):
    """Stream listener documents of the company, or of some of its listeners (see core.db.quirks.find_by_originator)."""
    return sealed_profiles.find(company_id, originators, projection or PROJECTION, exact)


def _filled(value) -> bool:
    return value is not None and str(value).strip() != ""


def _categorical(values: list) -> tuple[list[str], np.ndarray]:
    """Vocabulary (as stored, first spelling wins per lower-cased value) and int16 codes (-1 = absent). A station's
    hundred thousand listeners hold a few dozen values of a field: each distinct one is read once."""
    vocab: dict[str, int] = {}
    seen: dict = {}

    def code(value) -> int:
        try:
            return seen[value]
        except KeyError:
            found = seen[value] = vocab.setdefault(str(value).strip(), len(vocab)) if _filled(value) else -1
            return found
        except TypeError:  # a value that is not hashable (stored before validation): read as it is
            return vocab.setdefault(str(value).strip(), len(vocab)) if _filled(value) else -1

    codes = np.fromiter(map(code, values), dtype=np.int16, count=len(values))
    return list(vocab), codes


def _filled_mask(values: list) -> np.ndarray:
    """`_filled` of each value, as one array."""
    return np.fromiter(map(_filled, values), dtype=bool, count=len(values))


def _multi(lists: list) -> tuple[list[str], np.ndarray]:
    vocab = sorted({str(v) for values in lists for v in (values or []) if _filled(v)})
    position = {v: i for i, v in enumerate(vocab)}
    matrix = np.zeros((len(lists), len(vocab)), dtype=bool)
    for i, values in enumerate(lists):
        for v in values or []:
            if _filled(v):
                matrix[i, position[str(v)]] = True
    return vocab, matrix


def _inferred_value(doc: dict, name: str):
    entry = (doc.get("inferred") or {}).get(name)
    return entry.get("value") if isinstance(entry, dict) else None


def declared_columns(docs: list[dict]) -> tuple[dict, dict]:
    """Columns and vocabularies of the declared and inferred fields, in the order of `docs`."""
    cols, vocab = {"originator": np.array([d["originator"] for d in docs], dtype=str)}, {}
    for name in CATEGORICAL:
        vocab[name], cols[name] = _categorical([d.get(name) for d in docs])
    for name in INFERRED_SINGLE:
        vocab[name], cols[name] = _categorical([_inferred_value(d, name) for d in docs])
    for name in PARTIAL_TEXT:
        cols[name] = np.array([str(d.get(name) or "").lower().encode() for d in docs], dtype=bytes)
    for name in FLAGS:
        cols[name] = np.array([-1 if d.get(name) is None else int(bool(d[name])) for d in docs], dtype=np.int8)
    vocab["tags"], cols["tags"] = _multi([d.get("tags") for d in docs])
    vocab["inferred_interests"], cols["inferred_interests"] = _multi(
        [_inferred_value(d, "inferred_interests") for d in docs])
    missing = ~np.column_stack([cols[attribute] >= 0 if attribute in CATEGORICAL  # coded -1 when not filled
                                else _filled_mask([d.get(attribute) for d in docs])
                                for attribute in (COMPLETENESS_ATTRIBUTE[f] for f in COMPLETENESS)]
                               ).reshape(len(docs), len(COMPLETENESS))
    vocab["missing_fields"], cols["missing_fields"] = list(COMPLETENESS), missing
    cols["profile_complete"] = ~missing.any(axis=1)
    cols["erased"] = np.array([d.get("erased_at") is not None for d in docs], dtype=bool)
    return cols, vocab
