"""What the lexical index costs: `python -m bench.lexical [--listeners 100000]`.

The texts are the demo station's (bench/data/search_quality, left by `python -m bench.search_quality`), repeated
until there are `--listeners` of them, each with a number of its own appended so that no two are alike (a station's
texts differ by their messages). Measured: tokenising them all (done once, when a vector is written), the first
build, a query's scores over every listener, touching 1% (their texts written again) and building again, and the
memory of the documents (with what each listener said, kept to be shown with results) and of a build
(tracemalloc: what Python and numpy allocate). Figures go to measured/lexical.json.
"""
from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from datetime import UTC, datetime

from bench.search_quality import COMPANY, DATA

QUERIES = ("Jerusalema", "load shedding", "stuck in traffic on the N3", "greetings to my gogo", "Miriam Makeba")


def station_texts() -> list[str]:
    """The bench station's stored texts (what its vectors were made from)."""
    from core.config import Settings
    from core.search.models import ListenerEmbedding
    from core.search.sealed_texts import opened
    from core.service import startup

    startup.start(Settings(data_dir=DATA.resolve(), database_name="bench_search_quality", auto_embed=False))
    stored = list(ListenerEmbedding._get_collection().find({"company_id": COMPANY},
                                                          {"text": 1, "sealed_text": 1, "text_group": 1}))
    return [text for text in opened(stored) if text]


def measure(listeners: int) -> dict:
    """Every figure, on `listeners` texts."""
    from core.search.lexical import LexicalIndex

    base = station_texts()
    texts = [f"{base[n % len(base)]} {n}" for n in range(listeners)]
    index = LexicalIndex()
    started = time.perf_counter()
    put(index, list(range(listeners)), texts)
    tokenised = time.perf_counter() - started
    started = time.perf_counter()
    index._build()
    built = time.perf_counter() - started
    documents, whole = memory(texts)
    query_ms = []
    for query in QUERIES * 5:
        started = time.perf_counter()
        index.shares(query)
        query_ms.append((time.perf_counter() - started) * 1000)
    touched = max(1, listeners // 100)
    started = time.perf_counter()
    put(index, list(range(listeners, listeners + touched)), texts[:touched], dead=list(range(touched)))
    index._build()
    updated = time.perf_counter() - started
    return {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "listeners": listeners,
            "tokenise s": round(tokenised, 2), "build s": round(built, 2), "update 1% s": round(updated, 2),
            "query ms (median)": round(statistics.median(query_ms), 2),
            "documents MB": round(documents / 2**20, 1), "documents and build MB": round(whole / 2**20, 1)}


def put(index, ids: list[int], texts: list[str], dead: list[int] = ()) -> None:
    """The texts into the index as the service puts them (core.search.lexical_store): each as its lexical document,
    with what the listener said kept to be shown with results."""
    from core.search.texts import lexical_document, said_in

    index.put(ids, [lexical_document(t) for t in texts], dead, [said_in(t) for t in texts])


def memory(texts: list[str]) -> tuple[int, int]:
    """Bytes allocated for the documents, and for the documents and a build (measured apart from the timings:
    tracemalloc slows every allocation)."""
    from core.search.lexical import LexicalIndex

    tracemalloc.start()
    index = LexicalIndex()
    put(index, list(range(len(texts))), texts)
    documents = tracemalloc.get_traced_memory()[0]
    index._build()
    whole = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return documents, whole


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    from bench.station import markdown
    from core import measured
    from core.db import embedded

    parser = argparse.ArgumentParser(prog="python -m bench.lexical", description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=100_000)
    args = parser.parse_args(argv)
    try:
        figures = measure(args.listeners)
    finally:
        embedded.stop(DATA.resolve())
    print(markdown([figures]))
    print(f"\nwritten to {measured.write('lexical', figures)}")


if __name__ == "__main__":
    main()
