"""Resident memory of the web processes per worker count: `python -m bench.memory [--sizes 100000 1000000]
[--workers 1 2 4] [--baseline <commit>] [--reuse]`.

For each size, a database of its own (the embedded server on DATA_DIR bench/data/memory-<size>, made once and kept with
`--reuse`): the demo station seeded at SEEDED listeners, its snapshot repeated to the size (the copies' numbers start
with 9) and published, and its counter of vectors set to the size; each code under test then writes its own index file
of one random unit float32 vector per listener, drawn around 1,000 centres as bench.search's recall does (uniformly
random vectors took HNSW over 25 minutes to index at 1M). No vector is stored, but every listener's text is (the
seeded listener's whose row it repeats, with a number of its own), so each worker's lexical index is built from
them as the service builds it. Then
`gunicorn wsgi:app` with 1, 2 and 4 workers of one thread each: every worker answers searches, filter pages and a
listener's page, and
each process's resident memory is read from /proc/<pid>/smaps_rollup: RSS, and PSS (a page shared by k processes counts
1/k in each: the fair measure of sharing). `--baseline <commit>` measures that commit too, in a git worktree under
/tmp, in the same run and on the same database (the index files under DATA_DIR are removed between the two).
Figures go to measured/memory.json.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
COMPANY, SEEDED, DATABASE, PORT = 1, 2000, "bench_memory", 8731
READY_WITHIN_S = 45 * 60
"""How long a server may take to listen: at 1M its parent reads every listener's text for the lexical index before
it forks, when no process has left a copy of it yet (minutes on 2 shared cores)."""
SEARCH = f"/api/v1/segments/{COMPANY}/search"
FILTER = f"/api/v1/segments/{COMPANY}/filter"
LISTENER = f"/api/v1/listeners/{COMPANY}/27653580247"  # a listener of the seeded demo station (seed 7)
OUT = ROOT / "measured" / "memory.json"


def data_dir(size: int) -> Path:
    return ROOT / "bench" / "data" / f"memory-{size}"


def build(size: int) -> str:
    """The station of `size` listeners with its vectors; returns an API key for it."""
    from core.access.api_keys import create_key
    from core.config import Settings
    from core.demo.seed import seed_demo
    from core.listeners import snapshot
    from core.service import startup

    folder = data_dir(size)
    shutil.rmtree(folder, ignore_errors=True)
    startup.start(Settings(data_dir=folder, database_name=DATABASE, auto_embed=False))
    seed_demo(COMPANY, SEEDED, seed=7)
    snap = snapshot.current(COMPANY)
    texts = _seeded_texts(snap)
    copies = [snap] + [_renumbered(snap, k) for k in range(1, -(-size // len(snap)))]
    snapshot.publish(snapshot.concat(copies).take(np.arange(size)))
    _store_vectors(snapshot.current(COMPANY), texts)
    _, token = create_key([COMPANY], name="bench-memory")
    (folder / "bench-key").write_text(token)
    return token


def _renumbered(snap, copy: int):
    """The snapshot's rows under other numbers: 9, the copy's number, then the originator's last digits."""
    from core.listeners.snapshot import Snapshot

    numbers = np.array([f"9{copy:02d}{o[3:]}" for o in snap.originators.tolist()])
    return Snapshot(snap.company_id, {**snap.cols, "originator": numbers}, snap.vocab, dict(snap.meta))


def _seeded_texts(seeded) -> list[str]:
    """The text the service stores for each seeded listener, in the snapshot's order."""
    from core.search import vectors
    from core.search.models import ListenerEmbedding
    from core.search.sealed_texts import opened

    vectors.refresh_embeddings(COMPANY)
    docs = list(ListenerEmbedding._get_collection().find({"company_id": COMPANY}))
    stored = {d["originator"]: text for d, text in zip(docs, opened(docs))}
    return [stored.get(o, "") for o in seeded.originators.tolist()]


