"""The local master key that wraps every data key of the key vault (core.personal.vault): from the environment, or a
file under DATA_DIR made on first use. It is never stored in the database: whoever holds it and a copy of the vault can
read what the vault's keys sealed.
"""
from __future__ import annotations

import base64
import os
from pathlib import Path

from core.config import StartRefused

MASTER_KEY_BYTES = 96  # what libmongocrypt's local provider takes
MASTER_KEY_FILE = "master.key"


class MasterKeyError(StartRefused):
    """The master key is missing, unreadable or of the wrong length: nothing personal can be read or written."""


def master_key(env_value: str | None, data_dir: Path) -> bytes:
    """The local master key: MASTER_KEY (base64 of 96 bytes) when set, else DATA_DIR's key file, made on first use
    readable by its owner only. A key file outside the database's backups is what an operator keeps safe."""
    if env_value:
        try:
            key = base64.b64decode(env_value, validate=True)
        except ValueError:
            raise MasterKeyError(f"MASTER_KEY is not base64: set it to the base64 of {MASTER_KEY_BYTES} random bytes, "
                                 "or unset it to use DATA_DIR/master.key.") from None
        return _checked(key, "MASTER_KEY")
    path = data_dir / MASTER_KEY_FILE
    try:
        if not path.exists():
            _create_key_file(path)
        return _checked(path.read_bytes(), str(path))
    except OSError as error:
        raise MasterKeyError(f"The master key file {path} cannot be read or written ({error.strerror}); make it "
                             "readable by the service, or set MASTER_KEY.") from None


def check_master_key(env_value: str | None, data_dir: Path) -> None:
    """MasterKeyError when MASTER_KEY, or DATA_DIR's key file if there is one, is not a master key; makes no file
    (the first key the vault makes does), so that a check before any start writes nothing."""
    if env_value or os.path.lexists(data_dir / MASTER_KEY_FILE):
        master_key(env_value, data_dir)


def _checked(key: bytes, where: str) -> bytes:
    if len(key) != MASTER_KEY_BYTES:
        raise MasterKeyError(f"{where} holds {len(key)} bytes where a master key is {MASTER_KEY_BYTES}: it is not "
                             "a master key of this service.")
    return key


def _create_key_file(path: Path) -> None:
    """Write a new random key, readable by its owner only; a process that loses the race keeps the winner's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "wb") as file:
        file.write(os.urandom(MASTER_KEY_BYTES))
        file.flush()
        os.fsync(file.fileno())
