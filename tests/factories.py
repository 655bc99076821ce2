"""Test data factories: listeners and their interactions written straight to the stores, as an import would."""
from __future__ import annotations

import io

import gridfs
import numpy as np
from bson import json_util
from bson.binary import UuidRepresentation

from core import personal
from core.clock import utcnow
from core.config import Settings
from core.db.connection import get_db
from core.listeners import finding, sealed_profiles, sealed_writes, snapshot, snapshot_files
from core.listeners.declared import read_listeners
from core.listeners.events import batch_document, write_batches
from core.listeners.models import Listener
from core.stations.companies import ensure_company
from core.stations.models import Company

JSON = json_util.DEFAULT_JSON_OPTIONS.with_options(uuid_representation=UuidRepresentation.STANDARD)
"""How tests dump stored documents as JSON: the key vault's ids are UUIDs (core.personal.vault)."""


def make_company(company_id: int = 1, **fields):
    """A company with defaults, overridden by fields."""
    company = ensure_company(company_id)
    if fields:
        company.update(**{f"set__{k}": v for k, v in fields.items()})
        company.reload()
    return company


def make_listener(company_id: int = 1, originator: str = "27820000001", events: list[dict] = (), **declared):
    """A listener with declared fields (sealed, as an import stores them) and interactions (events from `event`)."""
    make_company(company_id)
    Listener(company_id=company_id, originator=originator, **declared).validate()
    doc = {"company_id": company_id, "originator": originator, "tags": [], "inferred": {}, "created_at": utcnow(),
           **declared}
    sealed_writes.insert(company_id, [doc])
    if events:
        add_interactions(company_id, originator, events)


class Stored(dict):
    """A stored document as readers see it, its fields also as attributes; an absent field reads None, as on a
    mongoengine document."""

    def __missing__(self, name: str):
        return None

    def __getattr__(self, name: str):
        return self.get(name)


def stored_listener(company_id: int, originator: str) -> Stored:
    """The listener's document as readers see it (its sealed fields opened); DoesNotExist when there is none."""
    found = sealed_profiles.read(company_id, [originator])
    if not found:
        raise Listener.DoesNotExist(originator)
    return Stored(found[0])


def stored_before_keys(company_id: int) -> None:
    """Make the station one whose stores may hold plain originators, as one made before keys (until `encrypt`)."""
    make_company(company_id, originators_keyed=False)
    finding.forget()


def raw_listener(company_id: int, originator: str) -> dict | None:
    """The listener's document as the database holds it: sealed, under the key of its originator."""
    return Listener._get_collection().find_one({"company_id": company_id,
                                                "originator": personal.key_of(company_id, originator)})


def stored_listeners(company_id: int) -> list[dict]:
    """Every listener of the station as readers see them, in originator order."""
    return sorted(read_listeners(company_id, projection={"_id": 0}), key=lambda doc: doc["originator"])


def set_fields(company_id: int, originator: str, **fields) -> None:
    """Change some of a listener's fields as the service's writers do (sealed again); None unsets one."""
    sealed_writes.edit(company_id, {originator: lambda _: fields})


def add_interactions(company_id: int, originator: str, events: list[dict], import_id: str = "factory") -> None:
    """One more batch of interactions (events from `event`) for the listener, as a live batch would store them (its
    messages sealed in the station's open group)."""
    write_batches([batch_document(
        company_id, originator, import_id, [int(e["t"].timestamp() * 1000) for e in events],
        [e["channel"] for e in events], [e["campaign"] for e in events], [e["timeslot"] for e in events],
        [e["message"] for e in events],
        [f"{import_id}:{i}:{e['t'].isoformat()}" for i, e in enumerate(events)])], live=True)


def plain_snapshot_file(company_id: int = 1):
    """The company's current snapshot written again as files were before sealing (a plain npz, its vocabulary in the
    metadata) and made current; returns its id."""
    old = snapshot.current(company_id)
    buffer = io.BytesIO()
    np.savez(buffer, **old.cols)
    metadata = {"company_id": company_id, "vocab": {k: list(v) for k, v in old.vocab.items()}, "meta": old.meta}
    file_id = gridfs.GridFSBucket(get_db(), snapshot_files.BUCKET).upload_from_stream(
        f"company-{company_id}", buffer.getvalue(), metadata=metadata)
    Company.objects(company_id=company_id).update(set__snapshot_file=file_id, inc__data_version=1)
    snapshot.clear_cache()
    return file_id


def deployment_apart(tmp_path) -> Settings:
    """Core started on a data server of its own (DATA_DIR tmp_path/data) with its key vault on another server
    (tmp_path/vault), as production keeps them; the caller stops both (`embedded.stop` of each directory)."""
    from core.db import embedded
    from core.service import startup

    vault_dir, data_dir = tmp_path / "vault", tmp_path / "data"
    vault_dir.mkdir()
    data_dir.mkdir()
    settings = Settings.from_env({"DATA_DIR": str(data_dir), "SECRET_KEY": "test-secret", "AUTO_EMBED": "false",
                                  "KEY_VAULT_URI": embedded.ensure_running(vault_dir)})
    startup.start(settings)
    return settings
