"""A station's own names for its tags and interests, as producers read them on every page.

A tag is a word an import brought (`music_lover`, `vip`, `breakfast-club`). By default it is written in sentence case
("Music lover"); a tag given in capitals ("VIP") stays as given. A station may name any of them itself ("Breakfast
Club members"); the names are kept on the station as a list of pairs, since a tag may hold characters a MongoDB key
cannot. Data keeps the tag as imported (filters, exports and the API match on it); only what pages say changes.
"""
from __future__ import annotations

from core.errors import ValidationFailed
from core.stations.companies import ensure_company
from core.stations.models import Company
from core.text.storable import text_problem

MAX_LABEL = 60
MAX_LABELS = 2_000
SPELLING = {"non_binary": "Non-binary"}


def default_label(tag: str) -> str:
    """A tag in sentence case with spaces for underscores; one given with capitals stays as it was given."""
    text = str(tag)
    if not text.islower():
        return text
    return SPELLING.get(text) or text.replace("_", " ").capitalize()


def tag_labels(company_id: int) -> dict[str, str]:
    """The station's own names, tag -> label (only those it named)."""
    company = Company.objects(company_id=company_id).only("tag_labels").first()
    return {pair["tag"]: pair["label"] for pair in (company.tag_labels if company else []) or []}


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
    kept = tag_labels(company_id)
    for tag, label in labels.items():
        label = " ".join(label.split())
        if not label or label == default_label(tag):
            kept.pop(tag, None)
        else:
            kept[tag] = label
    if len(kept) > MAX_LABELS:
        raise ValidationFailed.one(["body", "labels"], f"A station may name at most {MAX_LABELS:,} tags.")
    ensure_company(company_id)
    Company.objects(company_id=company_id).update_one(
        set__tag_labels=[{"tag": tag, "label": label} for tag, label in sorted(kept.items())])
    return kept


def _problem(tag: str, label: str) -> dict | None:
    loc = ["body", "labels", tag[:40]]
    problem = text_problem(tag) or text_problem(label)
    if problem:
        return {"loc": loc, "msg": problem, "type": "string_type"}
    if len(" ".join(label.split())) > MAX_LABEL:
        return {"loc": loc, "msg": f"Keep a name to {MAX_LABEL} characters.", "type": "string_too_long"}
    return None
