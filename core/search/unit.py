"""Unit vectors: what every embedding provider hands the vector store (inner product is then cosine)."""
from __future__ import annotations

import numpy as np


def unit_rows(vectors) -> np.ndarray:
    """Rows scaled to length 1; a zero row stays zero."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)
