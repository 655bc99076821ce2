"""Mappings a station confirmed, remembered per kind and set of headers: the next file with the same headers (in any
order, spelt with any case or spacing) is mapped as the last one was, and the producer still sees the preview."""
from __future__ import annotations

import hashlib
import json

from core.clock import utcnow
from core.ingest.headers import normalised
from core.ingest.models import RememberedMapping


def _key(columns: list[str]) -> str:
    """The same for the same headers in any order or spelling of case, spaces and punctuation."""
    names = sorted(normalised(column) or column for column in columns)
    return hashlib.sha1(json.dumps(names, ensure_ascii=False).encode()).hexdigest()


def remember(company_id: int, kind: str, pairs: list[tuple[str, str | None]], date_order: str = "") -> None:
    """Keep the mapping a producer (or a client) confirmed for these headers, replacing the one kept before."""
    RememberedMapping._get_collection().update_one(
        {"company_id": company_id, "kind": kind, "headers": _key([column for column, _ in pairs])},
        {"$set": {"pairs": [{"column": column, "field": field} for column, field in pairs],
                  "date_order": date_order, "updated_at": utcnow()}}, upsert=True)


def recall(company_id: int, kind: str, columns: list[str]) -> tuple[dict[str, str | None], str, object] | None:
    """({column: field or None} for these columns, its date order, when it was confirmed), or None when this
    station has confirmed no mapping for these headers."""
    found = RememberedMapping._get_collection().find_one(
        {"company_id": company_id, "kind": kind, "headers": _key(columns)})
    if not found:
        return None
    by_name = {normalised(pair["column"]) or pair["column"]: pair["field"] for pair in found.get("pairs", [])}
    return ({column: by_name.get(normalised(column) or column) for column in columns}, found.get("date_order", ""),
            found.get("updated_at"))
