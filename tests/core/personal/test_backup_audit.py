"""An auditor's check of erasure by key destruction (the listeners' personal fields, the interactions' messages and
the snapshot files): the key vault runs on a server of its own, as docs/operations.md's deployment asks; the data
server's files are copied (a backup) before an erasure; afterwards the copy, restored on a server of its own and read
with the live vault, yields none of the listener's fields or messages and no snapshot, nor do any files hold them or
any listener's number as text, while another listener's, sealed apart, still read from the same copy."""
from __future__ import annotations

import shutil

import gridfs
import pytest
from pymongo import MongoClient

from core.db import embedded
from core.ingest.importer import import_rows
from core.listeners import snapshot_files
from core.personal import originator_keys
from core.personal.vault import cipher, decrypted
from core.personal.vault_connection import key_vault
from core.privacy.erasure import erase_listener
from core.segmentation.runs import segment_company
from core.service import startup
from tests.factories import deployment_apart
from tests.memory import NOW

pytestmark = pytest.mark.db

ERASED, KEPT, GROUPED = "27821234567", "27829876543", "27825550001"
SAID = {ERASED: "Please play Jerusalema for my gogo Nomvula", KEPT: "Traffic on the N3 near Harrismith",
        GROUPED: "Load shedding again in Soweto"}
NAMES = {ERASED: "Thandeka Zungu-Mahlangu", KEPT: "Sipho Ndlovu-Khumalo", GROUPED: "Lerato Mokoena-Dube"}


def profile(originator: str) -> dict:
    return {"company_id": 1, "originator": originator, "name": NAMES[originator],
            "email": f"{NAMES[originator].split()[0].lower()}@example.org", "location": "Umlazi"}


def interaction(originator: str) -> dict:
    return {"company_id": 1, "originator": originator, "timestamp": NOW.replace(hour=7).isoformat(),
            "channel_type": 2, "campaign_type": "song_request", "message": SAID[originator]}


@pytest.fixture
def deployment(_app, tmp_path):
    """Core on a data server of its own, with its key vault on another server."""
    settings = deployment_apart(tmp_path)
    yield settings
    embedded.stop(settings.data_dir)
    embedded.stop(tmp_path / "vault")
    startup.start(_app.config["SETTINGS"])


def backup(settings, into) -> None:
    """Copy the data server's files, as a file-level backup does (the server stopped for a consistent copy)."""
    embedded.stop(settings.data_dir)
    shutil.copytree(settings.data_dir / embedded.STORAGE, into / embedded.STORAGE)
    startup.start(settings)


def text_in_files(root, texts) -> set[str]:
    blobs = b"".join(path.read_bytes() for path in root.rglob("*") if path.is_file())
    return {text for text in texts if text.encode() in blobs}


def opened_from(db, originator: str) -> list:
    """The messages of a listener's batches in a copy of the database, read as an auditor would: each batch's group
    key document from the copy, unsealed by the live vault."""
    found = []
    for batch in db.interactions.find({"company_id": 1, "originator": originator_keys.key_of(1, originator)}):
        key_doc = db.message_keys.find_one({"_id": batch["message_group"]})
        content_key = key_vault().open_content_keys([key_doc["key"]])[0]
        found.append(None if content_key is None else decrypted(cipher(content_key), batch["sealed_messages"],
                                                                 batch["message_group"].binary))
    return found


def profile_from(db, originator: str) -> bytes | None:
    """A listener's sealed fields in a copy of the database, read as an auditor would (see `opened_from`)."""
    doc = db.listeners.find_one({"company_id": 1, "originator": originator_keys.key_of(1, originator)})
    key_doc = db.profile_keys.find_one({"_id": doc["profile_group"]})
    content_key = key_vault().open_content_keys([key_doc["key"]])[0]
    return None if content_key is None else decrypted(cipher(content_key), doc["profile"],
                                                      doc["profile_group"].binary)


def test_a_backup_taken_before_an_erasure_yields_nothing_of_the_listener_afterwards(deployment, tmp_path):
    import_rows("profiles", enumerate([profile(ERASED), profile(GROUPED)], 1), now=NOW, resegment=False)
    import_rows("profiles", enumerate([profile(KEPT)], 1), now=NOW, resegment=False)
    import_rows("interactions", enumerate([interaction(ERASED), interaction(GROUPED)], 1), now=NOW, resegment=False)
    import_rows("interactions", enumerate([interaction(KEPT)], 1), now=NOW, resegment=False)
    segment_company(1, NOW)
    backup(deployment, tmp_path / "backup")
    erase_listener(1, ERASED, "test-secret")

    restored = MongoClient(embedded.ensure_running(tmp_path / "backup"), uuidRepresentation="standard")
    try:
        db = restored[deployment.database_name]
        assert opened_from(db, ERASED) == [None]
        assert opened_from(db, GROUPED) == [None]  # sealed with the erased listener: its copy went with the key
        assert [m is not None and SAID[KEPT].encode() in m for m in opened_from(db, KEPT)] == [True]
        assert profile_from(db, ERASED) is None
        assert profile_from(db, GROUPED) is None
        assert NAMES[KEPT].encode() in profile_from(db, KEPT)
        files = list(db[f"{snapshot_files.BUCKET}.files"].find())
        assert len(files) == 1
        with pytest.raises(LookupError):
            stored = gridfs.GridFSBucket(db, snapshot_files.BUCKET).open_download_stream(files[0]["_id"]).read()
            snapshot_files.read(stored, files[0]["metadata"])
    finally:
        restored.close()
        embedded.stop(tmp_path / "backup")
    numbers = [written for number in NAMES for written in (number, number[2:])]  # the originators, in either form
    for root in (tmp_path / "backup", deployment.data_dir, tmp_path / "vault"):
        assert text_in_files(root, [*SAID.values(), *NAMES.values(), "example.org", "Umlazi", *numbers]) == set()
