"""The snapshot columns that name nobody, shared by the processes of a host. Each snapshot file's columns are
written once under DATA_DIR/snapshots as .npy files. Each process reads them as copy-on-write memory maps, so a
host's workers share one copy of a station's columns in the page cache instead of one copy each.

Columns that name a listener (the number, and the text columns: names, e-mails) are never written here. They stay
in each process's own memory, read from MongoDB as before, so an erasure leaves nothing to reach on a host's disk.

A live batch that writes rows in place copies only the pages it touches. A batch that brings a new listener copies
the whole snapshot (core.listeners.snapshot.splice), which then stays private to that process until the next
published file is mapped again.
"""
from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import numpy as np

from core.clock import utcnow
from core.config import active
from core.listeners.columns import KINDS

PERSONAL = frozenset(("originator", *KINDS["text"]))
STALE_WRITE_S = 3600
"""After this long, a half-written copy is a dead process's leftover, and any pruning process removes it."""


def columns(company_id: int, file_id, arrays) -> dict[str, np.ndarray]:
    """The columns of the snapshot file `file_id`, whose npz is open as `arrays`. Personal columns are read from
    `arrays`. The others are mapped from the host's copy, which is written first if the host has none. If the disk
    cannot take the copy, every column is read into memory, as before."""
    folder = _folder(company_id, file_id)
    shared = [name for name in arrays.files if name not in PERSONAL and _size(arrays, name)]
    mapped = _mapped(folder, arrays, shared)
    if mapped is None:
        _discard(folder)  # a copy that does not match the file (torn, or of another database) is written again
        mapped = _mapped(folder, arrays, shared) if _written(folder, arrays, shared) else None
    if mapped is not None:
        _prune(company_id, keep=folder)
    mapped = mapped or {}
    return {name: mapped[name] if name in mapped else arrays[name] for name in arrays.files}


def _folder(company_id: int, file_id) -> Path:
    return Path(active().data_dir) / "snapshots" / f"company-{company_id}-{file_id}"


def _header(arrays, name: str) -> tuple[tuple, np.dtype]:
    """A column's shape and dtype, read from its npy header without reading its data."""
    with arrays.zip.open(f"{name}.npy") as member:
        version = np.lib.format.read_magic(member)
        read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read(member)
    return shape, dtype


def _size(arrays, name: str) -> int:
    """How many values a column holds. An empty column cannot be mapped, so it stays in memory."""
    return int(np.prod(_header(arrays, name)[0]))


def _mapped(folder: Path, arrays, names: list[str]) -> dict[str, np.ndarray] | None:
    """The host's copy of these columns as copy-on-write maps. None when the copy is missing or does not match the
    file: each column must have the shape and dtype the file gives it."""
    if not folder.is_dir():
        return None
    try:
        mapped = {name: np.load(folder / f"{name}.npy", mmap_mode="c", allow_pickle=False) for name in names}
    except (OSError, ValueError):
        return None
    if any((array.shape, array.dtype) != _header(arrays, name) for name, array in mapped.items()):
        return None
    return mapped


def _written(folder: Path, arrays, names: list[str]) -> bool:
    """Write the columns into a temporary folder, sync each file, then rename the folder into place. Readers
    therefore see a whole copy or none. If another process renamed its copy first, that copy is kept."""
    temporary = folder.with_name(f"{folder.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        temporary.mkdir(parents=True)
        for name in names:
            with open(temporary / f"{name}.npy", "wb") as out:
                np.save(out, arrays[name], allow_pickle=False)
                out.flush()
                os.fsync(out.fileno())
        os.rename(temporary, folder)
    except OSError:
        shutil.rmtree(temporary, ignore_errors=True)
        return folder.is_dir()
    return True


def _discard(folder: Path) -> None:
    """Move a copy aside, then delete it. A process that mapped it keeps reading it."""
    if folder.is_dir():
        aside = folder.with_name(f"{folder.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
        try:
            os.rename(folder, aside)
        except OSError:
            return
        shutil.rmtree(aside, ignore_errors=True)


def _prune(company_id: int, keep: Path) -> None:
    """Remove the host's copies of the station's other files. A process that still maps one keeps reading it: an
    unlinked file lives on while it is mapped. Another process's half-written copy is left alone until it is stale."""
    now = utcnow().timestamp()  # against files' modification times
    for other in keep.parent.glob(f"company-{company_id}-*"):
        if other == keep:
            continue
        try:
            if other.name.endswith(".tmp") and now - other.stat().st_mtime < STALE_WRITE_S:
                continue
        except OSError:
            continue
        shutil.rmtree(other, ignore_errors=True)
