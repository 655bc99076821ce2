"""Search benchmarks. In `bench.run` (after segmentation): embedding a station from nothing and again after 1% of
its listeners changed, search latency through the API (query embedding included) unfiltered and with three filters,
the index's size. Alone, `python -m bench.search --recall 1000000`: the approximate index (HNSW) against exact search
on synthetic unit vectors, recall@100 (unfiltered and with a quarter of the vectors allowed) and median query time;
`python -m bench.search --embeddings 100000`: the embedding benchmark again on the station bench.run left.
"""
from __future__ import annotations

import argparse
import statistics
import time
import uuid

import numpy as np

from bench.station import client as station_client

QUERIES = ("gospel lovers who enter competitions on WhatsApp", "soccer fans who text in the morning",
           "young listeners who request amapiano songs", "people asking about jobs and money",
           "listeners who send shoutouts to their family", "afternoon drive listeners in Durban",
           "isiZulu speakers who love the breakfast show")
FILTERED = {"gender": "female", "age_group": "25-34", "segment": "occasional_engager"}
TOUCHED_SHARE = 0.01


def bench_embeddings(ctx) -> dict:
    """Every listener embedded and indexed from nothing; then 1% of them given a new message by a live batch and
    embedded again (only those whose text changed)."""
    from core.ingest.live import record_interactions
    from core.listeners import snapshot
    from core.search import process_indexes, vectors

    started = time.perf_counter()
    first = vectors.refresh_embeddings(ctx.company_id)
    process_indexes.current_index(ctx.company_id)
    from_nothing = time.perf_counter() - started
    everyone = snapshot.current(ctx.company_id).originators
    touched = everyone[:: int(1 / TOUCHED_SHARE)].tolist()
    run = uuid.uuid4().hex[:8]  # a new message on every run: the same one again is a duplicate and changes no text
    rows = [{"company_id": ctx.company_id, "originator": o, "timestamp": ctx.now.isoformat(), "channel_type": 2,
             "campaign_type": "shoutout",
             "message": f"Greetings to the whole team at work number {i} ({run})"} for i, o in enumerate(touched)]
    for start in range(0, len(rows), 1000):
        record_interactions(ctx.company_id, rows[start:start + 1000], now=ctx.now)  # the rows are dated ctx.now
    started = time.perf_counter()
    again = vectors.refresh_embeddings(ctx.company_id, touched)
    process_indexes.current_index(ctx.company_id)
    after_touch = time.perf_counter() - started
    return {"embedded": f"{first['embedded']:,}", "distinct texts": f"{first['texts']:,}",
            "embed+index from nothing s": f"{from_nothing:.1f}",
            "listeners/s": f"{first['embedded'] / from_nothing:.0f}",
            f"re-embed after {TOUCHED_SHARE:.0%} touched s": f"{after_touch:.1f} ({again['embedded']:,})"}


def bench_search(ctx) -> dict:
    """Median answer of GET search (the query embedded each time), unfiltered and with three filters, and the
    size of the company's index."""
    from core.search import process_indexes, vectors

    client, headers = station_client(ctx)
    url = f"/api/v1/segments/{ctx.company_id}/search"
    started = time.perf_counter()
    client.get(url, query_string={"q": "warm up"}, headers=headers)  # loads the model, reads the texts, builds BM25
    medians = {"first search of the process s": f"{time.perf_counter() - started:.1f}"}
    for label, extra in (("search ms", {}), ("search 3 filters ms", FILTERED)):
        timings = []
        for query in QUERIES:
            started = time.perf_counter()
            answer = client.get(url, query_string={"q": query, **extra}, headers=headers)
            timings.append(time.perf_counter() - started)
            assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        medians[label] = f"{statistics.median(timings) * 1000:.0f}"
    index = process_indexes.current_index(ctx.company_id)
    pointer = process_indexes._path(ctx.company_id, vectors.embedder().name)  # the data file is named by its checksum
    size = sum(path.stat().st_size for path in pointer.parent.glob(f"{pointer.stem}-*.faiss"))
    return {**medians, "index MB": f"{size / 1e6:.0f}", "index kind": "HNSW" if index.approximate else "exact"}


