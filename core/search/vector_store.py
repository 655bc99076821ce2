"""FAISS vector indexes, one per company; embeddings in MongoDB are the source of truth."""
from __future__ import annotations

import faiss
import numpy as np


def ping() -> bool:
    """True when FAISS is importable and can build and search an index."""
    try:
        index = faiss.IndexFlatIP(4)
        index.add(np.eye(4, dtype="float32"))
        _, ids = index.search(np.eye(4, dtype="float32")[:1], 1)
        return int(ids[0][0]) == 0
    except Exception:  # noqa: BLE001 - any failure means the vector store is unavailable
        return False
