"""How right search is: `python -m bench.search_quality [--listeners 20000] [--seed 7]`.

On a fresh embedded database of its own (DATA_DIR bench/data/search_quality, wiped first) with the demo station seeded
and embedded, every query of the labelled set (bench/search_queries.json: structured, message themes, mixed, and in
isiZulu, isiXhosa, Sesotho and Afrikaans) is run four ways: the full pipeline (`search_listeners` at the defaults),
dense alone with the raw similarity (the behaviour before issue 23), dense alone with the station's calibrated score,
and the understood part alone (the full answer when no free text was left, else nothing); and, to tell a ranking
from its scale, the full pipeline and dense alone at min_score 0 (diagnostics). Per query: precision,
recall (of at most `limit` relevant listeners) and nDCG@10; means overall, per kind, per language and on the held-out
queries; the median latency of the full pipeline. Then the station's calibration on held-out labelled queries (its
own labelled queries split in two, each half fitted and read on the other) and custom segments and audiences from
five themes (precision of members carrying the theme). Tables are printed; figures go to
measured/search_quality.json. Look-alikes are measured by bench.lookalikes.

`--station other` measures the same way on Mokgosi FM (bench.other_station, company 2, seed 2027), a station
nobody tuned for: its files (bench/data/other, written when missing) imported through the ingest path, segmented
and embedded in a database of its own (bench/data/search_quality-other), its queries and themes
(bench/other_station/queries.json) answered from the generator's truth; figures go to
measured/search_quality-other[-<listeners>].json.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from bench.search_labels import LABELLED, Query, Truth, labelled_set, ndcg, precision, recall

DATA = Path("bench/data/search_quality")
NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)
COMPANY, MIN_SCORE, LIMIT = 1, 0.68, 100
METHODS = ("full pipeline", "dense alone", "lexical alone", "rrf", "understood only", "dense raw (before)",
           "full, min_score 0")
"""The full pipeline: understood asks met exactly, free text ranked by the learned combination of meaning and words.
Dense alone, lexical alone and rrf replace only that combination (each calibrated the same way, on the same labelled
queries of the station); dense raw is search before issue 23 (the whole query by meaning, raw similarity). The last
is a diagnostic, not an answer anyone gets: how good the ranking is before any score cuts it."""
BANDS = ((0.0, 0.3), (0.3, 0.5), (0.5, 0.68), (0.68, 0.8), (0.8, 1.01))
AUDIENCE_LIMIT = 500
OTHER_DATA, OTHER_QUERIES = Path("bench/data/other"), Path("bench/other_station/queries.json")
SEEDS = {"demo": 7, "other": 2027}


def use_station(station: str) -> None:
    """Point the run at the demo (company 1) or at Mokgosi FM (company 2, a database folder of its own)."""
    global COMPANY, DATA
    if station == "other":
        COMPANY, DATA = 2, Path("bench/data/search_quality-other")


def open_station(listeners: int, seed: int, reuse: bool, station: str = "demo") -> dict:
    """A database of its own with the station seeded (the demo) or imported (`other`) and every listener embedded
    (`reuse`: the one a previous run left, as it is)."""
    from core.config import Settings
    from core.credits.ledger import load
    from core.demo.seed import seed_demo
    from core.search.models import SearchCalibration
    from core.search.process_indexes import current_index
    from core.search.vectors import refresh_embeddings
    from core.service import startup

    if not reuse:
        shutil.rmtree(DATA, ignore_errors=True)
    startup.start(Settings(data_dir=DATA.resolve(), database_name="bench_search_quality", auto_embed=False))
    timings = {}
    if not reuse:
        started = time.perf_counter()
        if station == "other":
            from bench.other_station.load import load_station

            load_station(COMPANY, OTHER_DATA, listeners, seed)
        else:
            seed_demo(COMPANY, listeners, seed=seed, now=NOW)
        timings["seed s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    refresh_embeddings(COMPANY)  # reused: only what changed (texts kept since)
    current_index(COMPANY)
    SearchCalibration.objects(company_id=COMPANY).delete()  # reused: the fit is made again by the code measured
    timings["embed s"] = round(time.perf_counter() - started, 1)
    load(COMPANY, 1000, note="bench")
    return timings


class Alternative:
    """A way to score pooled candidates other than the learned combination, calibrated on the same labelled
    queries: `raw` maps an Evidence to a value, higher more relevant."""

    def __init__(self, raw, found, relevant):
        from core.calibration import calibrate

        self.raw = raw
        self.calibration = calibrate(np.concatenate([raw(e) for e in found]), np.concatenate(relevant))

    def scores(self, evidence) -> np.ndarray:
        return self.calibration.confidences(self.raw(evidence))


def alternatives(sel, model) -> dict:
    """Dense alone, lexical alone and reciprocal rank fusion, each calibrated on the station's labelled queries."""
    from core.search import calibration
    from core.search.lexical_store import current_lexical
    from core.search.process_indexes import current_index
    from core.search.vocabulary import vocabulary_of

    index = current_index(COMPANY)
    queries = calibration.labelled_queries(vocabulary_of(sel), sel.snap, sel.company.timezone)
    vectors = model.embed([q.text for q in queries], kind="query")
    found, relevant = pooled(queries, vectors, index, current_lexical(COMPANY, index),
                             index.ids_of(sel.snap.originators))
    return {"dense alone": Alternative(lambda e: e.similarity, found, relevant),
            "lexical alone": Alternative(lambda e: e.lexical + 1e-6 * e.similarity, found, relevant),
            "rrf": Alternative(lambda e: e.rrf(), found, relevant)}


