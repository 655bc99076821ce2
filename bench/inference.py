"""Measure the `local` AI provider's listener inference honestly: `python -m bench.inference [--size 20000] [--seed 7]
[--share 0.2]`.

The demo station is seeded in a database of its own (the embedded server on DATA_DIR `bench/data/inference-<size>`,
or database `bench_inference_<size>` of MONGODB_URI when that is set). Of the listeners who declared gender, age
group, language or location, a random `share` have those values hidden (unset in the database, then a full
segmentation, so that the snapshot no longer holds them either); every one of them is inferred and the inferred
values are compared with the hidden truth. Per field: the accuracy and share of predictions in each confidence band,
the overall accuracy, and the majority-class baseline (always answering the most common declared value). Also: the
share of the hidden listeners whose 9-field profile promotion could complete (the only fields they miss are
inferable ones, and every such value reaches the promotion threshold), and the warm latency of `infer_listener`.
The figures go to `measured/inference.json` (`--out` elsewhere); `--keep` reuses a station prepared earlier with
the same arguments; `--limit` infers only that many of the hidden listeners, evenly spaced (for `--size 100000`).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

import numpy as np

from bench.generate import DEFAULT_NOW, DEFAULT_OUT
from bench.station import markdown
from core.config import Settings
from core.listeners.fields import LSM_LEVELS

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ROOT / "measured" / "inference.json"
COMPANY = 1
HIDDEN = {"gender": "inferred_gender", "age_group": "inferred_age_group", "language": "inferred_language",
          "location": "inferred_location"}
"""The declared fields the bench hides, and the inferred field that must find each again."""
INFERABLE = {"gender", "age", "language", "location"}
"""The completeness fields (missing_fields names) that promotion can fill."""
PROMOTE_AT = 0.70
BANDS = (("<0.5", 0.0, 0.5), ("0.5-0.7", 0.5, PROMOTE_AT), (">=0.7", PROMOTE_AT, 1.01))
LATENCY_CALLS = 200


def _database(size: int, data: Path, keep: bool) -> Settings:
    """Connect to this size's own database (emptied unless kept)."""
    from core.db import connection as database
    from core.db import embedded as embedded_db
    from core.service import startup

    uri = os.environ.get("MONGODB_URI") or None
    run_dir = data / f"inference-{size}"
    if uri is None and not keep:
        embedded_db.stop(run_dir)
        shutil.rmtree(run_dir, ignore_errors=True)
    settings = Settings(mongodb_uri=uri, data_dir=run_dir, database_name=f"bench_inference_{size}", auto_embed=False)
    if not keep:
        database.connect(settings).client.drop_database(settings.database_name)
    startup.start(settings)
    return settings


def _marker(settings: Settings) -> Path:
    return Path(settings.data_dir) / "prepared.json"


def prepare(size: int, seed: int, share: float, settings: Settings, keep: bool) -> dict:
    """Seed the demo station and hide a share of its declared values; returns {originator: {field: hidden value}}."""
    marker = _marker(settings)
    wanted = {"size": size, "seed": seed, "share": share}
    if keep and marker.exists():
        saved = json.loads(marker.read_text())
        if saved["arguments"] == wanted:
            return saved["hidden"]
    from core.demo.seed import seed_demo
    from core.segmentation.runs import segment_company

    now = datetime.fromisoformat(DEFAULT_NOW)
    started = time.perf_counter()
    seed_demo(COMPANY, size, seed, now)
    print(f"  seeded {size:,} listeners in {time.perf_counter() - started:.0f}s", flush=True)
    hidden = hide(share, seed)
    segment_company(COMPANY, now)
    Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"arguments": wanted, "hidden": hidden}))
    return hidden


def hide(share: float, seed: int) -> dict:
    """Unset the declared gender, age group, language and location of a random share of the listeners who gave
    any of them; returns what was hidden."""
    from core.listeners import sealed_writes
    from core.listeners.declared import read_listeners

    shown = {"_id": 0, "originator": 1, **dict.fromkeys(HIDDEN, 1)}
    docs = sorted((d for d in read_listeners(COMPANY, projection=shown) if any(d.get(name) for name in HIDDEN)),
                  key=lambda d: d["originator"])
    rng = np.random.default_rng(seed)
    chosen = [docs[i] for i in np.sort(rng.choice(len(docs), size=int(round(share * len(docs))), replace=False))]
    hidden = {d["originator"]: {name: d[name] for name in HIDDEN if d.get(name)} for d in chosen}
    sealed_writes.edit(COMPANY, dict.fromkeys(hidden, lambda _: dict.fromkeys(HIDDEN)))  # None: unset
    return hidden


def infer_all(originators: list[str]) -> tuple[dict, list[float]]:
    """Every hidden listener inferred (caches warm after the first); and the seconds of each call."""
    from core.ai.local import infer_listener

    answers, seconds = {}, []
    for originator in originators:
        started = time.perf_counter()
        answers[originator] = infer_listener(COMPANY, originator)["values"]
        seconds.append(time.perf_counter() - started)
    return answers, seconds


def baseline(field: str, hidden: dict) -> tuple[str, float]:
    """The most common value among the listeners who still declare the field, and how often it is right for the
    hidden ones."""
    from core.listeners import snapshot

    snap = snapshot.current(COMPANY)
    codes = snap.cols[field][snap.cols[field] >= 0]
    majority = snap.vocab[field][int(np.bincount(codes).argmax())]
    truths = [values[field] for values in hidden.values() if field in values]
    return majority, sum(t == majority for t in truths) / len(truths)


