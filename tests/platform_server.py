"""A loopback HTTP server playing the campaign platform: its OAuth 2.0 token endpoint (POST /oauth2/access_token/)
and its campaigns (GET /collate/campaigns/), so that core.access.platform is tested through real HTTP.

The token endpoint checks what a real one checks: the client id and secret, a user's password (`server.users`), a
refresh token it issued and has not rotated away since. Each grant issues fresh tokens (the old ones stop working)
that expire in `server.expires_in` seconds. The campaigns endpoint wants a current access token as a Bearer.

Each request to an endpoint plays the next step of that endpoint's script, `server.script["token"]` or
`server.script["campaigns"]` (the last step repeats):
- "ok": the good answer (campaigns: `server.campaigns`, as one list, or in pages of `server.page_size` with `next`);
- "invalid_grant": 400 with the OAuth error `invalid_grant`, whatever was asked;
- "sleep": waits `server.sleep_s` (1.5 s, longer than the tests' timeout of 0.5 s), then answers "ok";
- "garbage": a 200 whose body is not JSON; "missing": a 200 JSON object without the fields it should have;
- "loop": (campaigns) a page whose `next` is itself; "elsewhere": a page whose `next` is on another host;
- a status such as "500", "401": that status with a JSON error.

Every request is kept in `server.requests` with its form fields, so that a test can assert what was sent.
A test module uses the fixtures by importing them: `from tests.platform_server import loopback_platform,
platform_settings  # noqa: F401`; `configured_platform` is the server with the service's settings pointing at it
(and a client timeout of 0.5 s).
"""
from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import replace
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import NamedTuple
from urllib.parse import parse_qs, urlsplit

import pytest

from core.config import activate, active
from tests.loopback import serving

CLIENT_ID, CLIENT_SECRET = "lss-dashboard", "client-secret-7f3a"
USER, PASSWORD = "naledi@agency.co.za", "platform-pass-2026"


class Request(NamedTuple):
    """One request as the server received it; `headers` look names up case-insensitively."""

    method: str
    path: str
    query: dict
    headers: Message
    form: dict


def campaign(**overrides) -> dict:
    """A campaign as the platform lists it, of station 1 unless told otherwise."""
    return {"id": 101, "name": "Summer gospel concert", "company_id": 1, "start_date": "2026-12-01",
            "end_date": "2026-12-14", "status": "Live", "advertiser": "Joyous Sounds",
            "description": "A gospel concert in Durban, on air 1-14 December. Reach women aged 25 to 44 who listen on "
                           "Sunday mornings. Budget R50,000.",
            "budget": 50000, "currency": "ZAR", "objective": "Sell 2,000 tickets", **overrides}


