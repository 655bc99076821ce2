"""Loopback HTTP servers that play another service in tests (tests.openai_server, tests.platform_server): each is
served on a thread of its own for the length of one test."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer


@contextmanager
def serving(server: ThreadingHTTPServer) -> Iterator[ThreadingHTTPServer]:
    """The server answering on its own thread until the block ends, then shut and its socket closed."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
