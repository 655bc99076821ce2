"""Local dashboard accounts: hashed passwords, the companies each user may see, and the version of their sessions
(signing out raises it, which ends every session and remember-me cookie signed in before)."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from core.access.models import User
from core.errors import Conflict

PBKDF2_ROUNDS = 240_000


def _stored_form(salt: bytes, digest: bytes) -> str:
    return "$".join(["pbkdf2_sha256", str(PBKDF2_ROUNDS), base64.b64encode(salt).decode(),
                     base64.b64encode(digest).decode()])


UNKNOWN_ACCOUNT_HASH = _stored_form(bytes(16), bytes(32))
"""What a password is checked against when no account has the email, so that an unknown email costs the same
PBKDF2 work as a wrong password and the answer's timing does not tell which accounts exist."""


def normalise_email(email: str | None) -> str:
    """An email as accounts are stored and looked up: trimmed, lower case."""
    return (email or "").strip().lower()


def hash_password(password: str) -> str:
    """A salted PBKDF2-SHA256 hash in the form pbkdf2_sha256$rounds$salt$digest."""
    salt = secrets.token_bytes(16)
    return _stored_form(salt, hashlib.pbkdf2_hmac("sha256", password.encode(), salt, PBKDF2_ROUNDS))


def password_matches(stored: str, password: str) -> bool:
    """Constant-time check of a password against a stored hash."""
    try:
        _, rounds, salt, digest = stored.split("$")
    except ValueError:
        return False
    candidate = hashlib.pbkdf2_hmac("sha256", password.encode(), base64.b64decode(salt), int(rounds))
    return hmac.compare_digest(candidate, base64.b64decode(digest))


def create_user(email: str, password: str, companies: list[int], admin: bool = False, name: str = "") -> User:
    """Create an account; Conflict if the email is taken."""
    email = normalise_email(email)
    if User.objects(email=email).first():
        raise Conflict(f"A user with email {email} already exists")
    if len(password) < 8:
        raise ValueError("password must have at least 8 characters")
    return User(email=email, password_hash=hash_password(password), companies=sorted(set(companies)),
                admin=admin, name=name).save()


def verify_login(email: str, password: str) -> User | None:
    """The user when the password matches, else None: the same answer, after the same work, for an unknown email and
    a wrong password."""
    user = User.objects(email=normalise_email(email)).first()
    matches = password_matches(user.password_hash if user else UNKNOWN_ACCOUNT_HASH, password or "")
    return user if user is not None and matches else None


def get_user(user_id: str) -> User | None:
    """A user by id, None if gone."""
    return User.objects(id=user_id).first()


def session_user(user_id: str, session_version: int) -> User | None:
    """The user a session belongs to, None when the account is gone or its sessions were ended since."""
    user = get_user(user_id)
    return user if user is not None and user.session_version == session_version else None


def end_sessions(user_id: str) -> None:
    """End every session of the user, on every device: those signed in before no longer match (session_user)."""
    User.objects(id=user_id).update_one(inc__session_version=1)
