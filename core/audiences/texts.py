"""An audience's texts, sealed: its name, theme and description, which a producer types and which may name a listener
("VIP 27829990001"), and the queries made from them. They are stored as one envelope under a data key of
the audience's own (core.personal.vault, `audience:<station>:<audience id>:<version>`), and the name's uniqueness is
kept by a keyed hash of its compared form (core.text.names), so that the unique index still decides between two creates.

An erasure writes the texts of an audience that named the listener again, every spelling replaced, under a new key,
and destroys the old one: no copy of the old texts, in the oplog or a backup, can be read. Audiences stored before
sealing (their texts plain) still read until `encrypt` seals them.
"""
from __future__ import annotations

import json
from collections.abc import Iterable

from bson import Binary, ObjectId

from core.audiences.models import Audience
from core.personal.keyed import keyed
from core.personal.registry import Erasure
from core.personal.vault_connection import key_vault
from core.text.names import name_key

TEXTS = ("name", "theme", "description")  # of the document; the queries are the strategy's
NAME_KEY = b"audience name"


def name_keys(company_id: int, name: str) -> list[str]:
    """The stored forms of a name's compared form: its keyed hash, and the plain form an audience stored before
    sealing holds (until `encrypt`)."""
    plain = name_key(name)
    return [keyed(NAME_KEY, [f"{company_id}:{plain}"])[0], plain]


def sealed(company_id: int, audience_id: str, texts: dict, queries: list[str]) -> dict:
    """The fields that store an audience's texts and queries sealed under a new key, and its name's keyed form."""
    version = str(ObjectId())
    content = json.dumps({**{name: texts.get(name) for name in TEXTS}, "queries": queries}).encode()
    envelope = key_vault().seal_bytes(_key_name(company_id, audience_id, version), content)
    return {"sealed_texts": Binary(envelope), "texts_key": version,
            "name_key": name_keys(company_id, texts["name"])[0]}


def opened(docs: list[dict]) -> list[dict]:
    """Audience documents with their texts and queries in place, unsealed together (a document stored before
    sealing as it is); a destroyed key (an erasure wrote the texts again meanwhile) reads as empty texts."""
    envelopes = [bytes(doc["sealed_texts"]) for doc in docs if doc.get("sealed_texts") is not None]
    contents = iter(key_vault().unseal_bytes(envelopes) if envelopes else [])
    out = []
    for doc in docs:
        if doc.get("sealed_texts") is None:
            out.append(doc)
            continue
        content = next(contents)
        texts = json.loads(content) if content is not None else {"name": "", "theme": "", "queries": []}
        strategy = {**(doc.get("strategy") or {}), "queries": texts.pop("queries")}
        out.append({**doc, **texts, "strategy": strategy})
    return out


def rewrite(company_id: int, doc: dict, texts: dict, queries: list[str]) -> None:
    """Store the audience's texts anew under a new key, then destroy the old key."""
    Audience._get_collection().update_one(
        {"_id": doc["_id"]}, {"$set": sealed(company_id, doc["audience_id"], texts, queries),
                              "$unset": {**dict.fromkeys(TEXTS, ""), "strategy.queries": ""}})
    destroy(company_id, [doc])


def destroy(company_id: int, docs: Iterable[dict]) -> None:
    """Destroy the keys of these audiences' texts: every copy of them is unreadable."""
    names = [_key_name(company_id, doc["audience_id"], doc["texts_key"]) for doc in docs if doc.get("texts_key")]
    if names:
        key_vault().destroy(names)


def scrub(erasure: Erasure) -> int:
    """Write again, every spelling of the listener replaced, the texts of the station's audiences that name them;
    how many audiences."""
    collection, changed = Audience._get_collection(), 0
    docs = list(collection.find({"company_id": erasure.company_id},
                                {"audience_id": 1, "sealed_texts": 1, "texts_key": 1, "strategy.queries": 1,
                                 **dict.fromkeys(TEXTS, 1)}))
    for doc in opened(docs):
        texts = {name: erasure.spellings.scrub(doc.get(name) or "", erasure.replacement) for name in TEXTS}
        queries = [erasure.spellings.scrub(query, erasure.replacement) for query in doc["strategy"].get("queries", [])]
        if any(count for _, count in (*texts.values(), *queries)):
            scrubbed = {name: text for name, (text, _) in texts.items()}
            scrubbed["name"] = _free_name(erasure.company_id, doc, scrubbed["name"])
            rewrite(erasure.company_id, doc, scrubbed, [query for query, _ in queries])
            changed += 1
    return changed


def seal_plain(company_id: int) -> int:
    """Seal the texts of the station's audiences stored before sealing; how many. Resumable: a sealed one keeps no
    plain name."""
    plain = list(Audience._get_collection().find({"company_id": company_id, "name": {"$exists": True}}))
    for doc in plain:
        rewrite(company_id, doc, doc, (doc.get("strategy") or {}).get("queries") or [])
    return len(plain)


def _free_name(company_id: int, doc: dict, name: str) -> str:
    """The scrubbed name, or, when another audience of the station has it, the name with the audience's id."""
    taken = Audience._get_collection().find_one({"company_id": company_id, "_id": {"$ne": doc["_id"]},
                                                 "name_key": {"$in": name_keys(company_id, name)}}, {"_id": 1})
    return f"{name} ({doc['audience_id']})" if taken else name


def _key_name(company_id: int, audience_id: str, version: str) -> str:
    return f"audience:{company_id}:{audience_id}:{version}"
