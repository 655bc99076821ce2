"""Requests this service makes to other services (the campaign platform, the AI and embedding APIs, webhook
receivers, the mail server) share one TLS context per process.

Making one reads every certificate authority the system trusts: 0.18 s of CPU here, which each new HTTP client paid
again (an AI answer, a platform call, a webhook delivery, a mail). The context holds no connection and no secret, so
sharing it across threads and requests changes nothing but that cost.
"""
from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The system's default context (its certificate authorities, host names checked), made once."""
    return ssl.create_default_context()


def http_client(**options) -> httpx.Client:
    """An httpx client that checks certificates against `tls_context()`; `options` as httpx.Client's."""
    return httpx.Client(verify=tls_context(), **options)
