"""A loopback webhook receiver for tests: it answers 200, 500, too late, or closes the connection, as told, and
keeps every request it read."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.loopback import serving


class Receiver(ThreadingHTTPServer):
    """The server, what it answers next (`mode`: ok, fail, slow, close) and what it received."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode, self.received, self.lock = "ok", [], threading.Lock()
        self.hold = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hooks"

    def events(self) -> list[dict]:
        """Every event of every request read, in the order they came."""
        return [event for request in self.received for event in json.loads(request["body"])["events"]]


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the standard library's name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        server: Receiver = self.server
        with server.lock:
            server.received.append({"body": body, "headers": dict(self.headers), "mode": server.mode})
        if server.mode == "close":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if server.mode == "slow":
            server.hold.wait(5)
        self.send_response(500 if server.mode == "fail" else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@contextmanager
def receiving() -> Iterator[Receiver]:
    """A receiver on a free loopback port for the length of the block."""
    server = Receiver()
    with serving(server):
        try:
            yield server
        finally:
            server.hold.set()