def pooled(queries, vectors, index, lexical, row_ids, top: int = 200) -> tuple[list, list]:
    """The labelled queries as the baselines read them: the `top` best by meaning and by words pooled over every
    listener with a vector, evidence or not (search before answers needed evidence)."""
    from core.search.fusion import gather

    rows = np.flatnonzero(row_ids >= 0)
    found = [gather(rows, row_ids[rows], index, lexical, vector, query.text, top)
             for query, vector in zip(queries, vectors)]
    return found, [query.holders[e.rows] for query, e in zip(queries, found)]


def ground_of(sel, model):
    """What the station's labelled queries run over, as the search's calibration runs them."""
    from core.search import calibration
    from core.search.lexical_store import current_lexical
    from core.search.meaning import meanings
    from core.search.process_indexes import current_index
    from core.search.search import look_at, score_map
    from core.search.vocabulary import vocabulary_of

    index, look = current_index(COMPANY), look_at(sel)
    floors = score_map(sel, model, look).floors
    return calibration.Ground(sel.snap, sel.company.timezone, index, current_lexical(COMPANY, index),
                              index.ids_of(sel.snap.originators),
                              meanings(COMPANY, model, vocabulary_of(sel), floors), model)


def ranked_by(asked, text: str, vector: np.ndarray, scorer) -> np.ndarray:
    """The rows an alternative scorer returns for free text among the asked listeners, at the defaults."""
    from core.search.fusion import DEPTH, gather
    from core.search.lexical_store import current_lexical
    from core.search.process_indexes import current_index

    index = current_index(COMPANY)
    ids = index.ids_of(asked.snap.originators)[asked.rows]
    evidence = gather(asked.rows[ids >= 0], ids[ids >= 0], index, current_lexical(COMPANY, index), vector, text,
                      DEPTH)
    scores = scorer.scores(evidence)
    order = np.lexsort((-evidence.similarity, -scorer.raw(evidence)))
    return evidence.rows[order[scores[order] >= MIN_SCORE][:LIMIT]]


def rank(sel, vector: np.ndarray, limit: int, min_score: float) -> np.ndarray:
    """Search before issue 23, the baseline "dense raw": the `limit` best of the selected rows with a vector by raw
    similarity, at `min_score` or more."""
    from core.search.index import similarity_of
    from core.search.search import look_at

    look = look_at(sel)
    ids = look.ids_of(sel.rows)
    rows, ids = sel.rows[ids >= 0], ids[ids >= 0]
    cosines, found = look.index.search(vector, limit, ids)
    keep = similarity_of(cosines) >= min_score
    position = dict(zip(ids.tolist(), rows.tolist()))
    return np.array([position[i] for i in found[keep].tolist()], dtype=np.int64)


