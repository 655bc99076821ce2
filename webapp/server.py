"""The HTTP server's door: gunicorn's threaded worker, reading a request line of up to webapp.limits.MAX_REQUEST_LINE
bytes (gunicorn caps its own bound at 8,190, too short for a filter with many values) and no more, and answering every
request it refuses before the app could read it (a line or headers past their bound, a line that is not HTTP) through
the app's own error handlers: JSON under /api/, a page elsewhere.

The bound is the server's because only the server can keep it cheap: gunicorn reads a line by copying what it has read
so far at every read, so a line without a bound costs time in the square of its length (a 20 MB line kept a worker
busy for 42 s). Stopping at the bound, a line of any length costs what its first 32 KB cost to read. gunicorn.conf.py
names this worker; `make run` and the deployment's unit both read that file.
"""
from __future__ import annotations

import errno
import logging
from urllib.parse import quote

from gunicorn.http.errors import (
    ExpectationFailed,
    ForbiddenProxyRequest,
    LimitRequestHeaders,
    LimitRequestLine,
    ParseException,
    UnsupportedTransferCoding,
)
from gunicorn.http.message import Request
from gunicorn.http.parser import RequestParser
from gunicorn.workers.gthread import TConn, ThreadWorker
from werkzeug.test import EnvironBuilder

from webapp.limits import MAX_REQUEST_LINE, REFUSED

log = logging.getLogger("gunicorn.error")

TARGET_READ = 2_048
"""How much of a refused request's target is kept to tell whose it is (an /api/ path or a page)."""
STATUS_OF = {LimitRequestLine: 414, LimitRequestHeaders: 431, UnsupportedTransferCoding: 501, ExpectationFailed: 417,
             ForbiddenProxyRequest: 403}
"""The status of each refusal of gunicorn's parser that is not a plain 400 (as gunicorn itself answers them)."""


class BoundedRequest(Request):
    """A request whose line may be MAX_REQUEST_LINE bytes long, and whose refusals say which path they refused."""

    def read_line(self, unreader, buf, limit=0):
        """The request line, read up to MAX_REQUEST_LINE and never further, whatever gunicorn's own cap says."""
        try:
            return super().read_line(unreader, buf, MAX_REQUEST_LINE)
        except LimitRequestLine as exc:
            exc.target = target_of(bytes(buf[:TARGET_READ]))
            raise

    def parse(self, unreader):
        """gunicorn's parse; a refusal carries the path read so far (the headers' refusals come after the line)."""
        try:
            return super().parse(unreader)
        except ParseException as exc:
            if getattr(exc, "target", None) is None:
                exc.target = self.path
            raise


class BoundedConn(TConn):
    """A connection whose HTTP/1 requests are BoundedRequests (gunicorn's TConn makes its parser in init)."""

    def init(self):
        super().init()
        if isinstance(self.parser, RequestParser):
            self.parser.mesg_class = BoundedRequest


class BoundedWorker(ThreadWorker):
    """gunicorn's gthread worker with BoundedRequest, and the app's own answer to what the server refuses."""

    def accept(self, listener):
        """gthread's accept, with a BoundedConn for the connection."""
        try:
            client_sock, client_addr = listener.accept()
            self.nr_conns += 1
            client_sock.setblocking(True)
            self.enqueue_req(BoundedConn(self.cfg, client_sock, client_addr, listener.getsockname()))
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise

    def handle_error(self, req, client, addr, exc):
        """A request refused while it was parsed is answered by the app (webapp.limits); anything else as gunicorn
        answers it."""
        status = refusal_status(exc) if isinstance(exc, ParseException) else None
        if status is None:
            return super().handle_error(req, client, addr, exc)
        log.warning("Refused a request from ip=%s: %s (%s)", (addr or ("",))[0], status, type(exc).__name__)
        try:
            client.sendall(self.app_answer(status, getattr(exc, "target", None)))
        except OSError:
            log.debug("Failed to send a refusal.")
        except Exception:  # noqa: BLE001 - the app could not answer: gunicorn's own page is better than none
            log.exception("The app could not answer a refusal")
            super().handle_error(req, client, addr, exc)

    def app_answer(self, status: int, target: str | None) -> bytes:
        """The whole HTTP answer the app gives to a request for `target` that the server refused with `status`."""
        environ = EnvironBuilder(path=target or "/", method="GET").get_environ()
        environ[REFUSED] = status
        said: list = []
        body = b"".join(self.wsgi(environ, lambda line, headers, exc_info=None: said.extend((line, headers))))
        line, headers = said
        head = [f"HTTP/1.1 {line}"] + [f"{name}: {value}" for name, value in headers if name.lower() != "connection"]
        return ("\r\n".join([*head, "Connection: close", "", ""])).encode("latin-1") + body


def refusal_status(error: ParseException) -> int:
    """The status the server answers a request it could not parse with."""
    return next((status for kind, status in STATUS_OF.items() if isinstance(error, kind)), 400)


def target_of(start: bytes) -> str | None:
    """The path of a request line's first bytes (`GET /api/v1/x?...`), quoted as a WSGI path is; None when those
    bytes hold no path."""
    method, _, rest = start.partition(b" ")
    path = rest.split(b" ", 1)[0].split(b"?", 1)[0].split(b"#", 1)[0]
    if not method or not path.startswith(b"/"):
        return None
    return quote(path.decode("latin-1"), safe="/%:@!$&'()*+,;=-._~")
