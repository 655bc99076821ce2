"""The server's door (issue 47, item 1): gunicorn as `make run` and the deployment start it (gunicorn.conf.py) reads
a request line up to 32 KB and no further, refuses a longer one without waiting for its end, refuses headers past
their bound, and answers each refusal as the app answers every error: JSON with a `detail` under /api/, a page
elsewhere."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from core.db.embedded import free_port
from tests.cli.test_serve_outages import ROOT, env_of, get, wait_for
from webapp.limits import MAX_REQUEST_LINE

pytestmark = [pytest.mark.db, pytest.mark.served]

GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


@pytest.fixture(scope="module")
def base(tmp_path_factory, mongodb_uri):
    """gunicorn with the project's configuration over an empty database of its own, one worker of two threads."""
    data_dir, port = tmp_path_factory.mktemp("bounds") / "data", free_port()
    env = {**env_of(data_dir), "MONGODB_URI": mongodb_uri, "MONGODB_DATABASE": "lss_served_bounds",
           "KEY_VAULT_SHARES_BACKUPS": "yes"}  # the session's server, a production database to the service
    proc = subprocess.Popen([GUNICORN, "--config", str(ROOT / "gunicorn.conf.py"), "--workers", "1", "--threads",
                             "2", "--bind", f"127.0.0.1:{port}", "wsgi:app"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    wait_for(lambda: (r := get(f"{url}/health/live")) is not None and r.status_code == 200, 120, "gunicorn")
    yield port
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)


def exchange(port: int, head: bytes, end: bool = True, timeout: float = 30) -> tuple[int, dict, bytes]:
    """Send a request's head (its final blank line only with `end`) and read the answer: status, headers, body."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(head + (b"\r\n\r\n" if end else b""))
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before all of it was read: the answer is already on its way
        answer = b""
        while not _whole(answer) and (chunk := _received(sock)):
            answer += chunk
    status_line, _, rest = answer.partition(b"\r\n")
    header_block, _, body = rest.partition(b"\r\n\r\n")
    headers = dict(line.decode().split(": ", 1) for line in header_block.split(b"\r\n") if b": " in line)
    return int(status_line.split()[1]), {k.lower(): v for k, v in headers.items()}, body


def _whole(answer: bytes) -> bool:
    """True once the answer holds its head and the Content-Length of body it announced: a request the server read
    is answered on a connection it keeps open (HTTP/1.1), and reading on to its close would wait out gunicorn's
    keep-alive (2 s a request) for nothing. An answer without a length is read to the close."""
    head, found, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"\r\ncontent-length: *(\d+)", head, re.IGNORECASE)
    return bool(found and length and len(body) >= int(length.group(1)))


def _received(sock: socket.socket) -> bytes:
    try:
        return sock.recv(65536)
    except ConnectionResetError:
        return b""


def request_line(path: str, length: int) -> bytes:
    """`GET path?x=... HTTP/1.1` padded to `length` bytes in all."""
    start, end = f"GET {path}?x=".encode(), b" HTTP/1.1"
    return start + b"a" * (length - len(start) - len(end)) + end


def test_a_request_line_of_exactly_the_bound_is_read_and_one_byte_more_is_414(base):
    assert exchange(base, request_line("/health/live", MAX_REQUEST_LINE))[0] == 422  # the app read it: `x` unknown
    assert exchange(base, request_line("/health/live", MAX_REQUEST_LINE + 1))[0] == 414


def test_a_filter_longer_than_gunicorns_own_bound_reaches_the_app(base):
    status, _, body = exchange(base, request_line("/api/v1/segments/1/filter", 20_000) + b"\r\nHost: x")
    assert status == 401, body  # the key check answered: the line was read whole


def test_a_line_too_long_under_the_api_is_a_json_414_naming_the_bound(base):
    status, headers, body = exchange(base, request_line("/api/v1/segments/1/filter", 100_000))
    assert status == 414
    assert headers["content-type"].startswith("application/json")
    assert f"{MAX_REQUEST_LINE:,} bytes" in body.decode()


def test_a_line_too_long_for_a_page_is_a_page(base):
    status, headers, body = exchange(base, request_line("/stations/1/explore", 100_000))
    assert status == 414
    assert headers["content-type"].startswith("text/html")
    assert b"<html" in body and f"{MAX_REQUEST_LINE:,} bytes".encode() in body


def test_a_line_that_never_ends_is_refused_without_waiting_for_its_end(base):
    """16 MB of one line with no end in sight: the answer comes once 32 KB were read (a server without the bound
    would wait for the line's end, and this read would time out)."""
    status, headers, _ = exchange(base, request_line("/api/v1/segments/1/filter", 16 * 2**20), end=False)
    assert status == 414 and headers["content-type"].startswith("application/json")


@pytest.mark.parametrize(("path", "kind"), [("/api/v1/segments/1/summary", "application/json"),
                                            ("/stations/1/explore", "text/html")])
def test_a_header_past_its_bound_is_431_in_the_callers_language(base, path, kind):
    head = f"GET {path} HTTP/1.1\r\nHost: x\r\nCookie: {'c' * 20_000}".encode()
    status, headers, _ = exchange(base, head)
    assert status == 431
    assert headers["content-type"].startswith(kind)


def test_a_line_that_is_not_http_under_the_api_is_a_json_400(base):
    status, headers, _ = exchange(base, b"GET /api/v1/segments/1/summary HTTP/1.1 and more\r\nHost: x")
    assert status == 400
    assert headers["content-type"].startswith("application/json")


def test_an_encoded_slash_in_an_api_path_is_answered_in_json_after_the_key_check(base):
    status, headers, _ = exchange(base, b"GET /api/v1/segments/1%2F/summary HTTP/1.1\r\nHost: x")
    assert status == 401
    assert headers["content-type"].startswith("application/json")