def methods_of(query: Query, sel, model, others: dict) -> tuple[dict[str, np.ndarray], dict, float]:
    """The rows each method returns for the query, how the full pipeline understood it, and its milliseconds."""
    from core.explore.filters import ListenerFilter
    from core.search.queries import understand
    from core.search.search import search_listeners, within
    from core.search.vocabulary import vocabulary_of

    started = time.perf_counter()
    answer = search_listeners(COMPANY, query.q, ListenerFilter(), min_score=MIN_SCORE, limit=LIMIT)
    ms = (time.perf_counter() - started) * 1000
    full = np.array([sel.snap.row_of(r["originator"]) for r in answer["results"]], dtype=np.int64)
    understood = understand(vocabulary_of(sel), query.q)
    vector = model.embed([understood.ranked_text], kind="query")[0]
    unscored = search_listeners(COMPANY, query.q, ListenerFilter(), min_score=0.0, limit=LIMIT)["results"]
    rows = {"full pipeline": full}
    for name, scorer in others.items():
        rows[name] = ranked_by(within(sel, understood), understood.ranked_text, vector, scorer) \
            if understood.free_text or not understood.asks else full
    rows |= {"understood only": full if not answer["understood"]["free_text"] else full[:0],
             "dense raw (before)": rank(sel, model.embed([query.q], kind="query")[0], LIMIT, MIN_SCORE),
             "full, min_score 0": np.array([sel.snap.row_of(r["originator"]) for r in unscored], dtype=np.int64)}
    return rows, answer["understood"], ms


def run_queries(queries: list[Query], truth: Truth) -> tuple[list[dict], list[float]]:
    """Every query run every way: one row per (query, method), and the full pipeline's milliseconds."""
    from core.explore.filters import ListenerFilter
    from core.explore.operations import select
    from core.search.embeddings import embedder

    sel, model = select(COMPANY, ListenerFilter()), embedder()
    others = alternatives(sel, model)
    methods_of(queries[0], sel, model, others)  # the first search of a process loads the model and the station's fit
    rows, latencies = [], []
    for query in queries:
        relevant = truth.mask(query.answer)
        returned, understood, ms = methods_of(query, sel, model, others)
        latencies.append(ms)
        for method, found in returned.items():
            rows.append({"id": query.id, "q": query.q, "kind": query.kind, "language": query.language,
                         "held_out": query.held_out, "method": method, "relevant": int(relevant.sum()),
                         "returned": len(found), "precision": precision(found, relevant),
                         "recall": recall(found, relevant, LIMIT), "ndcg10": ndcg(found, relevant),
                         "p10": precision(found[:10], relevant),
                         "understood": understood})
    return rows, latencies


def means(rows: list[dict]) -> dict:
    """Mean precision, recall, nDCG@10 and answer size of these query rows."""
    return {"queries": len(rows), **{key: round(statistics.fmean(r[key] for r in rows), 3) if rows else None
                                     for key in ("precision", "recall", "ndcg10", "p10", "returned")}}


def groups(rows: list[dict]) -> dict[str, list[dict]]:
    """The query rows of each group the report compares: all, held out, each kind, each language."""
    found = {"all": rows, "held out": [r for r in rows if r["held_out"]]}
    for key in ("kind", "language"):
        for value in dict.fromkeys(r[key] for r in rows):
            found[f"{key}: {value}"] = [r for r in rows if r[key] == value]
    return found


def nobody(rows: list[dict]) -> dict[str, str]:
    """Each method on the queries nobody at the station answers: how many of them it answered with nothing (the
    right answer; their precision is 0 by the table's rule for an empty answer)."""
    none = [r for r in rows if r["relevant"] == 0]
    return {m: f"{sum(r['returned'] == 0 for r in none if r['method'] == m)} of "
               f"{sum(r['method'] == m for r in none)}" for m in METHODS} if none else {}


def summary(rows: list[dict]) -> dict[str, dict[str, dict]]:
    """Group -> method -> means."""
    return {name: {m: means([r for r in part if r["method"] == m]) for m in METHODS}
            for name, part in groups(rows).items()}


