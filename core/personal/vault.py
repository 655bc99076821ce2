"""Data keys in a MongoDB key vault, and values sealed under them: MongoDB's explicit client-side field-level
encryption (libmongocrypt, through pymongocrypt) with a local master key.

Destroying a key is erasure: from then on nothing sealed under it can be read anywhere, not in the live documents,
not in the oplog, not in a backup taken before, provided the vault itself is kept where the data's backups do not
reach. The master key wraps every data key; whoever holds it and a vault can read what the vault's keys sealed, so it
is never stored in the database. Keys are named (keyAltNames) by what they seal: a group of listeners
(core.personal.sealed_groups), an artifact (a snapshot file), an answer or a job, never by a listener's number.

Keys are made and found in bulk, because an import meets thousands of new listeners at once: libmongocrypt makes
each key document (0.13 ms) and this module inserts them together, where libmongocrypt alone inserts them one by one
(1.9 ms each). libmongocrypt asks the vault for keys itself, through `_Callback.fetch_keys`: what this module has
just read or made is answered from memory, the rest from the vault (core.db.quirks.find_keys).

Large values (a snapshot file) are sealed as an envelope: the bytes under a random content key (AES-256-GCM), and
that content key sealed under the named data key. libmongocrypt would take one BSON value of at most 16 MB, and runs
its cryptography through Python callbacks here (the wheel's library has none built in).
"""
from __future__ import annotations

import os
import struct
import threading
import uuid
from collections.abc import Iterable, Mapping

import bson
from bson.binary import STANDARD, Binary
from bson.codec_options import CodecOptions
from bson.raw_bson import RawBSONDocument
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from pymongo.collection import Collection
from pymongo.errors import BulkWriteError
from pymongocrypt.errors import MongoCryptError
from pymongocrypt.options import MongoCryptOptions
from pymongocrypt.synchronous.auto_encrypter import AutoEncrypter
from pymongocrypt.synchronous.explicit_encrypter import ExplicitEncrypter
from pymongocrypt.synchronous.state_machine import MongoCryptCallback

from core.db.quirks import IN_CHUNK, KEY_VAULT_INDEX, find_keys, insert_all
from core.personal.master_key import MasterKeyError

ALGORITHM = "AEAD_AES_256_CBC_HMAC_SHA_512-Random"
DUPLICATE_KEY = 11000  # a name another process gave its key first
UNSEAL_CHUNK = 1000  # sealed values decrypted together: one look-up of their keys
ENVELOPE = b"LSSv1"  # how a sealed envelope begins (no npz or BSON file does)
NONCE_BYTES = 12
ENCRYPTED_SUBTYPE = 6  # BSON's binary subtype for an encrypted value
KEY_CACHE_MS = 1
"""How long libmongocrypt keeps a key it has unwrapped. Its cache is searched key by key, so with a key per listener a
long-lived cache makes each new key cost more than the last: unsealing 20,000 listeners took 5.0 ms each with keys
kept ten minutes, 0.68 ms each with this. Keys are not reused from it anyway: every call reads which keys still exist
(`_Callback.present`), so that a key destroyed by another process is final at once."""
_OPTIONS = CodecOptions(uuid_representation=STANDARD)
_RAW = CodecOptions(document_class=RawBSONDocument, uuid_representation=STANDARD)


class _Callback(MongoCryptCallback):
    """What libmongocrypt asks of the outside world: keys (from memory when this thread has just read or made them,
    else from the vault), and where a new key goes (kept for `Vault` to insert with the others of its batch)."""

    def __init__(self, vault: Collection):
        self.vault = vault
        self.local = threading.local()

    def known(self) -> dict[bytes, bytes]:
        """Raw key documents by the bytes of their _id, that this thread has at hand."""
        if not hasattr(self.local, "keys"):
            self.forget()
        return self.local.keys

    def made(self) -> list[dict]:
        """Keys libmongocrypt made on this thread since `forget`, not yet in the vault."""
        self.known()
        return self.local.made

    def forget(self) -> None:
        self.local.keys, self.local.made = {}, []

    def remember(self, raw_keys: Iterable) -> list[dict]:
        """Keep raw key documents at hand; returns them decoded."""
        known, decoded = self.known(), []
        for key in raw_keys:
            known[key["_id"].bytes] = key.raw
            decoded.append(bson.decode(key.raw, _OPTIONS))
        return decoded

    def present(self, key_ids: set[bytes]) -> set[bytes]:
        """Which of these keys (by the 16 bytes of their _id) exist: those at hand, then the vault's."""
        known = self.known()
        missing = [uuid.UUID(bytes=k) for k in key_ids if k not in known]
        if missing:
            self.remember(find_keys(self.vault, missing))
        return {k for k in key_ids if k in known}

    def fetch_keys(self, filter):
        wanted = bson.decode(filter, _OPTIONS)
        ids = [k for part in wanted.get("$or", [wanted]) for k in part.get("_id", {}).get("$in", [])]
        names = [n for part in wanted.get("$or", [wanted]) for n in part.get("keyAltNames", {}).get("$in", [])]
        known = self.known()
        at_hand = [known[k.bytes] for k in ids if k.bytes in known]
        missing = [k for k in ids if k.bytes not in known]
        yield from at_hand
        if missing or names:
            for key in find_keys(self.vault, missing, names):
                yield key.raw

    def insert_data_key(self, data_key):
        document = bson.decode(data_key, _OPTIONS)
        self.made().append(document)
        self.known()[document["_id"].bytes] = bytes(data_key)
        return document["_id"]

    def bson_encode(self, doc):
        return bson.encode(doc, codec_options=_OPTIONS)

    def kms_request(self, kms_context):
        raise NotImplementedError("only the local master key is configured")

    def collection_info(self, database, filter):
        raise NotImplementedError("explicit encryption only: no collection is encrypted automatically")

    def mark_command(self, database, cmd):
        raise NotImplementedError("explicit encryption only: no command is encrypted automatically")

    def close(self):
        pass


