"""The offline model: the same vectors whether a call's batches run in threads or in worker processes."""
from __future__ import annotations

import numpy as np

from core.search import local_model
from core.search.embeddings import embedder


def test_worker_processes_give_the_vectors_threads_give_in_the_callers_order(monkeypatch):
    texts = [f"listener {i} loves {'gospel' if i % 3 else 'soccer'} on the breakfast show" * (1 + i % 4)
             for i in range(300)]
    model = embedder()
    in_threads = model.embed(texts)
    monkeypatch.setattr(local_model, "PROCESSES_FROM", 1)
    monkeypatch.setattr(local_model, "WORKERS", 2)
    in_processes = model.embed(texts)
    assert in_processes.shape == (300, local_model.DIM)
    assert np.allclose(in_processes, in_threads, atol=1e-5)
    assert np.allclose(np.linalg.norm(in_processes, axis=1), 1, atol=1e-5)
    assert not np.allclose(in_processes[0], in_processes[1])