def reliability() -> dict:
    """What a score is worth on the station's own labelled queries (core.search.calibration: its values, answered by
    who holds or wrote them, and its listeners' words, answered by who wrote them), run as search runs free words:
    the share relevant among answers scoring 0.68 or more, and per score band."""
    from core.explore.filters import ListenerFilter
    from core.explore.operations import select
    from core.search import calibration
    from core.search.embeddings import embedder
    from core.search.evidence import scores as evidence_scores
    from core.search.vocabulary import vocabulary_of

    sel, model = select(COMPANY, ListenerFilter()), embedder()
    ground = ground_of(sel, model)
    held = calibration.written(ground)
    queries = calibration.with_writers(calibration.labelled_queries(vocabulary_of(sel), sel.snap,
                                                                     sel.company.timezone), ground, held,
                                       vocabulary_of(sel))
    queries += calibration.said_queries(ground, vocabulary_of(sel), held)
    vectors = model.embed([q.text for q in queries], kind="query")
    found, right = calibration.measured(queries, vectors, ground)
    scores = np.concatenate([evidence_scores(e.coverage, e.lexical) for e in found]) if found else np.zeros(0)
    relevant = np.concatenate(right) if right else np.zeros(0, dtype=bool)
    kept = scores >= MIN_SCORE
    bands = [{"score": f"{low:.2f}-{min(high, 1):.2f}" if low else f"<{high:.2f}", "results": int(inside.sum()),
              "share relevant": round(float(relevant[inside].mean()), 3) if inside.any() else None}
             for low, high in BANDS for inside in [(scores >= low) & (scores < high)]]
    words = sum(q.field == calibration.SAID for q in queries)
    return {"labelled queries": len(queries), "of words": words, "results read": len(scores),
            "at or above 0.68": int(kept.sum()),
            "share relevant at or above 0.68": round(float(relevant[kept].mean()), 3) if kept.any() else None,
            "bands": bands}


def theme_answers(segments: list[dict], truth: Truth) -> list[dict]:
    """Each theme as a custom segment (limit 100) and as a saved audience (limit 500): members, and the share of
    them carrying the theme."""
    from core.audiences.custom import custom_segment
    from core.audiences.store import create_audience, delete_audience

    out = []
    for n, segment in enumerate(segments):
        relevant = truth.mask(segment["answer"])
        found = custom_segment(COMPANY, segment["theme"], limit=LIMIT)
        audience = create_audience(COMPANY, f"bench theme {n} {time.time_ns()}", segment["theme"],
                                   limit=AUDIENCE_LIMIT)
        delete_audience(COMPANY, audience["audience_id"])
        for kind, members, limit in (("custom segment", found["members"], LIMIT),
                                     ("audience", audience["members"], AUDIENCE_LIMIT)):
            rows = _rows_of(truth.snap, members)
            out.append({"theme": segment["theme"], "answer": kind, "carrying the theme": int(relevant.sum()),
                        "members": len(rows), "precision": round(precision(rows, relevant), 3),
                        "recall": round(recall(rows, relevant, limit), 3)})
    return out


def _rows_of(snap, members: list[dict]) -> np.ndarray:
    return np.array([snap.row_of(m["originator"]) for m in members], dtype=np.int64)


def compact(table: dict[str, dict[str, dict]]) -> list[dict]:
    """One row per group, one "precision / recall / nDCG@10" column per method."""
    return [{"queries": name, "n": parts[METHODS[0]]["queries"],
             **{method: f"{m['precision']:.2f} / {m['recall']:.2f} / {m['ndcg10']:.2f}" for method, m in parts.items()}}
            for name, parts in table.items()]


def overall(table: dict[str, dict[str, dict]], latencies: list[float]) -> list[dict]:
    """The methods on every query, with the full pipeline's median latency."""
    out = []
    for method, m in table["all"].items():
        out.append({"method": method, "queries": m["queries"], "precision": m["precision"], "recall": m["recall"],
                    "nDCG@10": m["ndcg10"], "P@10": m["p10"], "mean returned": m["returned"],
                    "median ms": f"{statistics.median(latencies):.0f}" if method == METHODS[0] else "-"})
    return out


def by_query(rows: list[dict]) -> list[dict]:
    """The query rows as kept: each query once, with how it was understood and each method's figures."""
    out: dict[str, dict] = {}
    for r in rows:
        query = out.setdefault(r["id"], {key: r[key] for key in ("id", "q", "kind", "language", "held_out",
                                                                "relevant", "understood")} | {"methods": {}})
        query["methods"][r["method"]] = {"returned": r["returned"], **{key: round(r[key], 3) for key in
                                                                       ("precision", "recall", "ndcg10")}}
    return list(out.values())


def per_query(queries: list[dict]) -> list[dict]:
    """The full pipeline on each query: how it was understood and how right it was."""
    return [{"id": q["id"], "q": q["q"], "understood": _criteria(q["understood"]),
             "free text": q["understood"]["free_text"] or "-", "relevant": q["relevant"], "returned": m["returned"],
             "P": f"{m['precision']:.2f}", "R": f"{m['recall']:.2f}", "nDCG": f"{m['ndcg10']:.2f}"}
            for q in queries for m in [q["methods"][METHODS[0]]]]


