"""HTTP to the service processes the tests start, over loopback: one client for the whole session.

`httpx.get` makes a client per call, and each client reads every certificate authority the system trusts (0.18 s of
CPU here): a test polling a starting service ten times a second kept most of a core busy doing that while the
service it waited for needed the core. These URLs are plain http on 127.0.0.1, so the client loads no
authorities; it keeps no connection alive, since the tests kill and restart the servers it talks to."""
from __future__ import annotations

import httpx


def session(**options) -> httpx.Client:
    """A client of its own (its own cookies, for a test that signs in); `options` as httpx.Client's."""
    return httpx.Client(verify=False, limits=httpx.Limits(max_keepalive_connections=0), **options)


CLIENT = session()
get, post = CLIENT.get, CLIENT.post
