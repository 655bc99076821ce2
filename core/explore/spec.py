"""The shared filter set of the contract, by parameter: its kind, the snapshot column it reads and its bounds.

The only definition of the filters: parsing (core.explore.filters), evaluation (core.explore.evaluation), the
OpenAPI parameters and the explorer form are all derived from SPEC.
"""
from __future__ import annotations

from typing import Any

from core.listeners.fields import AGE_GROUPS, COMPLETENESS, GENDERS
from core.segmentation.behaviour import DAYPARTS
from core.segmentation.rules import SEGMENTS

# name -> (kind, snapshot column, allowed values or (min, max))
SPEC: dict[str, tuple[str, str, Any]] = {
    "segment": ("strings", "segment", SEGMENTS),
    "gender": ("strings", "gender", GENDERS),
    "age_group": ("strings", "age_group", AGE_GROUPS),
    "ethnicity": ("strings", "ethnicity", None),
    "language": ("strings", "language", None),
    "location": ("strings", "location", None),
    "inferred_lsm": ("strings", "inferred_lsm", None),
    "campaign_type": ("strings", "campaign_types", None),
    "peak_time_of_day": ("strings", "peak_time_of_day", DAYPARTS),
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
REPEATABLE = {name for name, (kind, _, _) in SPEC.items() if kind in ("strings", "ints")}
