"""A station's own names for its tags and interests, as producers read them on every page.

A tag is a word an import brought (`music_lover`, `vip`, `breakfast-club`). By default it is written in sentence case
("Music lover"); a tag given in capitals ("VIP") stays as given. A station may name any of them itself ("Breakfast
Club members"); the names are kept on the station as a list of pairs, since a tag may hold characters a MongoDB key
cannot. Data keeps the tag as imported (filters, exports and the API match on it); only what pages say changes.

A tag is text the station sent ("call 082 999 0001") and a name is what a producer typed, so both may name a
listener: the pairs are stored sealed, one envelope per station under a key of its own, written again under a new key
at every change with the old key destroyed after (core.stations.models). Erasure drops a name whose tag names the
listener and scrubs them from the others.
"""
from __future__ import annotations

from collections.abc import Callable

from core.errors import Conflict, ValidationFailed
from core.personal.registry import Erasure, Store, declare
from core.personal.vault_connection import key_vault
from core.stations.companies import ensure_company
from core.stations.models import Company, opened_tag_labels, sealed_tag_labels, stored_tag_labels, tag_labels_key
from core.text.storable import text_problem

MAX_LABEL = 60
MAX_LABELS = 2_000
ATTEMPTS = 5  # writes racing for one station's names before a writer gives up
SPELLING = {"non_binary": "Non-binary"}


def default_label(tag: str) -> str:
    """A tag in sentence case with spaces for underscores; one given with capitals stays as it was given."""
    text = str(tag)
    if not text.islower():
        return text
    return SPELLING.get(text) or text.replace("_", " ").capitalize()


def tag_labels(company_id: int) -> dict[str, str]:
    """The station's own names, tag -> label (only those it named)."""
    return stored_tag_labels(company_id)


def label_of(tag: str, labels: dict[str, str] | None) -> str:
    """The station's name for the tag, else its default label."""
    return (labels or {}).get(str(tag)) or default_label(tag)


def set_tag_labels(company_id: int, labels: dict[str, str]) -> dict[str, str]:
    """Name tags: a blank label gives the tag its default back; every other name replaces the one kept. Checked
    whole before anything is written; returns the station's names after the change."""
    problems = [_problem(tag, label) for tag, label in labels.items()]
    problems = [p for p in problems if p]
    if problems:
        raise ValidationFailed(problems)
    ensure_company(company_id)

    def changed(kept: dict[str, str]) -> dict[str, str]:
        for tag, label in labels.items():
            label = " ".join(label.split())
            if not label or label == default_label(tag):
                kept.pop(tag, None)
            else:
                kept[tag] = label
        if len(kept) > MAX_LABELS:
            raise ValidationFailed.one(["body", "labels"], f"A station may name at most {MAX_LABELS:,} tags.")
        return kept

    return _rewrite(company_id, changed)


def seal_plain_labels(company_id: int) -> int:
    """Seal the station's names stored before sealing (1), or none were (0). Resumable."""
    if not Company._get_collection().count_documents({"company_id": company_id, "tag_labels": {"$exists": True}}):
        return 0
    _rewrite(company_id, lambda kept: kept)
    return 1


def erase_labels(erasure: Erasure) -> int:
    """Drop the names of tags that name the listener in any spelling, and replace the listener in the others; how
    many names. Written again under a new key, so that no copy of the old names can be read."""
    touched = 0

    def without(kept: dict[str, str]) -> dict[str, str]:
        nonlocal touched
        out, touched = {}, 0  # counted again if a racing write makes this run again
        for tag, label in kept.items():
            if erasure.spellings.names(tag):
                continue
            out[tag], found = erasure.spellings.scrub(label, erasure.replacement)
            touched += bool(found)
        touched += len(kept) - len(out)
        return out

    _rewrite(erasure.company_id, without, only_if_changed=True)
    return touched


def _rewrite(company_id: int, change: Callable[[dict[str, str]], dict[str, str]],
             only_if_changed: bool = False) -> dict[str, str]:
    """Store `change(names)` as the station's names under a new key, unless another writer replaced the names since
    they were read (then read and change them again); the old key is destroyed once nothing stored needs it. The
    names now."""
    companies = Company._get_collection()
    for _ in range(ATTEMPTS):
        raw = companies.find_one({"company_id": company_id},
                                 {"sealed_tag_labels": 1, "tag_labels_key": 1, "tag_labels": 1}) or {}
        before = opened_tag_labels(company_id, raw.get("tag_labels_key"), raw.get("sealed_tag_labels"),
                                   raw.get("tag_labels"))
        if before is None:
            continue  # replaced, its key destroyed, between the read and the opening
        after = change(dict(before))
        if only_if_changed and after == before and "tag_labels" not in raw:
            return after
        fields = sealed_tag_labels(company_id, after)
        if companies.update_one({"company_id": company_id, "tag_labels_key": raw.get("tag_labels_key")},
                                {"$set": fields, "$unset": {"tag_labels": ""}}).matched_count:
            if raw.get("tag_labels_key"):
                key_vault().destroy([tag_labels_key(company_id, raw["tag_labels_key"])])
            return after
        if fields["tag_labels_key"]:
            key_vault().destroy([tag_labels_key(company_id, fields["tag_labels_key"])])
    raise Conflict("The station's tag names changed while these were being saved; save them again.")


def _problem(tag: str, label: str) -> dict | None:
    loc = ["body", "labels", tag[:40]]
    problem = text_problem(tag) or text_problem(label)
    if problem:
        return {"loc": loc, "msg": problem, "type": "string_type"}
    if len(" ".join(label.split())) > MAX_LABEL:
        return {"loc": loc, "msg": f"Keep a name to {MAX_LABEL} characters.", "type": "string_too_long"}
    return None


COMPANIES = declare(Store(
    "stations", "companies", erase=erase_labels, migrate=seal_plain_labels,
    personal=("tag_labels",  # plain, stored before sealing: the station's names beside its tags, either may name
              # a listener ("call 082 999 0001"); sealed in place by `encrypt`
              "sealed_tag_labels"),  # sealed: the same names, one envelope under a key of the station's own
    free=("_id", "company_id", "name", "timezone", "country", "channels", "thresholds", "churn_horizon_days",
          "rate_card", "data_version", "snapshot_file", "copies_epoch", "originators_keyed", "created_at",
          "tag_labels_key")))  # the version of that key: an ObjectId made when sealing
