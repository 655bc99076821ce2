"""Mokgosi FM into a database: its files imported as an operator's files are, then segmented as of its `now`."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from bench.other_station.generate import generate, is_generated


def load_station(company_id: int, folder: Path, listeners: int, seed: int) -> dict:
    """Import the station's files from `folder` (written first unless that size and seed are there) through the
    ingest path, name the station and segment it; returns its meta.json with, per kind, the rows read, imported,
    bad and warned of. SystemExit on any bad row."""
    from core.ingest.importer import KINDS, import_file
    from core.segmentation.runs import segment_company
    from core.stations.companies import ensure_company
    from core.stations.models import Company

    if not is_generated(folder, listeners, seed):
        generate(folder, listeners, seed)
    meta = json.loads((Path(folder) / "meta.json").read_text())
    now = datetime.fromisoformat(meta["now"])
    ensure_company(company_id)
    Company.objects(company_id=company_id).update_one(set__name=meta["station"], set__timezone=meta["timezone"])
    meta["imported"] = {}
    for kind in KINDS:
        report = import_file(kind, Path(folder) / f"{kind}.jsonl", resegment=False, now=now)
        if report.error_count:
            raise SystemExit(f"{kind}: {report.error_count} bad rows in {folder}")
        meta["imported"][kind] = {"rows": report.rows, "imported": report.imported, "bad": report.error_count,
                                  "warnings": report.warning_count}
    segment_company(company_id, now)
    return meta
