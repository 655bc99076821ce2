"""The listener's fields, defined once (docs/decisions.md §4); every other list of fields is derived from these.

Declared fields are supplied by listeners and are all personal data (erasure clears every one). `COMPLETENESS`
names the 9 fields of a complete profile as `missing_fields` names them (`age` is held as `age_group`). Inferred
fields are AI-generated, each value with a confidence.
"""
from __future__ import annotations

from dataclasses import dataclass

GENDERS = ("male", "female", "non_binary", "undisclosed")
AGE_GROUPS = ("18-24", "25-34", "35-44", "45-54", "55-64", "65+")


@dataclass(frozen=True)
class Field:
    """One declared field: how it is read at import, kept in the snapshot and shown."""

    name: str
    kind: str  # text | email | phone | category (a free label) | choice (one of `allowed`) | list | flag
    identifier: bool = False  # names or reaches the person: never quoted in reports, scrubbed on erasure
    listed: bool = True  # in listing and export records (the ID number is shown on the listener endpoint only)
    partial: bool = False  # filtered by partial match, so the snapshot keeps its lower-cased text
    allowed: tuple = ()


DECLARED = (
    Field("name", "text", identifier=True, partial=True),
    Field("email", "email", identifier=True, partial=True),
    Field("mobile_number", "phone", identifier=True),
    Field("id_number", "text", identifier=True, listed=False),
    Field("gender", "choice", allowed=GENDERS),
    Field("age_group", "choice", allowed=AGE_GROUPS),
    Field("location", "category"),
    Field("language", "category"),
    Field("ethnicity", "category"),
    Field("income_bracket", "category"),
    Field("education", "category"),
    Field("employment_status", "category"),
    Field("tags", "list"),
    Field("permission", "flag"),
    Field("opt_in", "flag"),
)
"""Every declared field, in the order records show them."""

FIELD = {f.name: f for f in DECLARED}
DECLARED_NAMES = tuple(FIELD)
SCALAR = tuple(f.name for f in DECLARED if f.kind not in ("list", "flag"))
"""Single-valued declared fields (the listener endpoint shows them all)."""
LISTED = tuple(name for name in SCALAR if FIELD[name].listed)
CATEGORICAL = tuple(f.name for f in DECLARED if f.kind in ("category", "choice"))
PARTIAL_TEXT = tuple(f.name for f in DECLARED if f.partial)
FLAGS = tuple(f.name for f in DECLARED if f.kind == "flag")
IDENTIFIERS = tuple(f.name for f in DECLARED if f.identifier)

COMPLETENESS = ("mobile_number", "gender", "age", "location", "language", "ethnicity", "name", "email", "id_number")
"""The 9 declared fields of a complete profile, by their `missing_fields` names (docs/decisions.md §4)."""
COMPLETENESS_ATTRIBUTE = {name: ("age_group" if name == "age" else name) for name in COMPLETENESS}
"""Where each of the 9 is stored on a Listener."""

INFERRED = ("inferred_gender", "inferred_age_group", "inferred_language", "inferred_location", "inferred_lsm",
            "inferred_interests")
"""Inferred fields, each stored as {"value", "confidence"}; interests hold a list."""
INFERRED_SINGLE = tuple(name for name in INFERRED if name != "inferred_interests")
LSM_LEVELS = tuple(f"LSM {n}" for n in range(1, 11))
INFERRED_VOCABULARIES = {"inferred_gender": GENDERS, "inferred_age_group": AGE_GROUPS, "inferred_lsm": LSM_LEVELS}
"""The values inference may give where they are a fixed list (docs/decisions.md §4); the others are open (places,
languages, interests)."""
