"""The shared filter set of the contract, by parameter: its kind, the snapshot column it reads and its bounds.

The only definition of the filters: parsing (core.explore.filters), evaluation (core.explore.evaluation), the
OpenAPI parameters and the explorer form are all derived from SPEC. Every filter of several values (repeatable, or
"all of") and every whole-number filter has an exclusion beside it, `exclude_<name>`, with the same values and bounds:
it keeps the listeners known to match none of them (an unknown value is kept).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from core.churn.explain import LEVELS
from core.listeners.fields import AGE_GROUPS, COMPLETENESS, GENDERS
from core.segmentation.behaviour import DAYPART_OF_HOUR, DAYPARTS, WEEKDAY_SHARE
from core.segmentation.rules import SEGMENTS
from core.text.wording import join_words

# name -> (kind, snapshot column, allowed values or (min, max))
_INCLUDING: dict[str, tuple[str, str, Any]] = {
    "segment": ("strings", "segment", SEGMENTS),
    "gender": ("strings", "gender", GENDERS),
    "age_group": ("strings", "age_group", AGE_GROUPS),
    "ethnicity": ("strings", "ethnicity", None),
    "language": ("strings", "language", None),
    "location": ("strings", "location", None),
    "inferred_lsm": ("strings", "inferred_lsm", None),
    "campaign_type": ("strings", "campaign_types", None),
    "peak_time_of_day": ("strings", "peak_time_of_day", DAYPARTS),
    "churn_risk": ("strings", "churn_level", LEVELS),
    "public_holiday": ("strings", "public_holidays", None),
    "missing_fields": ("strings", "missing_fields", COMPLETENESS),
    "channel_type": ("ints", "primary_channel", (1, 10_000)),
    "primary_day_of_week": ("ints", "primary_day_of_week", (1, 7)),
    "peak_month": ("ints", "peak_month", (1, 12)),
    "timeslot_id": ("ints", "timeslots", (0, 2**31 - 1)),
    "tags": ("all_of", "tags", None),
    "inferred_interests": ("all_of", "inferred_interests", None),
    "originator": ("exact", "originator", None),
    "email": ("partial", "email", None),
    "name": ("partial", "name", None),
    "income_bracket": ("string", "income_bracket", None),
    "education": ("string", "education", None),
    "employment_status": ("string", "employment_status", None),
    "inferred_gender": ("string", "inferred_gender", None),
    "inferred_age_group": ("string", "inferred_age_group", None),
    "inferred_location": ("string", "inferred_location", None),
    "inferred_language": ("string", "inferred_language", None),
    "has_channel": ("int", "channels", (1, 10_000)),
    "peak_hour": ("int", "peak_hour", (0, 23)),
    "last_interaction_after": ("datetime", "last_ts", None),
    "last_interaction_before": ("datetime", "last_ts", None),
    "permission": ("bool", "permission", None),
    "opt_in": ("bool", "opt_in", None),
    "profile_complete": ("bool", "profile_complete", None),
    "weekday_pattern": ("bool", "weekday_pattern", None),
}
EXCLUDABLE = ("strings", "ints", "all_of", "int")
"""Kinds of filter whose values a brief, a query or a client may also name to leave out: those that take several
values, and the numbers that name one thing of several (a channel used, an hour)."""
EXCLUSIONS: dict[str, str] = {f"exclude_{name}": name for name, (kind, _, _) in _INCLUDING.items()
                              if kind in EXCLUDABLE}
"""Each exclusion filter -> the filter whose values it leaves out."""


def _with_exclusions(filters: dict) -> dict:
    """The filters, each exclusion right after the filter it excludes from, with its kind, column and bounds."""
    out = {}
    for name, entry in filters.items():
        out[name] = entry
        if f"exclude_{name}" in EXCLUSIONS:
            out[f"exclude_{name}"] = entry
    return out


SPEC: dict[str, tuple[str, str, Any]] = _with_exclusions(_INCLUDING)
REPEATABLE = {name for name, (kind, _, _) in SPEC.items() if kind in ("strings", "ints")}


def included(name: str) -> str:
    """The filter whose values a name is about (`segment` for `exclude_segment`), so that its values read alike."""
    return EXCLUSIONS.get(name, name)


def _dayparts() -> str:
    """The dayparts with their hours, read from the table that buckets interactions."""
    spans = []
    for code, name in enumerate(DAYPARTS):
        hours = np.flatnonzero(DAYPART_OF_HOUR == code)
        spans.append(f"{name} {hours[0]:02d}:00-{hours[-1] + 1:02d}:00")
    return ", ".join(spans)


def _declared(names: tuple[str, ...]) -> str:
    return join_words([name.replace("_", " ").replace("id number", "ID number") for name in names])


HELP: dict[str, str] = {
    "segment": "Their segment as of the latest segmentation run.",
    "churn_risk": "Their chance of going quiet in the station's horizon (30 days unless set), as the latest run "
                  "scored it: low under 40 in 100, medium from 40, high from 70.",
    "gender": "Gender as the listener declared it.",
    "age_group": "Age group, from the age the listener declared.",
    "ethnicity": "Ethnicity as the listener declared it.",
    "language": "Language as the listener declared it.",
    "location": "Location as the listener declared it, or a place it lies in (a province, metro or city, by any of "
                "its names or codes: Gauteng, GP, Joburg, KZN).",
    "income_bracket": "Income bracket as the listener declared it.",
    "education": "Education as the listener declared it.",
    "employment_status": "Employment as the listener declared it.",
    "tags": "Has every ticked tag; tags come in with the imported profiles.",
    "name": "Name contains this text, in any case.",
    "email": "Email address contains this text, in any case.",
    "originator": "The number (or other sender) they write from, exactly as stored, e.g. 27821234567.",
    "inferred_gender": "Gender estimated by AI from their data, whatever its confidence; never counted as declared.",
    "inferred_age_group": "Age group estimated by AI, whatever its confidence; never counted as declared.",
    "inferred_language": "Language estimated by AI, e.g. from their messages; never counted as declared.",
    "inferred_location": "Location estimated by AI, whatever its confidence; never counted as declared.",
    "inferred_lsm": "Living Standards Measure (LSM 1 to 10) estimated by AI; never counted as declared.",
    "inferred_interests": "Has every ticked interest estimated by AI.",
    "channel_type": "Their primary channel: the one they used most (a tie goes to the lowest channel number).",
    "has_channel": "Used this channel at least once.",
    "campaign_type": "Took part at least once in a campaign of any ticked type.",
    "peak_time_of_day": f"The daypart of most of their interactions, station time: {_dayparts()}.",
    "peak_hour": "The hour of the day of most of their interactions, station time.",
    "primary_day_of_week": "The day of the week of most of their interactions, station time.",
    "peak_month": "The month of most of their interactions.",
    "weekday_pattern": f"At least {round(100 * WEEKDAY_SHARE)}% of their interactions fall on Monday to Friday.",
    "public_holiday": "Took part on any ticked public holiday of the station's country.",
    "permission": "Whether they gave the station permission, as imported; unknown matches neither Yes nor No.",
    "opt_in": "Whether they opted in to messages from the station; unknown matches neither Yes nor No.",
    "profile_complete": f"Whether they gave all {len(COMPLETENESS)} declared fields: {_declared(COMPLETENESS)}.",
    "missing_fields": "Any ticked declared field is missing from their profile.",
    "last_interaction_after": "Last took part after this date began (midnight, station time).",
    "last_interaction_before": "Last took part before this date began (midnight, station time).",
    "timeslot_id": "Took part at least once during any ticked show.",
    "exclude_segment": "In none of these segments.",
    "exclude_churn_risk": "Their chance of going quiet is at none of these levels; listeners not scored yet are kept.",
    "exclude_gender": "Declared a gender other than these; listeners who declared none are kept.",
    "exclude_age_group": "Declared an age outside these age groups; listeners who declared none are kept.",
    "exclude_ethnicity": "Declared an ethnicity other than these; listeners who declared none are kept.",
    "exclude_language": "Declared a language other than these; listeners who declared none are kept.",
    "exclude_location": "Declared a location other than these; listeners who declared none are kept.",
    "exclude_inferred_lsm": "LSM estimated by AI as none of these; listeners without an estimate are kept.",
    "exclude_campaign_type": "Never took part in a campaign of these types.",
    "exclude_peak_time_of_day": "The daypart of most of their interactions is none of these.",
    "exclude_public_holiday": "Took part on none of these public holidays.",
    "exclude_missing_fields": "None of these declared fields is missing from their profile.",
    "exclude_channel_type": "Their primary channel is none of these (they may have used them less).",
    "exclude_primary_day_of_week": "The day of the week of most of their interactions is none of these.",
    "exclude_peak_month": "The month of most of their interactions is none of these.",
    "exclude_timeslot_id": "Never took part during any of these shows.",
    "exclude_tags": "Has none of these tags; listeners without tags are kept.",
    "exclude_inferred_interests": "Has none of these interests estimated by AI; listeners without any are kept.",
    "exclude_has_channel": "Never used this channel.",
    "exclude_peak_hour": "The hour of the day of most of their interactions is not this one.",
}
"""Each filter in one line, as the explorer's help and the glossary show it (a test holds it to SPEC)."""