def recall(n: int, dim: int = 384, queries: int = 200, k: int = 100, seed: int = 7) -> dict:
    """HNSW against exact search over n synthetic unit vectors drawn around 1,000 centres (listeners resemble each
    other in groups, as real ones do), queried with new vectors drawn the same way (a listener who is not indexed).

    The first version added noise of 0.3 per dimension to unit vectors (a norm of 5.9 against the signal's 1), so its
    queries were random directions with no near neighbours, and measured recall@100 at 0.276."""
    from core.search.index import VectorIndex

    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(1000, dim)).astype(np.float32)

    def draw(count: int) -> np.ndarray:
        points = centres[rng.integers(0, 1000, size=count)]
        points += rng.normal(scale=0.8, size=points.shape).astype(np.float32)
        return points / np.linalg.norm(points, axis=1, keepdims=True)

    data = np.concatenate([draw(min(100_000, n - start)) for start in range(0, n, 100_000)])
    names, everyone = [str(i) for i in range(n)], np.arange(n)
    exact, approximate = VectorIndex(dim, False), VectorIndex(dim, True)
    exact.upsert(names, data)
    started = time.perf_counter()
    approximate.upsert(names, data)
    built = time.perf_counter() - started
    quarter = np.sort(rng.choice(n, size=n // 4, replace=False))  # a filter that lets a quarter through
    hits, filtered_hits, exact_s, approximate_s = [], [], [], []
    for probe in draw(queries):
        started = time.perf_counter()
        truth = set(exact.search(probe, k, everyone)[1].tolist())
        exact_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        found = approximate.search(probe, k, everyone)[1]
        approximate_s.append(time.perf_counter() - started)
        hits.append(len(truth & set(found.tolist())) / k)
        truth = set(exact.search(probe, k, quarter)[1].tolist())
        filtered_hits.append(len(truth & set(approximate.search(probe, k, quarter)[1].tolist())) / k)
    return {"vectors": f"{n:,}", "HNSW build s": f"{built:.0f}", f"recall@{k}": f"{np.mean(hits):.3f}",
            f"recall@{k}, a quarter allowed": f"{np.mean(filtered_hits):.3f}",
            "HNSW query ms": f"{statistics.median(approximate_s) * 1000:.1f}",
            "exact query ms": f"{statistics.median(exact_s) * 1000:.1f}"}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    from bench.station import markdown

    parser = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__.splitlines()[0])
    parser.add_argument("--recall", type=int, nargs="*", default=[1_000_000], help="numbers of vectors")
    parser.add_argument("--embeddings", type=int, metavar="SIZE",
                        help="instead: embed again from nothing the station bench.run left at this size")
    parser.add_argument("--serving", type=int, metavar="SIZE",
                        help="instead: search the station bench.run left through the API, in a fresh process, and "
                             "report the process's peak resident memory (a server with the station loaded)")
    args = parser.parse_args(argv)
    if args.serving:
        print(markdown([{"size": f"{args.serving:,}", **serving(args.serving)}]))
    elif args.embeddings:
        print(markdown([{"size": f"{args.embeddings:,}", **embed_again(args.embeddings)}]))
    else:
        print(markdown([recall(n) for n in args.recall]))


def serving(size: int) -> dict:
    """bench_search in a process that has done nothing else, and its peak RSS after it (snapshot, index, model)."""
    import resource

    from bench.station import existing_station

    found = bench_search(existing_station(size))
    return {**found, "process peak RSS MB": f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}"}


def embed_again(size: int) -> dict:
    """bench_embeddings on an existing station, after forgetting every vector it has."""
    from bench.station import existing_station
    from core.search import process_indexes
    from core.search.models import EmbeddingCounter, ListenerEmbedding

    ctx = existing_station(size)
    ListenerEmbedding.objects(company_id=ctx.company_id).delete()
    EmbeddingCounter.objects(company_id=ctx.company_id).delete()
    process_indexes.forget_indexes()
    for path in (ctx.settings.data_dir / "vectors").glob("*"):
        path.unlink()
    return bench_embeddings(ctx)


if __name__ == "__main__":
    main()