class Vault:
    """Named data keys, and values sealed under them."""

    def __init__(self, collection: Collection, master: bytes):
        self.collection = collection.with_options(codec_options=_RAW)
        self._io = _Callback(self.collection)
        options = MongoCryptOptions({"local": {"key": master}}, bypass_encryption=True, key_expiration_ms=KEY_CACHE_MS)
        self._explicit = ExplicitEncrypter(self._io, options)
        self._bulk = AutoEncrypter(self._io, options)

    def ensure_indexes(self) -> None:
        """A key name is unique among the vault's named keys (MongoDB's own advice for a key vault; sparse rather
        than partial, which SecantusDB does not use for a look-up: core.db.quirks.KEY_VAULT_INDEX)."""
        self.collection.create_index(**KEY_VAULT_INDEX)

    def check(self) -> None:
        """MasterKeyError when the master key is not the one the vault's keys were made under: a process that could
        read nothing sealed says so at start rather than at every read."""
        key = self.collection.find_one({}, {"_id": 1})
        if key is None:
            return
        try:
            self._explicit.encrypt(bson.encode({"v": 0}), ALGORITHM, key_id=key["_id"].bytes)
        except MongoCryptError:
            raise MasterKeyError("The master key (MASTER_KEY, or DATA_DIR's master.key) is not the one the key vault's "
                                 "data keys were made under.") from None
        finally:
            self._io.forget()

    def seal(self, values: Mapping[str, object], fresh: bool = False) -> dict[str, Binary]:
        """Each value (any BSON value: a document, bytes) encrypted under the key of its name, made when it has
        none. `fresh`: the names are new (a group's, named by a new ObjectId), so the vault is not asked for them
        before they are made (a look-up each, about 2 s of a 100,000-listener interactions import)."""
        try:
            key_ids = self._key_ids(values, fresh)
            return {name: self._encrypt(value, key_ids[name]) for name, value in values.items()}
        finally:
            self._io.forget()

    def unseal(self, sealed: Iterable[Binary | None]) -> list:
        """The values sealed by `seal`, in order; None where nothing was sealed or the key was destroyed."""
        sealed = list(sealed)
        out: list = [None] * len(sealed)
        try:
            for start in range(0, len(sealed), UNSEAL_CHUNK):
                self._unseal_chunk(sealed, start, out)
        finally:
            self._io.forget()
        return out

    def destroy(self, names: Iterable[str]) -> int:
        """Delete the keys of these names: what was sealed under them is unreadable from now on, in every copy."""
        names = list(names)
        return sum(self.collection.delete_many({"keyAltNames": {"$in": names[i:i + IN_CHUNK]}}).deleted_count
                   for i in range(0, len(names), IN_CHUNK))

    def new_content_key(self, name: str) -> tuple[bytes, Binary]:
        """A random content key for `encrypted`, and the same sealed under the key `name`: many values sealed
        together (a file, a group of texts) cost one pass through libmongocrypt, not one each."""
        return self.new_content_keys([name])[0]

    def new_content_keys(self, names: list[str], fresh: bool = False) -> list[tuple[bytes, Binary]]:
        """`new_content_key` for each of these names, their keys made and inserted together (`fresh`: see
        `seal`)."""
        content_keys = [AESGCM.generate_key(bit_length=256) for _ in names]
        sealed = self.seal({name: Binary(key) for name, key in zip(names, content_keys, strict=True)}, fresh)
        return [(key, sealed[name]) for name, key in zip(names, content_keys)]

    def open_content_keys(self, sealed_keys: Iterable[bytes | None]) -> list[bytes | None]:
        """The content keys sealed by `new_content_key`, in order, unsealed together; None where the key that
        sealed one was destroyed."""
        opened = self.unseal(None if k is None else Binary(bytes(k), ENCRYPTED_SUBTYPE) for k in sealed_keys)
        return [None if key is None else bytes(key) for key in opened]

    def seal_bytes(self, name: str, data: bytes) -> bytes:
        """`data` as an envelope: encrypted under a content key of its own, itself sealed under the key `name`."""
        content_key, sealed_key = self.new_content_key(name)
        return b"".join((ENVELOPE, struct.pack(">I", len(sealed_key)), bytes(sealed_key),
                         encrypted(cipher(content_key), data, ENVELOPE)))

    def unseal_bytes(self, envelopes: Iterable[bytes]) -> list[bytes | None]:
        """What `seal_bytes` sealed, in order, their content keys unsealed together (one look-up of their data keys:
        a process reading a station's deltas reads hundreds); None where the key was destroyed. Altered bytes fail
        loudly (InvalidTag)."""
        parts = [_parts(envelope) for envelope in envelopes]
        content_keys = self.open_content_keys(sealed_key for sealed_key, _ in parts)
        return [None if key is None else decrypted(cipher(key), body, ENVELOPE)
                for key, (_, body) in zip(content_keys, parts)]

    def _key_ids(self, names: Iterable[str], fresh: bool = False) -> dict[str, uuid.UUID]:
        names = list(names)
        found = {} if fresh else {key["keyAltNames"][0]: key["_id"]
                                  for key in self._io.remember(find_keys(self.collection, [], names))}
        new = [name for name in names if name not in found]
        found.update({key["keyAltNames"][0]: key["_id"] for key in self._make(new)})
        return found

    def _make(self, names: list[str]) -> list[dict]:
        """New keys under these names, inserted together; where another process made one meanwhile, its key
        stands."""
        if not names:
            return []
        for name in names:
            self._explicit.create_data_key("local", key_alt_names=[name])
        made = self._io.made()
        try:
            insert_all(self.collection, made)
        except BulkWriteError as error:
            if error.details.get("writeConcernErrors") or any(
                    e.get("code") != DUPLICATE_KEY for e in error.details.get("writeErrors", [])):
                raise
            self._io.forget()
            return self._io.remember(find_keys(self.collection, [], names))
        return made

    def _encrypt(self, value, key_id: uuid.UUID) -> Binary:
        encoded = bson.encode({"v": value}, codec_options=_OPTIONS)
        return bson.decode(self._explicit.encrypt(encoded, ALGORITHM, key_id=key_id.bytes), _OPTIONS)["v"]

    def _unseal_chunk(self, sealed: list, start: int, out: list) -> None:
        chunk = {i: v for i, v in enumerate(sealed[start:start + UNSEAL_CHUNK], start) if v is not None}
        try:
            self._decrypt(chunk, out)
        except MongoCryptError:  # a key destroyed since `present` looked: look again (anything else fails again)
            self._io.forget()
            self._decrypt(chunk, out)

    def _decrypt(self, chunk: dict[int, Binary], out: list) -> None:
        """Decrypt together the values whose keys exist; the others stay None."""
        key_of = {i: bytes(v[1:17]) for i, v in chunk.items()}  # a sealed value names its key after its subtype
        present = self._io.present(set(key_of.values()))
        readable = [i for i in chunk if key_of[i] in present]
        if readable:
            response = bson.encode({"v": [chunk[i] for i in readable]}, codec_options=_OPTIONS)
            for i, value in zip(readable, bson.decode(self._bulk.decrypt(response), _OPTIONS)["v"]):
                out[i] = value


