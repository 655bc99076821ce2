"""An audience as a table, for its CSV export: one row per member, with the segment's name beside its key and the
channels by name; the pages write it with core.text.cells, which keeps any cell from running as a formula."""
from __future__ import annotations

from core.audiences.members import PROFILE
from core.audiences.store import get_audience
from core.segmentation.rules import LABELS

PROFILE_COLUMNS = [name for name in PROFILE if name != "segment"]
HEADERS = ["originator", "score", "query", "segment", "segment_name", *PROFILE_COLUMNS]


def audience_rows(company_id: int, audience_id: str) -> tuple[list[str], list[list]]:
    """(headers, rows) of the audience's members, best first: lists joined by "|", flags as true/false, unknown
    values empty, as the listener export writes them."""
    audience = get_audience(company_id, audience_id)
    rows = [[_cell(value) for value in (member["originator"], member["score"], member["query"], member["segment"],
                                         LABELS.get(member["segment"]), *(member[name] for name in PROFILE_COLUMNS))]
            for member in audience["members"]]
    return HEADERS, rows


def _cell(value):
    if isinstance(value, list):
        return "|".join(map(str, value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value
