"""The `openai` embedding provider against a loopback server that speaks the OpenAI embeddings API: a good answer,
its errors, a rate limit, a timeout and garbage. A failure is ProviderUnavailable (503), never vectors."""
from __future__ import annotations

import time

import numpy as np
import pytest

from core.errors import ProviderUnavailable
from core.search.embeddings import OpenAIEmbedder
from tests.openai_server import loopback_openai  # noqa: F401 - the fixture openai_server


def provider(server, **options) -> OpenAIEmbedder:
    return OpenAIEmbedder(server.url, "sk-test", **options)


def test_a_good_answer_gives_unit_vectors_in_the_order_of_the_texts(openai_server):
    vectors = provider(openai_server).embed(["first", "second"])
    assert vectors.shape == (2, 3) and np.allclose(np.linalg.norm(vectors, axis=1), 1)
    assert vectors[0][0] < vectors[1][0]  # index 0 came back last, and is still first
    path, headers, body = openai_server.requests[0]
    assert (path, headers["Authorization"]) == ("/v1/embeddings", "Bearer sk-test")
    assert body["model"] == "text-embedding-3-small" and body["input"] == ["first", "second"]


def test_the_model_names_the_vectors(openai_server):
    assert provider(openai_server, model="nomic-embed-text").name == "openai:nomic-embed-text"


def test_a_rate_limit_is_waited_out_as_retry_after_says(openai_server):
    openai_server.script, openai_server.retry_after = ["429", "ok"], "0"
    assert provider(openai_server, max_retries=1).embed(["x"]).shape == (1, 3)
    assert len(openai_server.requests) == 2


@pytest.mark.parametrize("step", ["500", "401", "garbage", "short"])
def test_errors_and_garbage_are_provider_unavailable(openai_server, step):
    openai_server.script = [step]
    with pytest.raises(ProviderUnavailable) as raised:
        provider(openai_server, max_retries=0).embed(["x"])
    assert raised.value.status == 503


def test_a_timeout_is_provider_unavailable_in_about_the_timeout(openai_server):
    openai_server.script = ["sleep"]
    started = time.monotonic()
    with pytest.raises(ProviderUnavailable):
        provider(openai_server, timeout_s=0.3, max_retries=0).embed(["x"])
    assert time.monotonic() - started < 1.9  # gave up before the server's two-second answer
