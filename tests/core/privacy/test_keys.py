"""A data key per listener: values sealed under it read back, nothing plain is stored, destroying the key makes
every earlier copy unreadable while other listeners still read, and the vault is read the way SecantusDB serves."""
from __future__ import annotations

import base64
import os
import stat
import threading

import pytest
from pymongo import MongoClient, monitoring

from core.db.master_key import MasterKeyError, master_key
from core.db.vault import Vault
from core.privacy.keys import Keys

pytestmark = pytest.mark.db

MASTER = os.urandom(96)
THANDI = {"name": "Thandeka Zungu-Mahlangu", "email": "thandeka.zm@example.org", "gender": "female",
          "tags": ["gospel", "music_lover"]}
SIPHO = {"name": "Sipho Dlamini", "mobile_number": "27831112222", "age_group": "25-34"}


class Finds(monitoring.CommandListener):
    """The filters of every find this client sends."""

    def __init__(self):
        self.filters = []

    def started(self, event):
        if event.command_name == "find":
            self.filters.append(event.command.get("filter"))

    def succeeded(self, event):
        pass

    def failed(self, event):
        pass


@pytest.fixture
def vault(mongodb_uri):
    """An empty key vault in a database of its own, on a client whose finds are recorded."""
    finds = Finds()
    client = MongoClient(mongodb_uri, uuidRepresentation="standard", event_listeners=[finds])
    client.drop_database("lss_test_keys")
    collection = client.lss_test_keys.datakeys
    collection.finds = finds.filters
    yield collection
    client.drop_database("lss_test_keys")
    client.close()


def keys_of(vault, master: bytes = MASTER, secret: str = "test-secret") -> Keys:
    """A process's listener keys over this vault collection."""
    store = Vault(vault, master)
    store.ensure_indexes()
    return Keys(store, secret)


def test_sealed_values_read_back_in_order_and_nothing_plain_is_stored(vault):
    keys = keys_of(vault)
    sealed = keys.seal(1, {"27821234567": THANDI, "27831112222": SIPHO})
    assert keys.unseal([sealed["27831112222"], None, sealed["27821234567"]]) == [SIPHO, None, THANDI]
    stored = b"".join(bytes(v) for v in sealed.values()) + b"".join(vault.find_raw_batches())
    for plain in ("Thandeka", "thandeka.zm@example.org", "27821234567", "2783111", "gospel", "female"):
        assert plain.encode() not in stored


def test_each_listener_has_one_key_of_its_own_per_station(vault):
    keys = keys_of(vault)
    first = keys.seal(1, {"27821234567": THANDI, "27831112222": SIPHO})
    again = keys.seal(1, {"27821234567": {"name": "Thandi"}})
    other_station = keys.seal(2, {"27821234567": THANDI})
    assert vault.count_documents({}) == 3
    assert bytes(first["27821234567"])[1:17] == bytes(again["27821234567"])[1:17]  # the key a value names
    assert bytes(first["27821234567"])[1:17] != bytes(other_station["27821234567"])[1:17]
    assert bytes(first["27821234567"])[1:17] != bytes(first["27831112222"])[1:17]


def test_destroying_a_key_makes_every_earlier_copy_unreadable_and_leaves_the_others(vault):
    keys = keys_of(vault)
    sealed = keys.seal(1, {"27821234567": THANDI, "27831112222": SIPHO})
    backup = dict(sealed)  # what a copy of the database taken now holds
    assert keys.unseal([backup["27821234567"]]) == [THANDI]  # read once: libmongocrypt now holds the key
    assert keys.destroy(1, ["27821234567"]) == 1
    assert keys.unseal([backup["27821234567"], backup["27831112222"]]) == [None, SIPHO]
    another_process = keys_of(vault)
    assert another_process.unseal([backup["27821234567"], backup["27831112222"]]) == [None, SIPHO]
    assert keys.destroy(1, ["27821234567"]) == 0