def _criteria(understood: dict) -> str:
    return " · ".join(f"{c['field']}: {', '.join(map(str, c['values']))}" for c in understood["criteria"]) or "-"


def measure(listeners: int, seed: int, reuse: bool = False, station: str = "demo") -> dict:
    """Every figure of the benchmark on a station of `listeners` (the demo, or `other`: Mokgosi FM)."""
    from core.explore.filters import ListenerFilter
    from core.explore.operations import select
    from core.listeners.events import load_events
    from core.search.texts import latest_messages

    other = station == "other"
    timings = open_station(listeners, seed, reuse, station)
    queries, themes, segments = labelled_set(OTHER_QUERIES if other else LABELLED)
    sel = select(COMPANY, ListenerFilter())
    truth = Truth(sel.snap, sel.company.timezone, latest_messages(COMPANY, None), themes, load_events(COMPANY),
                  base=OTHER_DATA if other else None)
    rows, latencies = run_queries(queries, truth)
    return {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "listeners": listeners, "seed": seed,
            "station": sel.company.name if other else "the demo station",
            "min_score": MIN_SCORE, "limit": LIMIT, **timings, "median_ms": round(statistics.median(latencies), 1),
            "summary": summary(rows), "nobody": nobody(rows), "queries": by_query(rows), "calibration": reliability(),
            "themes": theme_answers(segments, truth)}


def report(figures: dict) -> str:
    """The Markdown tables of the figures."""
    from bench.station import markdown

    table = figures["summary"]
    calibration = figures["calibration"]
    return "\n\n".join([
        f"Search quality on {figures.get('station', 'the demo station')} ({figures['listeners']:,} listeners, "
        f"seed {figures['seed']}), "
        f"min_score {figures['min_score']}, limit {figures['limit']}:",
        markdown(overall(table, [figures["median_ms"]])),
        "Precision / recall / nDCG@10 by group:", markdown(compact(table)),
        "Queries nobody at the station answers, answered with nothing: "
        + ("; ".join(f"{m} {n}" for m, n in figures.get("nobody", {}).items()) or "none in the set") + ".",
        "The full pipeline, query by query:", markdown(per_query(figures["queries"])),
        f"What a score is worth on the station's own labelled queries ({calibration['labelled queries']}, "
        f"{calibration['of words']} of them listeners' own words, run as search runs free words): "
        f"{calibration['at or above 0.68']:,} of {calibration['results read']:,} answers at 0.68 or more, "
        f"{calibration['share relevant at or above 0.68']} of them relevant.",
        markdown(calibration["bands"]),
        "Custom segments (limit 100) and audiences (limit 500) from a theme:", markdown(figures["themes"])])


MEANINGS = ("both", "model", "list")


def meaning_by(way: str) -> None:
    """Free words reach the station's values by the model and the hand-kept list (the service), or by one alone:
    the other is switched off in this process, for the measurement only."""
    from core.search import meaning, vocabulary

    if way == "model":
        vocabulary._related_terms = lambda vocab, taken: []
    elif way == "list":
        meaning.Meanings.meant = lambda self, vectors: [[] for _ in range(len(vectors))]


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    from core import measured

    parser = argparse.ArgumentParser(prog="python -m bench.search_quality", description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=20_000)
    parser.add_argument("--seed", type=int, help="default 7 for the demo, 2027 for the other station")
    parser.add_argument("--station", choices=tuple(SEEDS), default="demo",
                        help="other: Mokgosi FM (bench.other_station), a station nobody tuned for")
    parser.add_argument("--reuse", action="store_true",
                        help="the station a previous run left in bench/data/search_quality[-other], as it is")
    parser.add_argument("--meaning", choices=MEANINGS, default="both",
                        help="how free words reach the station's values: the model and the list (the service), "
                             "or one of them alone (to measure what each does)")
    args = parser.parse_args(argv)
    use_station(args.station)
    meaning_by(args.meaning)
    seed = SEEDS[args.station] if args.seed is None else args.seed
    try:
        figures = measure(args.listeners, seed, args.reuse, args.station)
    finally:
        from core.db import embedded

        embedded.stop(DATA.resolve())
    print(report(figures))
    name = "search_quality" + ("-other" if args.station == "other" else "")
    name += "" if args.listeners == 20_000 else f"-{args.listeners}"
    name += "" if args.meaning == "both" else f"-{args.meaning}"
    print(f"\nwritten to {measured.write(name, figures)}")


if __name__ == "__main__":
    main()
