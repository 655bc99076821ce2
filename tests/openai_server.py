"""A loopback HTTP server speaking the OpenAI API (POST /v1/embeddings and /v1/chat/completions), so that the `openai`
providers are tested through the official client against real HTTP, not a mock of our own code.

Each request plays the next step of `server.script` (the last step repeats):
- a dict: a chat answer whose message content is that dict, dumped as JSON;
- "ok": a good answer (embeddings: one vector per input; chat: the content `{}`);
- "garbage": what should be JSON is not (chat: the message content; embeddings, which have no content: the body);
- "raw": a 200 whose body is not JSON at all;
- "length": a chat answer cut off by max_tokens (finish_reason "length", truncated content);
- "short": an embeddings answer with no vectors;
- "sleep": waits `server.sleep_s` (2 s, longer than the tests' client timeouts), then answers "ok";
- a status such as "429", "500", "401": that error; a 429 carries `Retry-After: server.retry_after` (7; None: none).

A test module uses the fixture `openai_server` by importing its function: `from tests.openai_server import
loopback_openai  # noqa: F401` (tests/core/ai/conftest.py does so for its package).
"""
from __future__ import annotations

import json
import threading
import time
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple

import pytest

from tests.loopback import serving

TRUNCATED = '{"gender": "fem'
CHAT_STEPS = {"ok": ("{}", "stop"), "garbage": ("this is not JSON {", "stop"), "length": (TRUNCATED, "length")}
"""Message content and finish_reason of the chat answers named by a word."""


class Request(NamedTuple):
    """One request as the server received it; `headers` look names up case-insensitively."""

    path: str
    headers: Message
    body: dict


class OpenAIServer(ThreadingHTTPServer):
    """The server and what a test sets and reads: `script`, `requests`, `retry_after`, `sleep_s`, `url`."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), FakeOpenAI)
        self.script: list = ["ok"]
        self.requests: list[Request] = []
        self.retry_after: str | None = "7"
        self.sleep_s = 2.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def next_step(self, request: Request):
        """Record the request and the step it plays (under a lock: the server answers requests in threads)."""
        with _lock:
            self.requests.append(request)
            return self.script[min(len(self.requests), len(self.script)) - 1]


_lock = threading.Lock()


class FakeOpenAI(BaseHTTPRequestHandler):
    """Answers as the server's script says."""

    def do_POST(self):  # noqa: N802 - the name http.server calls
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        step = self.server.next_step(Request(self.path, self.headers, body))
        if step == "sleep":
            time.sleep(self.server.sleep_s)
            step = "ok"
        if isinstance(step, str) and step.isdigit():
            self._error(int(step))
        elif step == "raw":
            self._send(200, raw=b"{not json")
        elif self.path.endswith("/embeddings"):
            self._embeddings(step, body)
        else:
            self._chat(step, body)

    def _embeddings(self, step, body):
        if step == "garbage":
            self._send(200, raw=b"{not json")
        elif step == "short":
            self._send(200, {"object": "list", "data": [], "model": body["model"]})
        else:
            data = [{"object": "embedding", "index": i, "embedding": [float(i + 1), 2.0, 0.0]}
                    for i, _ in enumerate(body["input"])]
            self._send(200, {"object": "list", "data": list(reversed(data)), "model": body["model"],
                             "usage": {"prompt_tokens": 3, "total_tokens": 3}})

    def _chat(self, step, body):
        content, finish = (json.dumps(step), "stop") if isinstance(step, dict) else CHAT_STEPS[step]
        self._send(200, chat_completion(content, body["model"], finish))

    def _error(self, status: int):
        headers = {"Retry-After": self.server.retry_after} if status == 429 and self.server.retry_after else {}
        kind = {401: "invalid_request_error", 403: "permission_denied", 429: "rate_limit"}.get(status, "server_error")
        self._send(status, {"error": {"message": "boom", "type": kind}}, headers)

    def _send(self, status, payload=None, headers=None, raw=None):
        data = raw if raw is not None else json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting ("sleep"); nobody to answer
            pass

    def log_message(self, *args):
        """Quiet."""


def chat_completion(content: str, model: str, finish_reason: str = "stop") -> dict:
    """A chat completion body as the OpenAI API answers it."""
    prompt, completion = 40, max(1, len(content) // 4)
    return {"id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion}}


@pytest.fixture(name="openai_server")
def loopback_openai():
    """A fresh loopback OpenAI server for one test (named apart from its fixture so that importing it shadows
    nothing)."""
    with serving(OpenAIServer()) as server:
        yield server