def _store_vectors(whole, texts: list[str]) -> None:
    """The station's counter of vectors says SIZE are stored, and each listener's text is stored as the service
    stores it: the seeded listener's whose row the copy repeats, with the row's number added so that no two texts
    are alike (the lexical index reads them). The vectors themselves are not stored: each code under test writes
    its own index file (`index_files`)."""
    from core.search.embeddings import embedder
    from core.search.models import EmbeddingCounter, ListenerEmbedding

    model, collection = embedder().name, ListenerEmbedding._get_collection()
    collection.drop()
    for start in range(0, len(whole), 5_000):
        rows = whole.originators[start:start + 5_000].tolist()
        collection.insert_many([{"company_id": COMPANY, "model": model, "originator": originator, "seq": n + 1,
                                 "text": f"{texts[n % len(texts)]} {n}"} for n, originator in enumerate(rows, start)])
    EmbeddingCounter._get_collection().update_one({"company_id": COMPANY, "model": model},
                                                  {"$set": {"seq": len(whole)}}, upsert=True)


INDEX_FILE = """
import sys, numpy as np
from pathlib import Path
from core.service import startup
from core.config import Settings
from core.listeners import snapshot
from core.search import index, process_indexes
from core.search.models import EmbeddingCounter
startup.start(Settings(data_dir=Path(sys.argv[1]), database_name=sys.argv[2], auto_embed=False))
model = process_indexes.embedder()
counter = EmbeddingCounter._get_collection().find_one({"company_id": 1, "model": model.name})
whole = snapshot.current(1)
rng, found = np.random.default_rng(3), index.VectorIndex(model.dim, len(whole) > index.APPROXIMATE_ABOVE)
centres = rng.standard_normal((1000, model.dim)).astype(np.float32)  # listeners resemble each other in groups
for start in range(0, len(whole), 50_000):
    rows = whole.originators[start:start + 50_000].tolist()
    block = centres[rng.integers(0, 1000, size=len(rows))]
    block += rng.normal(scale=0.8, size=block.shape).astype(np.float32)
    found.upsert(rows, block / np.linalg.norm(block, axis=1, keepdims=True))
found.seq, found.lineage = counter["seq"], str(counter["_id"])
process_indexes._save(1, found, process_indexes._path(1, model.name))  # as the service saves it: keys, no number
"""


def index_files(code: Path, size: int, uri: str) -> None:
    """The code's own index file of the station: random unit vectors, one per listener, current to its counter."""
    subprocess.run([sys.executable, "-c", INDEX_FILE, str(data_dir(size)), DATABASE], cwd=code, check=True,
                   env={**os.environ, "MONGODB_URI": uri, "PYTHONPATH": str(code)})


def open_database(size: int) -> str:
    """Start the size's embedded database; its URI."""
    from core.config import Settings
    from core.db.connection import resolve_uri
    from core.service import startup

    settings = Settings(data_dir=data_dir(size), database_name=DATABASE, auto_embed=False)
    startup.start(settings)
    return resolve_uri(settings)


