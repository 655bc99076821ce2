"""What a data key per listener costs: `python -m bench.keys [--sizes 2000 20000]`.

On a fresh embedded database of its own (DATA_DIR bench/data/keys, wiped first), for each size: milliseconds per
listener to seal a listener's personal values under a new key (keys made and inserted in bulk), to seal them again
under the keys already made, to unseal them all (as a station's snapshot would be read), and to unseal one (as a
listener page would), then to destroy one key. The baseline in the same run is the same values encoded and decoded
as BSON without sealing; the last column unseals again with libmongocrypt's default key cache (60 s) in place of
core.personal.vault.KEY_CACHE_MS.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import os
import shutil
import time
from pathlib import Path

import bson

DATA = Path("bench/data/keys")


def values(size: int) -> dict[str, dict]:
    """A listener's personal values as an import would bring them."""
    return {f"2782{i:07d}": {"name": f"Listener {i}", "email": f"listener{i}@example.org", "gender": "female",
                             "age_group": "25-34", "id_number": f"{8001015009087 + i}", "tags": ["music_lover"]}
            for i in range(size)}


class Keys:
    """The scheme measured here and not taken: a data key per listener, named by a keyed hash of station and number,
    each listener's values sealed under their own key (the service seals listeners in groups of 250 under one content
    key each, core.personal.sealed_groups, because a full run reads every listener)."""

    def __init__(self, vault, secret: str):
        self.vault, self.secret = vault, secret

    def name_of(self, company_id: int, originator: str) -> str:
        return "listener:" + hmac.new(self.secret.encode(), f"{company_id}:{originator}".encode(),
                                      hashlib.sha256).hexdigest()

    def seal(self, company_id: int, values: dict) -> dict:
        names = {originator: self.name_of(company_id, originator) for originator in values}
        sealed = self.vault.seal({names[originator]: document for originator, document in values.items()})
        return {originator: sealed[name] for originator, name in names.items()}

    def unseal(self, sealed) -> list:
        return self.vault.unseal(sealed)

    def destroy(self, company_id: int, originators) -> int:
        return self.vault.destroy(self.name_of(company_id, originator) for originator in originators)


def per_listener_ms(work, count: int) -> tuple[float, object]:
    started = time.perf_counter()
    result = work()
    return (time.perf_counter() - started) * 1000 / count, result


def measure(client, size: int) -> dict:
    """One row: a fresh vault, the listeners sealed, read and one destroyed."""
    from core.personal import vault as module
    from core.personal.master_key import MASTER_KEY_BYTES

    client.drop_database("bench_keys")
    vault = client.bench_keys.datakeys
    master = os.urandom(MASTER_KEY_BYTES)
    keys = Keys(module.Vault(vault, master), "bench-secret")
    keys.vault.ensure_indexes()
    plain = values(size)
    row = {"listeners": f"{size:,}"}
    row["BSON only, ms"], _ = per_listener_ms(lambda: [bson.decode(bson.encode(v)) for v in plain.values()], size)
    row["seal, new keys"], sealed = per_listener_ms(lambda: keys.seal(1, plain), size)
    row["seal, keys made"], _ = per_listener_ms(lambda: keys.seal(1, plain), size)
    row["unseal all"], read = per_listener_ms(lambda: Keys(module.Vault(vault, master), "bench-secret").unseal(
        sealed.values()), size)
    assert read == list(plain.values())
    row["unseal one"], _ = per_listener_ms(lambda: keys.unseal([sealed[next(iter(sealed))]]), 1)
    row["destroy one"], _ = per_listener_ms(lambda: keys.destroy(1, [next(iter(sealed))]), 1)
    kept, module.KEY_CACHE_MS = module.KEY_CACHE_MS, 60_000
    try:
        cached = Keys(module.Vault(vault, master), "bench-secret")  # made after the change: it reads the setting
        row["unseal all, 60 s cache"], _ = per_listener_ms(lambda: cached.unseal(sealed.values()), size)
    finally:
        module.KEY_CACHE_MS = kept
    return {name: value if isinstance(value, str) else f"{value:.3f}" for name, value in row.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.keys", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 20000])
    args = parser.parse_args(argv)
    from pymongo import MongoClient

    from bench.station import markdown
    from core.db.embedded import ensure_running, stop

    shutil.rmtree(DATA, ignore_errors=True)
    client = MongoClient(ensure_running(DATA), uuidRepresentation="standard")
    try:
        rows = [measure(client, size) for size in args.sizes]
    finally:
        client.close()
        stop(DATA)
    print("ms per listener (one for `unseal one` and `destroy one`)\n")
    print(markdown(rows))


if __name__ == "__main__":
    main()
