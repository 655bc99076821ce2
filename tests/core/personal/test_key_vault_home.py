"""Where the key vault lives (issue 48, item 5): on the embedded database, a server of its own under DATA_DIR/keys,
never inside a backup of the data's files (DATA_DIR/db); started with the first key; stopped with the data's; keys an
older version kept in the data's database moved into it once; a production database without a vault of its own
refused unless the operator says so."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace

import pymongo
import pytest
from bson import Binary

from core.config import Settings
from core.db import embedded
from core.db.connection import get_db
from core.personal.master_key import master_key
from core.personal.vault import Vault
from core.personal.vault_connection import KeyVaultSharesBackups, key_vault, refuse_unsafe_keys
from core.personal.vault_move import MARKER, move_keys_home
from core.privacy.purge import purge
from core.service import startup

pytestmark = pytest.mark.db

MASTER = os.urandom(96)
SAID = {"erased": b"Thandeka Zungu-Mahlangu, 082 123 4567", "kept": b"Sipho Ndlovu-Khumalo, 083 765 4321"}


def settings_of(data_dir, **env) -> Settings:
    return Settings.from_env({"DATA_DIR": str(data_dir), "SECRET_KEY": "test-secret", "AUTO_EMBED": "false", **env})


def key_server(settings: Settings) -> pymongo.MongoClient:
    return pymongo.MongoClient(embedded.ensure_running(embedded.keys_dir(settings.data_dir)),
                               uuidRepresentation="standard")


@pytest.fixture
def services(_app):
    """Start core on DATA_DIRs of the test's own (each call a start); every embedded server stopped afterwards and
    the session's connection restored."""
    started = []

    def start(settings: Settings) -> Settings:
        started.append(settings.data_dir)
        startup.start(settings)
        return settings

    yield start
    for data_dir in started:
        embedded.stop(data_dir)
    startup.start(_app.config["SETTINGS"])


def test_the_default_vault_keeps_its_keys_on_a_server_of_its_own_not_in_the_data_database(services, tmp_path):
    settings = services(settings_of(tmp_path / "data"))
    key_vault().seal_bytes("test:listener", SAID["kept"])
    assert "key_vault" not in get_db().list_collection_names()
    with key_server(settings) as keys:
        assert keys[settings.database_name]["key_vault"].count_documents({"keyAltNames": "test:listener"}) == 1
    assert (tmp_path / "data" / "keys" / "db").is_dir()


def test_the_key_server_starts_with_the_first_key_a_new_data_dir_needs(services, tmp_path):
    services(settings_of(tmp_path / "data"))
    record = tmp_path / "data" / "keys" / embedded.RECORD
    assert not record.exists()
    key_vault()
    assert record.exists()


def test_stopping_the_data_server_stops_the_key_server_with_it(services, tmp_path):
    services(settings_of(tmp_path / "data"))
    key_vault()
    pids = [json.loads((folder / embedded.RECORD).read_text())["pid"]
            for folder in (tmp_path / "data", tmp_path / "data" / "keys")]
    assert embedded.stop(tmp_path / "data") is True
    assert [embedded.pid_alive(pid) for pid in pids] == [False, False]
    assert not (tmp_path / "data" / "keys" / embedded.RECORD).exists()


def test_a_backup_of_the_data_taken_before_an_erasure_restored_with_the_live_keys_reads_nothing_erased(
        services, tmp_path):
    live, restored = tmp_path / "live", tmp_path / "restored"
    settings = services(settings_of(live))
    vault = key_vault()
    get_db()["sealed_things"].insert_many([{"_id": who, "sealed": Binary(vault.seal_bytes(f"test:{who}", said))}
                                           for who, said in SAID.items()])
    embedded.stop(live)  # a consistent copy of the data's files alone: the backup
    shutil.copytree(live / embedded.STORAGE, tmp_path / "backup" / embedded.STORAGE)
    services(settings)
    key_vault().destroy(["test:erased"])
    embedded.stop(live)
    # the operator restores the data's backup into a new DATA_DIR, beside the live keys and the master key
    shutil.copytree(tmp_path / "backup" / embedded.STORAGE, restored / embedded.STORAGE)
    shutil.copytree(live / embedded.KEYS, restored / embedded.KEYS)
    shutil.copy(live / "master.key", restored / "master.key")
    services(settings_of(restored))
    sealed = {doc["_id"]: bytes(doc["sealed"]) for doc in get_db()["sealed_things"].find()}
    assert key_vault().unseal_bytes([sealed["erased"], sealed["kept"]]) == [None, SAID["kept"]]


def test_the_purge_rewrites_the_key_server_s_files_so_no_file_holds_a_destroyed_key(services, tmp_path):
    settings = services(settings_of(tmp_path / "data"))
    vault = key_vault()
    vault.seal_bytes("test:erased", SAID["erased"])
    material = bytes(vault.collection.find_one({"keyAltNames": "test:erased"})["keyMaterial"])
    vault.destroy(["test:erased"])
    report = purge(settings)
    assert report["key_vault"]["collections"] >= 1
    files = [path for path in (tmp_path / "data" / "keys").rglob("*") if path.is_file()]
    assert files and not any(material in path.read_bytes() for path in files)