def measure(code: Path, size: int, workers: int, uri: str, token: str) -> dict:
    """gunicorn from `code` with this many workers, each made to answer a search and a filter page; memory."""
    env = {**os.environ, "MONGODB_URI": uri, "MONGODB_DATABASE": DATABASE, "DATA_DIR": str(data_dir(size)),
           "AUTO_EMBED": "false", "DAILY_SEGMENTATION": "false", "DAILY_PURGE": "false",
           "PROMETHEUS_MULTIPROC_DIR": str(data_dir(size) / f"metrics-{workers}")}
    command = [str(Path(sys.executable).with_name("gunicorn")), "--config", str(code / "gunicorn.conf.py"),
               "--workers", str(workers), "--threads", "1", "--bind", f"127.0.0.1:{PORT}", "--timeout", "300",
               "wsgi:app"]
    log = open(data_dir(size) / f"gunicorn-{workers}.log", "wb")  # noqa: SIM115 - closed with the server
    server = subprocess.Popen(command, cwd=code, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        timings = _warm(workers, token)
        processes = [_memory(pid) for pid in _children(server.pid)]
        arbiter = _memory(server.pid)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        log.close()
    return {"workers": workers, "per worker": processes, "arbiter": arbiter,
            "RSS MB": round(sum(p["rss"] for p in processes) + arbiter["rss"]),
            "PSS MB": round(sum(p["pss"] for p in processes) + arbiter["pss"]), **timings}


def _warm(workers: int, token: str) -> dict:
    """Searches and filter pages, `workers` at a time on workers of one thread each, so that every worker answers
    both; median latencies after that."""
    base = f"http://127.0.0.1:{PORT}"
    deadline = time.monotonic() + READY_WITHIN_S
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "/health/live", timeout=60).read()
            break
        except OSError:  # refused before gunicorn listens (its parent loads the station first), or a worker starting
            time.sleep(0.5)

    def get(path: str, params: dict) -> None:
        asked = urllib.request.Request(f"{base}{path}?{urllib.parse.urlencode(params)}", headers={"X-API-Key": token})
        try:
            with urllib.request.urlopen(asked, timeout=900) as answer:
                answer.read()
        except urllib.error.HTTPError as refused:  # say what the service said, not only its status
            raise SystemExit(f"{path} answered {refused.code}: {refused.read()[:500]!r}") from refused

    def both(_):
        started = time.perf_counter()
        get(SEARCH, {"q": "loves gospel music", "limit": 20})
        middle = time.perf_counter()
        get(FILTER, {"segment": "occasional_engager", "page": 3})
        last = time.perf_counter()
        get(LISTENER, {})
        return middle - started, last - middle, time.perf_counter() - last

    both(0)  # the first answer of the host (reads the station) alone
    with ThreadPoolExecutor(workers) as pool:
        for _ in range(6):
            list(pool.map(both, range(workers * 2)))
        timed = list(pool.map(both, range(30)))
    return {"search ms": round(statistics.median(t[0] for t in timed) * 1000, 1),
            "filter page ms": round(statistics.median(t[1] for t in timed) * 1000, 1),
            "listener page ms": round(statistics.median(t[2] for t in timed) * 1000, 1)}


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(child) for child in found]


def _memory(pid: int) -> dict:
    """RSS and PSS of one process in MB, from /proc/<pid>/smaps_rollup."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        fields[name.rstrip(":")] = int(value) / 1024
    return {"rss": round(fields["Rss"]), "pss": round(fields["Pss"])}


def _clear_files(size: int) -> None:
    """Every index and snapshot file under the size's DATA_DIR: each code under test writes its own."""
    for name in ("vectors", "shared", "snapshots", "lexical"):
        shutil.rmtree(data_dir(size) / name, ignore_errors=True)


def run(size: int, workers: list[int], baseline: str | None, reuse: bool, current: bool = True) -> dict:
    """Every figure of one size."""
    from core.db import embedded

    key = data_dir(size) / "bench-key"
    token = key.read_text() if reuse and key.exists() else build(size)
    uri = open_database(size)
    figures = {}
    try:
        codes = {"after": ROOT} if current else {}
        if baseline:
            worktree = Path("/tmp/mem-before")
            subprocess.run(["git", "worktree", "add", "--force", str(worktree), baseline], cwd=ROOT, check=True)
            codes["before"] = worktree
        try:
            for label, code in codes.items():
                _clear_files(size)
                index_files(code, size, uri)
                figures[label] = []
                for count in workers:  # each count said as it is measured: a later one may fail
                    figures[label].append(measure(code, size, count, uri, token))
                    print(label, json.dumps(figures[label][-1]), flush=True)
        finally:
            if baseline:
                subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT, check=True)
    finally:
        embedded.stop(data_dir(size))
    return figures


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--baseline", help="a commit to measure too (today's code before a change)")
    parser.add_argument("--reuse", action="store_true", help="keep the database a previous run built")
    parser.add_argument("--baseline-only", action="store_true", help="measure only the baseline commit")
    args = parser.parse_args(argv)
    found = json.loads(OUT.read_text()) if OUT.exists() else {}
    for size in args.sizes:
        figures = run(size, args.workers, args.baseline, args.reuse, current=not args.baseline_only)
        found[str(size)] = {**found.get(str(size), {}), **figures}
        OUT.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
