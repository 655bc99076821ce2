"""How pages name things: filter titles, days and months, field names, and a filter value in words."""
from __future__ import annotations

from jinja2 import pass_context

from core.explore.filters import TRUE
from core.explore.spec import EXCLUSIONS, SPEC, included
from core.segmentation.rules import LABELS
from core.stations.labels import default_label, label_of

TITLES = {"name": "Name contains", "email": "Email contains", "originator": "Number (exact)",
          "inferred_lsm": "Inferred LSM", "channel_type": "Primary channel", "has_channel": "Used channel",
          "primary_day_of_week": "Main day", "weekday_pattern": "Mostly on weekdays",
          "public_holiday": "Active on holiday", "opt_in": "Opted in", "missing_fields": "Missing field",
          "last_interaction_after": "Last active after", "last_interaction_before": "Last active before",
          "timeslot_id": "Show", "employment_status": "Employment", "channel_pair": "Active on both",
          "churn_risk": "Chance of going quiet"}
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
FIELD_LABELS = {"mobile_number": "Mobile number", "gender": "Gender", "age": "Age", "location": "Location",
                "language": "Language", "ethnicity": "Ethnicity", "name": "Name", "email": "Email",
                "id_number": "ID number"}
AS_IS = {"name", "email", "originator"}
"""Values shown as they were given. Every other lower-case value is a word a person reads, written in sentence case
(core.stations.labels.default_label); a tag or an interest by the station's own name for it when it has one."""
TAG_FIELDS = {"tags", "inferred_interests"}


def title(name: str) -> str:
    """What the form calls a filter parameter; an exclusion is its filter's title, marked."""
    if name in EXCLUSIONS:
        return f"{title(EXCLUSIONS[name])} (excluded)"
    return TITLES.get(name) or name.replace("_", " ").capitalize()


@pass_context
def tag_label(context, tag: str) -> str:
    """A tag or an interest as a producer reads it, by the name the page's station gave it (a template filter)."""
    station = context.get("station")
    return label_of(tag, station.get("tag_labels") if isinstance(station, dict) else None)


def chip_words(name: str, value: str, names: dict | None = None) -> dict:
    """A filter value as a chip says it, {"title", "label"}: an excluded one as "Segment: not Super fans"."""
    if name in EXCLUSIONS:
        return {"title": title(EXCLUSIONS[name]), "label": f"not {value_label(name, value, names)}"}
    return {"title": title(name), "label": value_label(name, value, names)}


def value_label(name: str, value: str, names: dict | None = None) -> str:
    """A filter value as a producer reads it: channel and show names, days, months, Yes/No (an excluded value as
    its filter's)."""
    name = included(name)
    names, kind, text = names or {}, SPEC.get(name, ("",))[0], str(value)
    if name == "channel_pair":  # the explorer's own drill-down into a cell of the cross-channel heat map
        return " and ".join(names.get("channels", {}).get(c, f"Channel {c}") for c in text.split(","))
    if name == "segment":
        return LABELS.get(text.lower(), text)
    if name in ("channel_type", "has_channel"):
        return names.get("channels", {}).get(text, f"Channel {text}")
    if name == "timeslot_id":
        return names.get("shows", {}).get(text, f"Show {text}")
    if name == "peak_hour" and text.isdigit() and int(text) < 24:
        return f"{int(text):02d}:00"
    if name in ("primary_day_of_week", "peak_month"):
        labels = DAYS if name == "primary_day_of_week" else MONTHS
        return labels[int(text) - 1] if text.isdigit() and 1 <= int(text) <= len(labels) else text
    if kind == "bool":
        return "Yes" if text.lower() in TRUE else "No"
    if kind == "datetime":
        return text[:10]
    if name == "missing_fields":
        return FIELD_LABELS.get(text, text)
    if name in AS_IS:
        return text
    if name in TAG_FIELDS:
        return label_of(text, names.get("tags"))
    return default_label(text)
