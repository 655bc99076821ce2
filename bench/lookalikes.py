"""How far look-alike scores can be trusted: `python -m bench.lookalikes [--listeners 20000] [--seed 7] [--vectors]`.

On a fresh embedded database of its own (DATA_DIR bench/data/lookalikes-<listeners>, wiped first; `--reuse` keeps
the one a previous run left) the demo station is seeded and `similar` is asked, as the API asks it, for HELD_OUT
listeners drawn at random among those with interactions and never among the seeds the station's calibration was
fitted on (core.search.lookalike_calibration.seeds_of). Each answer's look-alikes are labelled by the service's own
definition of alike (core.search.lookalike_calibration.alike: the listener's main show, main channel and main
campaign type held, and half their tags and interests) and, stricter, with the same main show as well. In the same
run, the same listeners' look-alikes by other ways: behaviour at the raw similarity, behaviour without tags and
interests (the AI's rows, calibrated the same way), the whole-profile text vectors at the raw similarity (what
`similar` answered before; `--vectors`, which embeds the station first) and the simplest baseline, the listeners of
the same segment with the same main show, most recently active first. Then the reliability table (score band ->
share alike, on the held-out listeners' hundred nearest) and the latency of `similar` (the first call of a process
builds the behaviour rows and fits the calibration; the others are timed one by one); `--latency-at 100000` times
it again, after everything else, on the station's snapshot repeated to that many listeners (the copies' numbers
start with 9 and have no listener documents: only their latency is read). Tables are printed; figures go to
measured/lookalikes.json (lookalikes-<listeners>.json for other sizes).
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)
COMPANY, MIN_SCORE, LIMIT, HELD_OUT, NEAREST = 1, 0.75, 20, 200, 100
DATABASE = "bench_lookalikes"
BANDS = ((0.0, 0.5), (0.5, 0.68), (0.68, 0.75), (0.75, 0.85), (0.85, 0.95), (0.95, 1.01))


def data_dir(listeners: int) -> Path:
    return Path(f"bench/data/lookalikes-{listeners}")


def open_station(listeners: int, seed: int, reuse: bool, vectors: bool) -> dict:
    """A database of its own with the demo station seeded (and embedded, for `vectors`)."""
    from core.config import Settings
    from core.demo.seed import seed_demo
    from core.service import startup

    folder = data_dir(listeners)
    if not reuse:
        shutil.rmtree(folder, ignore_errors=True)
    startup.start(Settings(data_dir=folder.resolve(), database_name=DATABASE, auto_embed=False))
    timings = {}
    if not reuse:
        started = time.perf_counter()
        seed_demo(COMPANY, listeners, seed=seed, now=NOW)
        timings["seed s"] = round(time.perf_counter() - started, 1)
    if vectors:
        from core.search.process_indexes import current_index
        from core.search.vectors import refresh_embeddings

        started = time.perf_counter()
        refresh_embeddings(COMPANY)
        current_index(COMPANY)
        timings["embed s"] = round(time.perf_counter() - started, 1)
    return timings


@dataclass(frozen=True)
class Station:
    """What every method is measured against: the selection, its Behaviour, the fit's seeds and the held-out ones."""

    sel: object
    behaviour: object
    candidates: np.ndarray
    held_out: np.ndarray


def station(count: int = HELD_OUT) -> Station:
    """The station as the service reads it, and `count` listeners with interactions outside the fit's seeds."""
    from core.explore.filters import ListenerFilter
    from core.explore.operations import select
    from core.search.lookalike_calibration import seeds_of
    from core.search.lookalikes import behaviour_of

    sel = select(COMPANY, ListenerFilter())
    behaviour = behaviour_of(sel.snap)
    candidates = np.flatnonzero(sel.mask & behaviour.active)
    rest = np.setdiff1d(candidates, seeds_of(candidates))
    held_out = np.sort(np.random.default_rng(11).choice(rest, min(count, len(rest)), replace=False))
    return Station(sel, behaviour, candidates, held_out)


def by_service(st: Station, limit: int = LIMIT) -> tuple[list[np.ndarray], list[float], float]:
    """`similar` as the API answers it for each held-out listener: the rows returned, each call's milliseconds, and
    the first call's (it builds the behaviour rows and fits the calibration, unless a run before it did)."""
    from core.search import lookalikes

    lookalikes._behaviours.clear()
    lookalikes._fits.clear()
    originators = st.sel.snap.originators
    started = time.perf_counter()
    lookalikes.similar_listeners(COMPANY, str(originators[st.held_out[0]]), min_score=MIN_SCORE, limit=limit)
    first = (time.perf_counter() - started) * 1000
    found, ms = [], []
    for seed in st.held_out.tolist():
        started = time.perf_counter()
        answer = lookalikes.similar_listeners(COMPANY, str(originators[seed]), min_score=MIN_SCORE, limit=limit)
        ms.append((time.perf_counter() - started) * 1000)
        found.append(np.array([st.sel.snap.row_of(r["originator"]) for r in answer["results"]], dtype=np.int64))
    return found, ms, first


