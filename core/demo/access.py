"""The demo login and API key that `make run` prints: created once, reused on every later start."""
from __future__ import annotations

import os
from pathlib import Path

from core.access import api_keys, users
from core.access.models import User

DEMO_EMAIL = "producer@demo.fm"
DEMO_PASSWORD = "listen-to-the-data"


def ensure_demo_access(data_dir: Path, company_id: int) -> tuple[str, str, str]:
    """(login, password, API token) for the demo station; the token is kept in DATA_DIR as only its hash is stored."""
    if not User.objects(email=DEMO_EMAIL).first():
        users.create_user(DEMO_EMAIL, DEMO_PASSWORD, [company_id], name="Demo producer")
    token_file = Path(data_dir) / "demo-api-key"
    token = token_file.read_text().strip() if token_file.exists() else ""
    if not token or not _valid(token):
        _, token = api_keys.create_key([company_id], name="demo (make run)")
        token_file.parent.mkdir(parents=True, exist_ok=True)
        token_file.write_text(token + "\n")
        os.chmod(token_file, 0o600)
    return DEMO_EMAIL, DEMO_PASSWORD, token


def _valid(token: str) -> bool:
    try:
        api_keys.authenticate(token)
        return True
    except Exception:  # noqa: BLE001 - any failure means the stored token is unusable: make a new one
        return False
