"""Platform sessions at rest (not personal-data sealing, which is core.personal's): stored under the hash of their id,
their tokens sealed with a key made from that id.

The random id of a platform session is held by the person's browser alone (in the session and remember-me
cookies). The database keeps its SHA-256, as it keeps only the hashes of API keys, and the tokens encrypted and
authenticated (Fernet: AES-128-CBC with HMAC-SHA256) under a key derived from the id. So a copy of the database, or
the driver's own DEBUG log of the documents it reads and writes, shows no token anyone could use, and a session can
only be read by the request that holds its id.
"""
from __future__ import annotations

import base64
import hashlib
import hmac

from cryptography.fernet import Fernet, InvalidToken

PURPOSE = b"listener-segmentation platform tokens v1"


def storage_id(session_id: str) -> str:
    """What a session is stored under: the SHA-256 of its id, in hex."""
    return hashlib.sha256(session_id.encode()).hexdigest()


def seal(session_id: str, text: str) -> str:
    """The text encrypted and authenticated under the session's key."""
    return _fernet(session_id).encrypt(text.encode()).decode()


def unseal(session_id: str, sealed: str | None) -> str | None:
    """The text sealed under the session's key; None when it was sealed under another, or altered."""
    try:
        return _fernet(session_id).decrypt((sealed or "").encode()).decode()
    except (InvalidToken, ValueError):
        return None


def _fernet(session_id: str) -> Fernet:
    key = hmac.new(session_id.encode(), PURPOSE, hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(key))