def test_a_destroyed_key_is_final_for_a_process_that_read_it_before(vault):
    reader, eraser = keys_of(vault), keys_of(vault)
    sealed = reader.seal(1, {"27821234567": THANDI})["27821234567"]
    assert reader.unseal([sealed]) == [THANDI]
    eraser.destroy(1, ["27821234567"])
    assert reader.unseal([sealed]) == [None]


def test_a_key_destroyed_while_a_call_reads_leaves_that_listener_unread_and_the_others_read(vault, monkeypatch):
    keys = keys_of(vault)
    sealed = keys.seal(1, {"27821234567": THANDI, "27831112222": SIPHO})
    looked = keys.vault._io.present

    def looked_then_destroyed(key_ids):
        found = looked(key_ids)
        keys.vault._io.forget()  # the eraser's delete lands between the look and the decryption
        keys_of(vault).destroy(1, ["27821234567"])
        return found

    monkeypatch.setattr(keys.vault._io, "present", looked_then_destroyed)
    assert keys.unseal([sealed["27821234567"], sealed["27831112222"]]) == [None, SIPHO]


def test_another_master_key_reads_nothing(vault):
    sealed = keys_of(vault).seal(1, {"27821234567": THANDI})["27821234567"]
    with pytest.raises(Exception, match="HMAC validation failure"):
        keys_of(vault, master=os.urandom(96)).unseal([sealed])


def test_keys_are_fetched_by_index_never_by_an_or_and_a_name_lookup_is_no_scan(vault):
    keys = keys_of(vault)
    sealed = keys.seal(1, {f"2782000{i:04d}": SIPHO for i in range(250)})
    vault.finds.clear()
    assert keys_of(vault).unseal(list(sealed.values())) == [SIPHO] * 250
    assert vault.finds and not any("$or" in f for f in vault.finds)
    plan = vault.find({"keyAltNames": {"$in": [keys.name_of(1, "27820000001")]}}).explain()["queryPlanner"]
    assert "COLLSCAN" not in str(plan["winningPlan"])


def test_two_processes_sealing_the_same_new_listener_keep_one_key_both_can_read(vault):
    sealed, ready = [], threading.Barrier(2)

    def seal():
        keys = keys_of(vault)
        ready.wait()
        sealed.append(keys.seal(1, {"27821234567": THANDI, f"2783{threading.get_ident() % 10**7:07d}": SIPHO}))

    threads = [threading.Thread(target=seal) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert vault.count_documents({"keyAltNames": keys_of(vault).name_of(1, "27821234567")}) == 1
    assert keys_of(vault).unseal([s["27821234567"] for s in sealed]) == [THANDI, THANDI]


def test_the_master_key_comes_from_the_environment(tmp_path):
    key = os.urandom(96)
    assert master_key(base64.b64encode(key).decode(), tmp_path) == key
    assert not (tmp_path / "master.key").exists()
    with pytest.raises(MasterKeyError, match="95 bytes"):
        master_key(base64.b64encode(key[:95]).decode(), tmp_path)
    with pytest.raises(MasterKeyError, match="not base64"):
        master_key("not base64!", tmp_path)


def test_without_one_a_key_file_is_made_once_for_its_owner_only(tmp_path):
    first = master_key(None, tmp_path / "data")
    path = tmp_path / "data" / "master.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert master_key(None, tmp_path / "data") == first and len(first) == 96
    path.write_bytes(b"short")
    with pytest.raises(MasterKeyError, match="5 bytes"):
        master_key(None, tmp_path / "data")


def test_a_vault_refuses_another_master_key_than_its_keys_were_made_under(vault):
    Vault(vault, MASTER).check()  # an empty vault takes any key
    keys_of(vault).seal(1, {"27821234567": THANDI})
    Vault(vault, MASTER).check()
    with pytest.raises(MasterKeyError, match="not the one the key vault"):
        Vault(vault, os.urandom(96)).check()