def is_envelope(data: bytes) -> bool:
    """Whether these bytes were sealed by `Vault.seal_bytes` (older files were written plain)."""
    return data[:len(ENVELOPE)] == ENVELOPE


def cipher(content_key: bytes) -> AESGCM:
    """What `encrypted` and `decrypted` work with: made once per content key (making one per value tripled the cost
    of reading 100,000 texts)."""
    return AESGCM(content_key)


def encrypted(with_key: AESGCM, data: bytes, bound_to: bytes = b"") -> bytes:
    """`data` under a content key (AES-256-GCM, a random nonce in front), authenticated with `bound_to`."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce + with_key.encrypt(nonce, data, bound_to)


def decrypted(with_key: AESGCM, sealed: bytes, bound_to: bytes = b"") -> bytes:
    """What `encrypted` sealed; InvalidTag when altered, or sealed under another key or binding."""
    return with_key.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], bound_to)


def _parts(envelope: bytes) -> tuple[bytes, memoryview]:
    """An envelope's sealed content key, and its body (`encrypted`)."""
    if not is_envelope(envelope):
        raise ValueError("not a sealed envelope")
    size = struct.unpack_from(">I", envelope, len(ENVELOPE))[0]
    start = len(ENVELOPE) + 4
    return envelope[start:start + size], memoryview(envelope)[start + size:]