class PlatformServer(ThreadingHTTPServer):
    """The server and what a test sets and reads: `script`, `campaigns`, `page_size`, `expires_in`, `users`,
    `requests`, `sleep_s`, `url`, and the tokens it issued (`issued`)."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), FakePlatform)
        self.script: dict[str, list] = {"token": ["ok"], "campaigns": ["ok"]}
        self.campaigns: list = [campaign()]
        self.page_size: int | None = None
        self.expires_in: int | str = 3600
        self.users = {USER: PASSWORD}
        self.requests: list[Request] = []
        self.sleep_s = 1.5
        self.issued: list[dict] = []  # every grant's answer, newest last
        self.access: set[str] = set()
        self.refresh: dict[str, str] = {}  # refresh token -> its user
        self._count = {"token": 0, "campaigns": 0}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def next_step(self, endpoint: str, request: Request):
        """Record the request and the step it plays (under a lock: the server answers requests in threads)."""
        with _lock:
            self.requests.append(request)
            self._count[endpoint] += 1
            steps = self.script[endpoint]
            return steps[min(self._count[endpoint], len(steps)) - 1]

    def of(self, endpoint: str) -> list[Request]:
        """The requests made to one endpoint ("token" or "campaigns")."""
        return [r for r in self.requests if r.path == {"token": TOKEN, "campaigns": CAMPAIGNS}[endpoint]]

    def issue(self, user: str) -> dict:
        """Fresh tokens for the user; the tokens issued before stop working."""
        with _lock:
            self.access.clear()
            self.refresh = {}
            answer = {"access_token": "acc-" + secrets.token_hex(12), "refresh_token": "ref-" + secrets.token_hex(12),
                      "expires_in": self.expires_in, "scope": "read write", "token_type": "Bearer"}
            self.access.add(answer["access_token"])
            self.refresh[answer["refresh_token"]] = user
            self.issued.append(answer)
            return answer


_lock = threading.Lock()
TOKEN, CAMPAIGNS = "/oauth2/access_token/", "/collate/campaigns/"


class FakePlatform(BaseHTTPRequestHandler):
    """Answers as the server's script says."""

    def do_POST(self):  # noqa: N802 - the name http.server calls
        length = int(self.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        request = Request("POST", urlsplit(self.path).path, {}, self.headers, form)
        if request.path != TOKEN:
            return self._send(404, {"detail": "Not found."})
        step = self._common(self.server.next_step("token", request))
        if step == "ok":
            self._grant(form)

    def do_GET(self):  # noqa: N802 - the name http.server calls
        parts = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        request = Request("GET", parts.path, query, self.headers, {})
        if request.path != CAMPAIGNS:
            return self._send(404, {"detail": "Not found."})
        step = self._common(self.server.next_step("campaigns", request))
        if step in ("ok", "loop", "elsewhere"):
            self._campaigns(step, int(query.get("page", 1)))

    def _common(self, step):
        """Plays the steps both endpoints share; returns the step when it is the endpoint's own to play."""
        if step == "sleep":
            time.sleep(self.server.sleep_s)
            return "ok"
        if step == "invalid_grant":
            self._send(400, {"error": "invalid_grant", "error_description": "Invalid credentials given."})
        elif step == "garbage":
            self._send(200, raw=b"<html>{not json")
        elif step == "missing":
            self._send(200, {"token_type": "Bearer", "detail": "ok"})
        elif isinstance(step, str) and step.isdigit():
            self._send(int(step), {"error": "server_error" if step.startswith("5") else "invalid_client"})
        else:
            return step
        return None

    def _grant(self, form: dict):
        if (form.get("client_id"), form.get("client_secret")) != (CLIENT_ID, CLIENT_SECRET):
            return self._send(401, {"error": "invalid_client"})
        if form.get("grant_type") == "password":
            user = form.get("username")
            if self.server.users.get(user) != form.get("password"):
                return self._send(400, {"error": "invalid_grant", "error_description": "Invalid credentials given."})
        elif form.get("grant_type") == "refresh_token":
            user = self.server.refresh.get(form.get("refresh_token"))
            if user is None:
                return self._send(400, {"error": "invalid_grant", "error_description": "Invalid refresh token."})
        else:
            return self._send(400, {"error": "unsupported_grant_type"})
        self._send(200, self.server.issue(user))

    def _campaigns(self, step: str, number: int):
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        if token not in self.server.access:
            return self._send(401, {"detail": "Authentication credentials were not provided."})
        everything, size = self.server.campaigns, self.server.page_size
        if step == "ok" and size is None:
            return self._send(200, everything)
        size = size or 1
        last = max(1, -(-len(everything) // size))
        following = f"{self.server.url}{CAMPAIGNS}?page={number + 1}" if number < last else None
        if step == "loop":
            following = f"{self.server.url}{CAMPAIGNS}?page={number}"
        elif step == "elsewhere":
            following = f"http://platform.example.net{CAMPAIGNS}?page=2"
        self._send(200, {"count": len(everything), "next": following, "previous": None,
                         "results": everything[(number - 1) * size:number * size]})

    def _send(self, status, payload=None, raw=None):
        data = raw if raw is not None else json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up waiting ("sleep"); nobody to answer
            pass

    def log_message(self, *args):
        """Quiet."""


@pytest.fixture(name="platform_server")
def loopback_platform():
    """A fresh loopback campaign platform for one test (named apart from its fixture so that importing it shadows
    nothing)."""
    with serving(PlatformServer()) as server:
        yield server


TIMEOUT_S = 0.5


@pytest.fixture(name="configured_platform")
def platform_settings(app, platform_server):
    """The loopback platform, with the active settings naming it as AUTH_URL and PLATFORM_URL, this service's client
    id and secret, and a timeout of TIMEOUT_S; the settings of before are restored after the test."""
    previous = active()
    activate(replace(previous, auth_url=platform_server.url, platform_url=platform_server.url,
                     platform_client_id=CLIENT_ID, platform_client_secret=CLIENT_SECRET, platform_timeout_s=TIMEOUT_S))
    yield platform_server
    activate(previous)
