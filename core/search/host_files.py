"""Where a host keeps its files of a station's model under DATA_DIR: the FAISS index (core.search.process_indexes)
and the BM25 builds (core.search.lexical_builds). Each is rebuilt from MongoDB when missing, so nothing here is backed
up."""
from __future__ import annotations

from pathlib import Path

from core.config import active


def station_path(kind: str, company_id: int, model: str) -> Path:
    """DATA_DIR/<kind>/company-<id>-<model, its other characters as dashes>: a name to add a suffix to."""
    slug = "".join(c if c.isalnum() else "-" for c in model)
    return Path(active().data_dir) / kind / f"company-{company_id}-{slug}"
