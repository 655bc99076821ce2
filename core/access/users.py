"""Local dashboard accounts: hashed passwords, the companies each user may see."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from core.access.models import User
from core.errors import Conflict

PBKDF2_ROUNDS = 240_000


def hash_password(password: str) -> str:
    """A salted PBKDF2-SHA256 hash in the form pbkdf2_sha256$rounds$salt$digest."""
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, PBKDF2_ROUNDS)
    return "$".join(["pbkdf2_sha256", str(PBKDF2_ROUNDS), base64.b64encode(salt).decode(),
                     base64.b64encode(digest).decode()])


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
    email = email.strip().lower()
    if User.objects(email=email).first():
        raise Conflict(f"A user with email {email} already exists")
    if len(password) < 8:
        raise ValueError("password must have at least 8 characters")
    return User(email=email, password_hash=hash_password(password), companies=sorted(set(companies)),
                admin=admin, name=name).save()


def verify_login(email: str, password: str) -> User | None:
    """The user when the password matches, else None (same answer for unknown email and wrong password)."""
    user = User.objects(email=(email or "").strip().lower()).first()
    if user is None or not password_matches(user.password_hash, password or ""):
        return None
    return user


def get_user(user_id: str) -> User | None:
    """A user by id, None if gone."""
    return User.objects(id=user_id).first()
