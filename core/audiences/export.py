"""An audience as a table, for its CSV export: one row per member of the target arm (the holdout is never exported,
core.audiences.arms), with the segment's name beside its key and the channels by name; the pages write it with
core.text.cells, which keeps any cell from running as a formula."""
from __future__ import annotations

from typing import NamedTuple

from core.audiences.arms import TARGET
from core.audiences.members import PROFILE
from core.audiences.store import get_audience
from core.segmentation.rules import LABELS

PROFILE_COLUMNS = [name for name in PROFILE if name != "segment"]
HEADERS = ["originator", "score", "query", "segment", "segment_name", *PROFILE_COLUMNS]


class AudienceTable(NamedTuple):
    """The export: its headers, its rows (the target arm's members), and how many members the holdout keeps out."""

    headers: list[str]
    rows: list[list]
    held_out: int
    name: str


def audience_rows(company_id: int, audience_id: str) -> AudienceTable:
    """The target arm's members, best first: lists joined by "|", flags as true/false, unknown values empty, as the
    listener export writes them; with how many were held out."""
    audience = get_audience(company_id, audience_id)
    rows = [[_cell(value) for value in (member["originator"], member["score"], member["query"], member["segment"],
                                         LABELS.get(member["segment"]), *(member[name] for name in PROFILE_COLUMNS))]
            for member in audience["members"] if member["arm"] == TARGET]
    return AudienceTable(HEADERS, rows, audience["holdout_count"], audience["name"])


def _cell(value):
    if isinstance(value, list):
        return "|".join(map(str, value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value
