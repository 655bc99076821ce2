"""The answers the campaign agent keeps, sealed: recommendations cached for 24 hours and the plans producers saved.

An answer quotes its brief, and a brief (its words, the filters read from it, the words it could not map) may name a
listener: a number in an `originator` filter, a name. So each answer is stored as one envelope under a data key of
its own (core.personal.vault), named per sealing (`<kind>:<station>:<version>`). An erasure writes an answer that named
the listener (in any spelling: core.personal.spellings) again under a new key and destroys the old one, after which
no copy of the old answer, in the oplog or a backup, can be read. Answers stored before sealing (JSON text in
`answer`) still read until `encrypt` seals them.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from bson import Binary, ObjectId

from core.personal.registry import Erasure
from core.personal.vault_connection import key_vault


@dataclass(frozen=True)
class SealedAnswers:
    """One store of kept answers: its documents hold `sealed_answer` (the envelope) and `answer_key` (its key's
    version); `plain` reads the content of a document stored before sealing from its `plain_fields`."""

    kind: str
    collection: Callable
    plain: Callable[[dict], dict]
    plain_fields: tuple[str, ...] = ("answer",)

    @property
    def fields(self) -> dict:
        """What a reader asks for to open an answer."""
        return {"sealed_answer": 1, "answer_key": 1, **{name: 1 for name in self.plain_fields}}

    def key_name(self, company_id: int, version: str) -> str:
        return f"{self.kind}:{company_id}:{version}"

    def sealed(self, company_id: int, content: dict) -> dict:
        """The fields that store `content` sealed under a new key."""
        version = str(ObjectId())
        text = json.dumps(content, ensure_ascii=False).encode()
        return {"sealed_answer": Binary(key_vault().seal_bytes(self.key_name(company_id, version), text)),
                "answer_key": version}

    def opened(self, docs: list[dict]) -> list[dict | None]:
        """Each stored document's content, in order, their keys unsealed together; None where the key was destroyed
        (an erasure wrote the answer again meanwhile, or dropped it)."""
        envelopes = [bytes(doc["sealed_answer"]) for doc in docs if doc.get("sealed_answer") is not None]
        texts = iter(key_vault().unseal_bytes(envelopes) if envelopes else [])
        out = []
        for doc in docs:
            if doc.get("sealed_answer") is None:
                out.append(self.plain(doc))  # stored before sealing
                continue
            text = next(texts)
            out.append(None if text is None else json.loads(text))
        return out

    def destroy(self, company_id: int, docs: list[dict]) -> None:
        """Destroy the keys these stored documents were sealed under: every copy of their answers is unreadable."""
        names = [self.key_name(company_id, doc["answer_key"]) for doc in docs if doc.get("answer_key")]
        if names:
            key_vault().destroy(names)

    def rewrite(self, company_id: int, doc: dict, content: dict) -> None:
        """Store `content` as the document's answer under a new key, then destroy the old key."""
        self.collection().update_one({"_id": doc["_id"]}, {"$set": self.sealed(company_id, content),
                                                          "$unset": {name: "" for name in self.plain_fields}})
        self.destroy(company_id, [doc])

    def erase(self, erasure: Erasure) -> int:
        """Write again, every spelling of the listener replaced (their number however written, their name, e-mail),
        every answer of the station that names them; how many."""
        company_id = erasure.company_id
        docs = list(self.collection().find({"company_id": company_id}, {"_id": 1, **self.fields}))
        changed = 0
        for doc, content in zip(docs, self.opened(docs), strict=True):
            if content is not None and _names(content, erasure):
                self.rewrite(company_id, doc, _scrubbed(content, erasure))
                changed += 1
        return changed

    def seal_plain(self, company_id: int) -> int:
        """Seal the station's answers stored before sealing; how many. Resumable: a sealed one keeps no plain
        field."""
        plain = list(self.collection().find({"company_id": company_id, "answer": {"$exists": True}},
                                            {"_id": 1, **self.fields}))
        for doc in plain:
            self.rewrite(company_id, doc, self.plain(doc))
        return len(plain)


def _names(content, erasure: Erasure) -> bool:
    """Whether any text in an answer (a brief, a filter's value, a name) names the listener."""
    if isinstance(content, str):
        return content == erasure.originator or erasure.spellings.names(content)
    if isinstance(content, dict):
        return any(_names(value, erasure) for value in content.values())
    if isinstance(content, list):
        return any(_names(value, erasure) for value in content)
    return False


def _scrubbed(content, erasure: Erasure):
    """The answer with every text that names the listener scrubbed: an originator filter's value becomes the
    pseudonym, which no filter matches; a spelling in free text becomes the erasure's replacement."""
    if isinstance(content, str):
        return erasure.pseudonym if content == erasure.originator else erasure.spellings.scrub(
            content, erasure.replacement)[0]
    if isinstance(content, dict):
        return {key: _scrubbed(value, erasure) for key, value in content.items()}
    if isinstance(content, list):
        return [_scrubbed(value, erasure) for value in content]
    return content
