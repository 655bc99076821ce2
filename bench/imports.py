"""Issue 26's figures: `python -m bench.imports [--size 100000] [--preview-mb 100]`.

1. The mapping proposal on the labelled files of bench/import_headers.py (at least 30 headers per kind, written as
   stations' exports write them): the share of columns proposed right first time, per kind, and the misses.
2. The preview of a large file (a CSV of `--preview-mb` MB with a station's own headers): core's preview_file of the
   saved file, and the API's POST .../preview through the test client (the multipart body built and parsed too).
   It reads only the file's start, so its time should not grow with the file.
3. The interactions file of the generated size (bench.generate; the 100k size holds about 2M rows), each path on a
   fresh database holding the size's channels, shows and profiles (not timed): today's import (no mapping), the dry
   run with the mapping the service proposes, and the import with that mapping; each against today's. Today's import
   runs first and again last, and the ratios are against the mean of its two times, so that a machine that drifts
   over the quarter of an hour weighs on no one path (a first measure, with today's once and first, read 1.18 for
   the mapped import where at 10k it read 1.02).

Tables are printed; the figures go to measured/imports.json (imports-<size>.json for another size).
"""
from __future__ import annotations

import argparse
import io
import json
import time
from datetime import UTC, datetime
from pathlib import Path

from bench.generate import DEFAULT_OUT, folder_of, generate
from bench.import_headers import FILES
from bench.station import client, close, fresh_database, markdown
from core.ingest.dates import DAY_FIRST
from core.ingest.proposal import propose
from core.stations.defaults import CHANNELS

MEASURED = Path(__file__).resolve().parents[1] / "measured"
PREREQUISITES = ("channels", "shows", "profiles")
RUN_ORDER = ("today", "dry run", "mapped", "today again")
PREVIEW_ROW = "Thandi Mokoena {n},082 123 {n4},F,34,Soweto,thandi{n}@example.com,yes,2026/11/20 07:15\n"
PREVIEW_HEADER = "Full name,Cellphone,Gender,Age,Suburb,E-mail,Opt in,Joined\n"


def bench_proposal() -> tuple[list[dict], dict]:
    """Per kind: columns, right first time and their share; and the misses (header: proposed, expected)."""
    channels = {name.lower(): number for number, name in CHANNELS.items()}
    rows, misses = [], {}
    for kind, files in FILES.items():
        right = total = 0
        for columns in files:
            headers = [header for header, _, _ in columns]
            sample = [{header: values[i] for header, values, _ in columns if i < len(values)}
                      for i in range(max(len(values) for _, values, _ in columns))]
            proposal = propose(kind, headers, sample, "ZA", channels, DAY_FIRST)
            for header, _, expected in columns:
                total += 1
                if proposal[header].field == expected:
                    right += 1
                else:
                    misses[f"{kind}: {header}"] = f"proposed {proposal[header].field}, expected {expected}"
        rows.append({"kind": kind, "files": len(files), "columns": total, "right first time": right,
                     "share": f"{right / total:.0%}"})
    return rows, misses


def _preview_file(folder: Path, megabytes: int) -> Path:
    """A CSV of about `megabytes` MB with a station's own headers (written once)."""
    path = folder / f"preview-{megabytes}mb.csv"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as out:
        out.write(PREVIEW_HEADER)
        n, written = 0, 0
        while written < megabytes * 1_000_000:
            line = PREVIEW_ROW.format(n=n, n4=f"{n % 10000:04d}")
            out.write(line)
            written += len(line)
            n += 1
    return path