def field_figures(field: str, hidden: dict, answers: dict) -> dict:
    """Accuracy per confidence band, overall, and against the majority baseline, for one hidden field."""
    pairs = [(answers[o][HIDDEN[field]], values[field]) for o, values in hidden.items() if field in values]
    majority, base = baseline(field, hidden)
    bands = {}
    for name, low, high in BANDS:
        inside = [(a, t) for a, t in pairs if a and a["confidence"] is not None and low <= a["confidence"] < high]
        bands[name] = {"share": round(len(inside) / len(pairs), 3),
                       "accuracy": round(sum(a["value"] == t for a, t in inside) / len(inside), 3) if inside else None,
                       "confidence": round(statistics.mean(a["confidence"] for a, _ in inside), 3) if inside else None}
    thin = [(a, t) for a, t in pairs if a and a["confidence"] is None]  # given without a confidence
    bands["not enough evidence"] = {"share": round(len(thin) / len(pairs), 3), "confidence": None,
                                    "accuracy": round(sum(a["value"] == t for a, t in thin) / len(thin), 3)
                                    if thin else None}
    answered = [(a, t) for a, t in pairs if a]
    return {"hidden": len(pairs), "baseline_value": majority, "baseline": round(base, 3),
            "overall": round(sum(a["value"] == t for a, t in answered) / len(pairs), 3),
            "answered": round(len(answered) / len(pairs), 3), "bands": bands}


def completion(hidden: dict, answers: dict) -> dict:
    """Of the hidden listeners: the share missing nothing but inferable completeness fields, and the share whose
    every such field is inferred at the promotion threshold or above (promotion would complete their profile)."""
    from core.listeners import snapshot

    snap = snapshot.current(COMPANY)
    names = snap.vocab["missing_fields"]
    only_inferable = completable = 0
    for originator in hidden:
        row = snap.row_of(originator)
        missing = {names[i] for i in np.flatnonzero(snap.cols["missing_fields"][row])}
        if not missing <= INFERABLE:
            continue
        only_inferable += 1
        inferred = [answers[originator][HIDDEN["age_group" if name == "age" else name]] for name in missing]
        completable += all(v and (v["confidence"] or 0) >= PROMOTE_AT for v in inferred)
    return {"only_inferable_missing": round(only_inferable / len(hidden), 3),
            "completable_share": round(completable / len(hidden), 3)}


def latency(originators: list[str]) -> dict:
    """Median and 95th percentile of warm `infer_listener` calls, in milliseconds."""
    _, seconds = infer_all(originators[:LATENCY_CALLS])
    ordered = sorted(seconds)
    return {"median": round(statistics.median(ordered) * 1000, 1),
            "p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1)}


def measure(size: int, seed: int, share: float, data: Path, keep: bool, limit: int | None = None) -> dict:
    """Prepare the station, infer the hidden listeners (at most `limit` of them, evenly spaced) and compare;
    returns the figures."""
    settings = _database(size, data, keep)
    try:
        hidden = prepare(size, seed, share, settings, keep)
        if limit and limit < len(hidden):
            hidden = dict(list(hidden.items())[::-(-len(hidden) // limit)])
        started = time.perf_counter()
        answers, _ = infer_all(list(hidden)[:1])
        print(f"  first inference (caches cold) {time.perf_counter() - started:.1f}s", flush=True)
        started = time.perf_counter()
        answers, _ = infer_all(list(hidden))
        print(f"  inferred {len(hidden):,} listeners in {time.perf_counter() - started:.0f}s", flush=True)
        figures = {"measured_at": datetime.now().astimezone().isoformat(timespec="seconds"), "size": size,
                   "seed": seed, "share": share, "hidden_listeners": len(hidden),
                   "fields": {field: field_figures(field, hidden, answers) for field in HIDDEN},
                   **completion(hidden, answers),
                   "latency_ms": latency(list(hidden))}
        lsm = Counter(a["inferred_lsm"]["value"] for a in answers.values() if a["inferred_lsm"])
        figures["lsm_values"] = {level: lsm[level] for level in LSM_LEVELS if lsm[level]}
    finally:
        _close(settings)
    return figures


def _close(settings: Settings) -> None:
    import mongoengine

    from core.db import embedded as embedded_db

    mongoengine.disconnect_all()
    if not settings.mongodb_uri:
        embedded_db.stop(settings.data_dir)


def table(figures: dict) -> str:
    """One row per field: baseline, overall, and per band the share of predictions and their accuracy."""
    rows = []
    for field, f in figures["fields"].items():
        row = {"field": field, "hidden": f"{f['hidden']:,}", "baseline": _pct(f["baseline"]),
               "overall": _pct(f["overall"])}
        for name, band in f["bands"].items():
            row[f"{name} share"] = _pct(band["share"])
            row[f"{name} accuracy"] = _pct(band["accuracy"])
            row[f"{name} mean conf."] = _pct(band["confidence"])
        rows.append(row)
    return markdown(rows)


def _pct(value) -> str:
    return "-" if value is None else f"{value:.0%}"


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.inference", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--share", type=float, default=0.2, help="share of the declaring listeners to hide")
    parser.add_argument("--data", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--keep", action="store_true", help="reuse the station prepared by an earlier run")
    parser.add_argument("--limit", type=int, help="infer at most this many of the hidden listeners (large sizes)")
    parser.add_argument("--out", type=Path, default=MEASURED)
    args = parser.parse_args(argv)
    figures = measure(args.size, args.seed, args.share, args.data, args.keep, args.limit)
    print(table(figures))
    print(f"\nmissing only inferable fields: {figures['only_inferable_missing']:.1%} of the hidden listeners; "
          f"completable by promotion: {figures['completable_share']:.1%}; "
          f"latency median {figures['latency_ms']['median']} ms, p95 {figures['latency_ms']['p95']} ms")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
