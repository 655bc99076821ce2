"""The `openai` embedding provider against a loopback server that speaks the OpenAI embeddings API: a good answer,
its errors, a rate limit, a timeout and garbage. A failure is ProviderUnavailable (503), never vectors."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from core.errors import ProviderUnavailable
from core.search.embeddings import OpenAIEmbedder


class FakeOpenAI(BaseHTTPRequestHandler):
    """Answers POST /v1/embeddings as `self.server.script` says, one entry per request (the last one repeats)."""

    def do_POST(self):  # noqa: N802 - the name http.server calls
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, self.headers.get("Authorization"), body))
        step = self.server.script[min(len(self.server.requests), len(self.server.script)) - 1]
        if step == "sleep":
            time.sleep(2)
            step = "ok"
        if step == "ok":
            data = [{"object": "embedding", "index": i, "embedding": [float(i + 1), 2.0, 0.0]}
                    for i, _ in enumerate(body["input"])]
            self._send(200, {"object": "list", "data": list(reversed(data)), "model": body["model"],
                             "usage": {"prompt_tokens": 3, "total_tokens": 3}})
        elif step == "garbage":
            self._send(200, None, raw=b"{not json")
        elif step == "short":
            self._send(200, {"object": "list", "data": [], "model": body["model"]})
        elif step == "429":
            self._send(429, {"error": {"message": "slow down", "type": "rate_limit"}}, {"Retry-After": "0"})
        else:
            self._send(int(step), {"error": {"message": "boom", "type": "server_error"}})

    def _send(self, status, payload, headers=None, raw=None):
        data = raw if raw is not None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        """Quiet."""


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeOpenAI)
    httpd.requests, httpd.script = [], ["ok"]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def provider(server, **options) -> OpenAIEmbedder:
    return OpenAIEmbedder(f"http://127.0.0.1:{server.server_address[1]}/v1", "sk-test", **options)


def test_a_good_answer_gives_unit_vectors_in_the_order_of_the_texts(server):
    vectors = provider(server).embed(["first", "second"])
    assert vectors.shape == (2, 3) and np.allclose(np.linalg.norm(vectors, axis=1), 1)
    assert vectors[0][0] < vectors[1][0]  # index 0 came back last, and is still first
    path, authorization, body = server.requests[0]
    assert (path, authorization) == ("/v1/embeddings", "Bearer sk-test")
    assert body["model"] == "text-embedding-3-small" and body["input"] == ["first", "second"]


def test_the_model_names_the_vectors(server):
    assert provider(server, model="nomic-embed-text").name == "openai:nomic-embed-text"


def test_a_rate_limit_is_waited_out_as_retry_after_says(server):
    server.script = ["429", "ok"]
    assert provider(server, max_retries=1).embed(["x"]).shape == (1, 3)
    assert len(server.requests) == 2


@pytest.mark.parametrize("step", ["500", "401", "garbage", "short"])
def test_errors_and_garbage_are_provider_unavailable(server, step):
    server.script = [step]
    with pytest.raises(ProviderUnavailable) as raised:
        provider(server, max_retries=0).embed(["x"])
    assert raised.value.status == 503


def test_a_timeout_is_provider_unavailable_in_about_the_timeout(server):
    server.script = ["sleep"]
    started = time.monotonic()
    with pytest.raises(ProviderUnavailable):
        provider(server, timeout_s=0.3, max_retries=0).embed(["x"])
    assert time.monotonic() - started < 1.9  # gave up before the server's two-second answer