def bench_preview(data: Path, megabytes: int) -> dict:
    """Seconds of the preview of a large file: core alone (best of 3), and the API's POST with the upload."""
    from core.ingest.preview import preview_file
    from core.stations.companies import ensure_company

    path = _preview_file(data / "imports", megabytes)
    settings = fresh_database(0, data / "imports")
    try:
        ensure_company(1)
        core_s = min(_timed(lambda: preview_file("profiles", path, 1))[0] for _ in range(3))
        answer = preview_file("profiles", path, 1)
        ctx = type("Ctx", (), {"found": {}, "settings": settings, "company_id": 1})()
        test_client, headers = client(ctx)
        test_client.application.config["MAX_CONTENT_LENGTH"] = path.stat().st_size + (1 << 20)
        body = path.read_bytes()
        api_s, response = _timed(lambda: test_client.post(
            "/api/v1/imports/1/profiles/preview", headers=headers, content_type="multipart/form-data",
            data={"file": (io.BytesIO(body), path.name)}))
        if response.status_code != 200:
            raise RuntimeError(f"the API's preview answered {response.status_code}: {response.get_data()[:200]}")
        return {"file MB": f"{path.stat().st_size / 1e6:.0f}", "core preview s": f"{core_s:.3f}",
                "API preview s (upload included)": f"{api_s:.2f}", "rows shown": len(answer["rows"]),
                "mapping": json.dumps(answer["mapping"])}
    finally:
        close(settings)


def _timed(call):
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


def _prepared(size: int, data: Path):
    """A fresh database with the size's channels, shows and profiles, under data/imports (the station other
    benchmarks left under data/run-<size> stays)."""
    from core.ingest.importer import import_file

    settings = fresh_database(size, data / "imports")
    for kind in PREREQUISITES:
        import_file(kind, folder_of(data, size) / f"{kind}.jsonl", resegment=False)
    return settings


def _one_path(size: int, data: Path, path: Path, company_id: int, how: str) -> tuple[float, object]:
    """Seconds of one way of importing the file on a fresh database, and its report."""
    from core.ingest.importer import import_file
    from core.ingest.preview import preview_file, station_mapping

    settings = _prepared(size, data)
    try:
        started = time.perf_counter()
        if how == "today":
            report = import_file("interactions", path, company_id=company_id)
        else:
            proposal = preview_file("interactions", path, company_id)
            mapping = station_mapping("interactions", company_id, proposal["mapping"], proposal["columns"],
                                      proposal["date_order"])
            report = import_file("interactions", path, company_id=company_id, mapping=mapping,
                                 dry_run=how == "dry run")
        return time.perf_counter() - started, report
    finally:
        close(settings)


def bench_import(size: int, data: Path) -> dict:
    """Today's import, the dry run and the mapped import of the size's interactions file, on fresh databases."""
    folder = generate(size, data)
    meta = json.loads((folder / "meta.json").read_text())
    path = folder / "interactions.jsonl"
    with path.open("rb") as stream:  # read once, so that no path pays the disk cache
        while stream.read(1 << 24):
            pass
    runs = {label: _one_path(size, data, path, meta["company_id"], label.removesuffix(" again"))
            for label in RUN_ORDER}
    today = (runs["today"][0] + runs["today again"][0]) / 2
    counts = {how: (report.imported, report.error_count) for how, (_, report) in runs.items()}
    if len(set(counts.values())) != 1:
        raise RuntimeError(f"the paths counted different rows: {counts}")
    return {"size": f"{size:,}", "rows": f"{meta['rows']['interactions']:,}",
            "file MB": f"{path.stat().st_size / 1e6:.0f}",
            "today's import s (first, last)": f"{runs['today'][0]:.1f}, {runs['today again'][0]:.1f}",
            "today's import s": f"{today:.1f}",
            "dry run s": f"{runs['dry run'][0]:.1f}", "dry run / today": f"{runs['dry run'][0] / today:.2f}",
            "mapped import s": f"{runs['mapped'][0]:.1f}", "mapped / today": f"{runs['mapped'][0] / today:.2f}"}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.imports", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--preview-mb", type=int, default=100)
    parser.add_argument("--data", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--skip-import", action="store_true", help="only the proposal and the preview")
    args = parser.parse_args(argv)
    proposal, misses = bench_proposal()
    print(markdown(proposal))
    for header, miss in misses.items():
        print(f"  miss: {header}: {miss}")
    preview = bench_preview(args.data, args.preview_mb)
    print(markdown([preview]))
    figures = {"measured_at": datetime.now(UTC).isoformat(timespec="seconds"), "proposal": proposal,
               "proposal misses": misses, "preview": preview}
    if not args.skip_import:
        figures["import"] = bench_import(args.size, args.data)
        print(markdown([figures["import"]]))
    name = "imports.json" if args.size == 100_000 and not args.skip_import else f"imports-{args.size}.json"
    (MEASURED / name).write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