def by_matrix(st: Station, matrix: np.ndarray, usable: np.ndarray, calibrated: bool,
              limit: int = LIMIT) -> list[np.ndarray]:
    """Each held-out listener's look-alikes by another representation (unit rows), at the raw similarity or
    calibrated as the service calibrates, on the same seeds."""
    from core.search.lookalike_calibration import fitted, seeds_of
    from core.search.lookalikes import Behaviour, ranked

    candidates = np.intersect1d(st.candidates, np.flatnonzero(usable))
    other = Behaviour(matrix, usable, st.behaviour.traits)
    calibration = fitted(matrix, st.behaviour.traits, candidates, seeds_of(candidates)) if calibrated else None
    mask = np.zeros(len(matrix), dtype=bool)
    mask[candidates] = True
    found = []
    for seed in st.held_out.tolist():
        own = mask[seed]
        mask[seed] = False
        found.append(ranked(other, seed, mask, calibration, MIN_SCORE, limit)[0] if usable[seed] else
                     np.zeros(0, dtype=np.int64))
        mask[seed] = own
    return found


def by_segment_and_show(st: Station, limit: int = LIMIT) -> list[np.ndarray]:
    """The simplest baseline: listeners of the same segment whose main show is the same, most recently active
    first."""
    snap, main_show = st.sel.snap, st.behaviour.traits.main[:, 0]
    segment, last = snap.cols["segment"], snap.cols["last_ts"]
    found = []
    for seed in st.held_out.tolist():
        rows = st.candidates[(segment[st.candidates] == segment[seed]) & (main_show[st.candidates] == main_show[seed])
                             & (st.candidates != seed)]
        found.append(rows[np.argsort(-last[rows], kind="stable")][:limit])
    return found


def text_vectors(st: Station) -> tuple[np.ndarray, np.ndarray]:
    """The station's whole-profile text vectors as one unit row per snapshot row, and who has one."""
    from core.search.process_indexes import current_index

    index = current_index(COMPANY)
    ids = index.ids_of(st.sel.snap.originators)
    matrix = np.zeros((len(ids), index.dim), dtype=np.float32)
    matrix[ids >= 0] = index.vectors_of(ids[ids >= 0])
    return matrix, ids >= 0


def scored(st: Station, found: list[np.ndarray]) -> dict:
    """How alike each held-out listener's look-alikes are: pooled and per listener, by the service's definition and
    with the same main show as well."""
    from core.search.lookalike_calibration import alike

    traits = st.behaviour.traits
    right = [alike(traits, seed, rows) for seed, rows in zip(st.held_out.tolist(), found)]
    strict = [r & (traits.main[rows, 0] == traits.main[seed, 0])
              for seed, rows, r in zip(st.held_out.tolist(), found, right)]
    pooled = np.concatenate(right) if right else np.zeros(0, dtype=bool)
    answered = [r for r in right if len(r)]
    return {"listeners answered": f"{len(answered)} of {len(found)}",
            "look-alikes": int(sum(len(rows) for rows in found)),
            "share alike": round(float(pooled.mean()), 3) if len(pooled) else None,
            "mean share alike per listener": round(statistics.fmean(r.mean() for r in answered), 3)
            if answered else None,
            "share alike, same main show too": round(float(np.concatenate(strict).mean()), 3) if len(pooled)
            else None}


def reliability(st: Station) -> list[dict]:
    """Score band -> share alike, over each held-out listener's NEAREST by behaviour, scored by the station's fit
    (the raw similarity's bands beside it)."""
    from core.search.lookalike_calibration import measured
    from core.search.lookalikes import calibration_for

    calibration = calibration_for(st.sel, st.behaviour)
    sims, right = measured(st.behaviour.matrix, st.behaviour.traits, st.candidates, st.held_out, NEAREST, 0)
    sims, right = np.concatenate(sims), np.concatenate(right)
    scores = calibration.confidences(sims) if calibration is not None else sims
    rows = []
    for low, high in BANDS:
        inside, raw = (scores >= low) & (scores < high), (sims >= low) & (sims < high)
        rows.append({"score": f"{low:.2f}-{min(high, 1):.2f}", "look-alikes": int(inside.sum()),
                     "share alike": round(float(right[inside].mean()), 3) if inside.any() else "-",
                     "raw similarity in band": int(raw.sum()),
                     "share alike at that raw similarity": round(float(right[raw].mean()), 3) if raw.any() else "-"})
    return rows


