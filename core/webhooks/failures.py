"""What went wrong with a delivery, in words an operator can act on ("the host name hooks.example.invalid could not
be found", "connection refused by hooks.example.com:443", "the endpoint answered 500 (Internal Server Error)"), never
an exception's class name. The one home of these words: the delivery log, the webhooks page's last delivery (which
is how the test button's outcome is shown) and the worker's log line all read what delivery stores from here."""
from __future__ import annotations

import errno
import http.client
import socket
import ssl
from http import HTTPStatus
from urllib.parse import urlsplit

_UNREACHABLE = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EADDRNOTAVAIL}
_CLOSED = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError, http.client.RemoteDisconnected)


def answer_in_words(status: int) -> str | None:
    """What the endpoint's answer means when it did not take the events (None for a 2xx, which it did)."""
    if 200 <= status < 300:
        return None
    try:
        phrase = f" ({HTTPStatus(status).phrase})"
    except ValueError:
        phrase = ""
    redirect = ": redirects are not followed, give the final URL" if 300 <= status < 400 else ""
    return f"the endpoint answered {status}{phrase}{redirect}"


def failure_in_words(failure: BaseException, url: str, timeout_s: float) -> str:
    """Why a POST to `url` got no answer, in a sentence without the exception's name."""
    host, port = _host_port(url)
    if isinstance(failure, socket.gaierror):
        if failure.errno == socket.EAI_AGAIN:
            return f"the host name {host} could not be looked up (no name server answered); tried again later"
        return f"the host name {host} could not be found"
    if isinstance(failure, TimeoutError):
        return f"timed out: no answer within {timeout_s:g} s"
    if isinstance(failure, ConnectionRefusedError):
        return f"connection refused by {host}:{port} (nothing listens there)"
    if isinstance(failure, ssl.SSLCertVerificationError):
        return f"the certificate of {host} could not be verified ({failure.verify_message})"
    if isinstance(failure, ssl.SSLError):
        return f"the secure connection to {host}:{port} failed ({failure.reason or 'TLS error'})"
    if isinstance(failure, _CLOSED):
        return f"{host}:{port} closed the connection without answering"
    if isinstance(failure, http.client.HTTPException):
        return f"{host}:{port} answered something that is not HTTP"
    if isinstance(failure, OSError) and failure.errno in _UNREACHABLE:
        return f"{host}:{port} could not be reached (no route to it from this server)"
    reason = failure.strerror if isinstance(failure, OSError) and failure.strerror else "no reason given"
    return f"the connection to {host}:{port} failed ({reason.rstrip('.').lower()})"


def _host_port(url: str) -> tuple[str, int]:
    """The URL's host and port as a delivery reaches them (the scheme's port when none is given)."""
    try:
        parts = urlsplit(url)
        return parts.hostname or url, parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return url, 0