@pytest.fixture
def two_databases(mongodb_uri):
    """The data's database and a vault's, on the session's server; dropped afterwards."""
    with pymongo.MongoClient(mongodb_uri, uuidRepresentation="standard") as client:
        yield client["lss_move_data"], client["lss_move_vault"]
        client.drop_database("lss_move_data")
        client.drop_database("lss_move_vault")


def old_keys(database, names, master: bytes = MASTER) -> list:
    """Keys as an older version made them, in the data's own database; the envelopes sealed under them."""
    vault = Vault(database["key_vault"], master)
    return [vault.seal_bytes(name, name.encode()) for name in names]


def test_keys_of_the_data_database_move_to_the_vault_once_and_still_open(two_databases):
    data, vault_db = two_databases
    sealed = old_keys(data, ["test:a", "test:b", "test:c"])
    assert move_keys_home(data["key_vault"], vault_db["key_vault"]) == 3
    assert "key_vault" not in data.list_collection_names()
    assert move_keys_home(data["key_vault"], vault_db["key_vault"]) == 0
    vault = Vault(vault_db["key_vault"], MASTER)
    assert vault.unseal_bytes(sealed) == [b"test:a", b"test:b", b"test:c"]
    assert vault_db[MARKER].count_documents({}) == 0


def test_a_move_cut_midway_is_finished_by_the_next_start(two_databases):
    data, vault_db = two_databases
    sealed = old_keys(data, ["test:a", "test:b", "test:c"])
    first = data["key_vault"].find_one({"keyAltNames": "test:a"})
    vault_db["key_vault"].insert_one(first)  # the cut move had copied one key, and left its marker
    vault_db[MARKER].insert_one({"_id": "lss_move_data.key_vault"})
    assert move_keys_home(data["key_vault"], vault_db["key_vault"]) == 3
    assert vault_db["key_vault"].count_documents({}) == 3 and "key_vault" not in data.list_collection_names()
    vault = Vault(vault_db["key_vault"], MASTER)
    assert vault.unseal_bytes(sealed) == [b"test:a", b"test:b", b"test:c"]


def test_a_vault_with_keys_of_its_own_never_takes_the_data_database_s(two_databases):
    """A copy of the data restored from before the move holds keys erased since: they must not come back."""
    data, vault_db = two_databases
    old_keys(vault_db, ["test:live"])
    old_keys(data, ["test:erased-since"])
    assert move_keys_home(data["key_vault"], vault_db["key_vault"]) == 0
    assert vault_db["key_vault"].count_documents({"keyAltNames": "test:erased-since"}) == 0
    assert data["key_vault"].count_documents({}) == 1


def test_a_vault_that_is_the_data_database_reached_another_way_is_left_alone(two_databases):
    data, _ = two_databases
    old_keys(data, ["test:a"])
    same = pymongo.MongoClient(data.client.address[0], data.client.address[1], uuidRepresentation="standard")
    with same:
        assert move_keys_home(data["key_vault"], same[data.name]["key_vault"]) == 0
    assert data["key_vault"].count_documents({}) == 1


def test_an_older_station_s_keys_move_to_its_key_server_when_it_connects(services, tmp_path):
    settings = services(settings_of(tmp_path / "data"))
    # as the vault was before: a collection of the data's database
    sealed = old_keys(get_db(), ["test:a", "test:b"], master_key(None, settings.data_dir))
    embedded.stop(tmp_path / "data")
    shutil.rmtree(tmp_path / "data" / embedded.KEYS, ignore_errors=True)
    services(settings)
    assert key_vault().unseal_bytes(sealed) == [b"test:a", b"test:b"]
    assert "key_vault" not in get_db().list_collection_names()
    services(settings)  # connecting again moves nothing and loses nothing
    assert key_vault().unseal_bytes(sealed) == [b"test:a", b"test:b"]


def test_a_production_database_without_a_vault_of_its_own_is_refused_naming_key_vault_uri(mongodb_uri, tmp_path):
    production = settings_of(tmp_path, MONGODB_URI=mongodb_uri)
    with pytest.raises(KeyVaultSharesBackups, match="^KEY_VAULT_URI is not set"):
        refuse_unsafe_keys(production)
    with pytest.raises(KeyVaultSharesBackups, match="^KEY_VAULT_URI names the data's own deployment and database"):
        refuse_unsafe_keys(replace(production, key_vault_uri=mongodb_uri))
    refuse_unsafe_keys(replace(production, key_vault_shares_backups=True))
    refuse_unsafe_keys(replace(production, key_vault_uri="mongodb://vault.internal:27017/"))


def test_the_uri_serve_hands_its_processes_still_counts_as_the_embedded_database(services, tmp_path):
    settings = services(settings_of(tmp_path / "data"))
    handed = settings_of(tmp_path / "data", MONGODB_URI=embedded.ensure_running(settings.data_dir),
                         KEY_VAULT_URI=embedded.ensure_running(embedded.keys_dir(settings.data_dir)))
    refuse_unsafe_keys(handed)
    services(handed)
    key_vault().seal_bytes("test:handed", b"x")
    with key_server(settings) as keys:
        assert keys[settings.database_name]["key_vault"].count_documents({"keyAltNames": "test:handed"}) == 1