def latency_at(st: Station, size: int) -> dict:
    """`similar` timed for the held-out listeners on the station's snapshot repeated to `size` listeners, published
    as the station's (the first call builds the rows and fits on all of them)."""
    from core.listeners import snapshot
    from core.search import lookalikes

    snap = st.sel.snap
    copies = [snap] + [renumbered(snap, k) for k in range(1, -(-size // len(snap)))]
    snapshot.publish(snapshot.concat(copies).take(np.arange(size)))
    lookalikes._behaviours.clear()
    lookalikes._fits.clear()
    ms, first = [], None
    for seed in st.held_out.tolist():
        started = time.perf_counter()
        lookalikes.similar_listeners(COMPANY, str(snap.originators[seed]), min_score=MIN_SCORE, limit=LIMIT)
        ms.append((time.perf_counter() - started) * 1000)
        first = ms.pop() if first is None else first
    return {"listeners": size, "first similar ms (builds rows, fits)": round(first),
            "median ms": round(statistics.median(ms), 1), "p95 ms": round(float(np.percentile(ms, 95)), 1)}


def renumbered(snap, copy: int):
    """The snapshot's rows under other numbers: 9, the copy's number, then the originator's last digits."""
    from core.listeners.snapshot import Snapshot

    numbers = np.array([f"9{copy}{o[2:]}" for o in snap.originators.tolist()])
    return Snapshot(snap.company_id, {**snap.cols, "originator": numbers}, snap.vocab, dict(snap.meta))


def measure(listeners: int, seed: int, reuse: bool, vectors: bool, sizes: list[int] = ()) -> dict:
    """Every figure of the benchmark on a station of `listeners`."""
    from core.search.behaviour_vectors import GROUPS, group_counts, weighted

    timings = open_station(listeners, seed, reuse, vectors)
    st = station()
    service, ms, first = by_service(st)
    methods = {"behaviour, calibrated (now)": service,
               "behaviour, calibrated, limit 100": by_service(st, 100)[0],
               "behaviour, raw similarity": by_matrix(st, st.behaviour.matrix, st.behaviour.active, False)}
    rows = weighted([(group_counts(st.sel.snap, group), weight) for group, weight in GROUPS])
    methods["behaviour without tags and interests, calibrated"] = by_matrix(st, rows, st.behaviour.active, True)
    if vectors:
        matrix, usable = text_vectors(st)
        methods["whole-profile text vectors, raw (before)"] = by_matrix(st, matrix, usable, False)
        methods["whole-profile text vectors, calibrated"] = by_matrix(st, matrix, usable, True)
    methods["same segment and main show (baseline)"] = by_segment_and_show(st)
    return {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "listeners": listeners, "seed": seed,
            "min_score": MIN_SCORE, "limit": LIMIT, "held out": len(st.held_out), **timings,
            "methods": {name: scored(st, found) for name, found in methods.items()},
            "reliability": reliability(st),
            "latency": [{"listeners": listeners, "first similar ms (builds rows, fits)": round(first),
                         "median ms": round(statistics.median(ms), 1),
                         "p95 ms": round(float(np.percentile(ms, 95)), 1)},
                        *(latency_at(st, size) for size in sizes)]}


def report(figures: dict) -> str:
    """The Markdown tables of the figures."""
    from bench.station import markdown

    return "\n\n".join([
        f"Look-alikes on the demo station ({figures['listeners']:,} listeners, seed {figures['seed']}), "
        f"{figures['held out']} held-out listeners, min_score {figures['min_score']}, limit {figures['limit']}:",
        markdown([{"method": name, **row} for name, row in figures["methods"].items()]),
        "Reliability on the held-out listeners' nearest by behaviour:", markdown(figures["reliability"]),
        "Latency of similar:", markdown(figures["latency"])])


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    from core import measured

    parser = argparse.ArgumentParser(prog="python -m bench.lookalikes", description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reuse", action="store_true", help="the station a previous run left, as it is")
    parser.add_argument("--vectors", action="store_true", help="embed the station and compare its text vectors")
    parser.add_argument("--latency-at", type=int, nargs="*", default=[],
                        help="also time similar on the station's snapshot repeated to these sizes")
    args = parser.parse_args(argv)
    try:
        figures = measure(args.listeners, args.seed, args.reuse, args.vectors, args.latency_at)
    finally:
        from core.db import embedded

        embedded.stop(data_dir(args.listeners).resolve())
    print(report(figures))
    name = "lookalikes" if args.listeners == 20_000 else f"lookalikes-{args.listeners}"
    print(f"\nwritten to {measured.write(name, figures)}")


if __name__ == "__main__":
    main()
