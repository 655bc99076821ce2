"""What personal data in one home costs (issue 48), against a baseline commit in the same run:
`python -m bench.personal [--size 100000] [--baseline <commit>] [--repeat 7]`.

For the code under test and, with `--baseline`, that commit (checked out in a git worktree under /tmp), each in a
process of its own on a database of its own (the embedded server on DATA_DIR bench/data/personal-<label>-<size>):
the generated station's four files imported (`import_file`, as `bench.run` does), one full segmentation run, the
filter page and a listener's record through the API (Flask test client, median of `--repeat` after one unmeasured
call that loads the snapshot), and the erasure of three listeners (median). Peak RSS of the process is printed too.
The two codes run one after the other on the same machine; the figures go to measured/personal.json.
Memory per web worker is measured by `python -m bench.memory --baseline <commit>`.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("channels", "shows", "profiles", "interactions")
SECRET = "bench-secret"


def measure(size: int, data: Path, label: str, repeat: int) -> dict:
    """One code's figures (run inside the child process, with that code first on the path)."""
    from bench.generate import folder_of
    from bench.station import Context, client, close, fresh_database
    from core.ingest.importer import import_file
    from core.listeners import snapshot
    from core.privacy.erasure import erase_listener
    from core.segmentation.runs import segment_company

    folder = folder_of(data, size)
    settings = fresh_database(size, data / f"personal-{label}")
    ctx = Context(size, data, settings, json.loads((folder / "meta.json").read_text()))
    row = {"code": label}
    started = time.perf_counter()
    for kind in KINDS:
        import_file(kind, folder / f"{kind}.jsonl", resegment=False)
    row["import s"] = round(time.perf_counter() - started, 1)
    started = time.perf_counter()
    segment_company(ctx.company_id, ctx.now)
    row["full run s"] = round(time.perf_counter() - started, 1)
    originators = snapshot.current(ctx.company_id).originators.tolist()
    base = f"/api/v1/segments/{ctx.company_id}"
    row["filter page ms"] = _median_ms(ctx, client, f"{base}/filter?segment=occasional_engager&page=3", repeat)
    listener = f"/api/v1/listeners/{ctx.company_id}/{originators[len(originators) // 2]}"
    row["listener ms"] = _median_ms(ctx, client, listener, repeat)
    erasures = []
    for originator in originators[1:4]:
        started = time.perf_counter()
        erase_listener(ctx.company_id, originator, SECRET)
        erasures.append((time.perf_counter() - started) * 1000)
    row["erasure ms"] = round(statistics.median(erasures))
    row["peak RSS MB"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    close(settings)
    return row


def _median_ms(ctx, client, path: str, repeat: int) -> float:
    app_client, headers = client(ctx)
    assert app_client.get(path, headers=headers).status_code == 200, path  # loads the snapshot; not counted
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = app_client.get(path, headers=headers)
        timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, path
    return round(statistics.median(timings), 1)


def run_code(code: Path, label: str, size: int, data: Path, repeat: int) -> dict:
    """The figures of the code at `code`, measured in a fresh process with that code first on the path."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", label, "--size", str(size),
                          "--data", str(data), "--repeat", str(repeat)], cwd=code, check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(code)})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.personal", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--baseline", help="a commit to measure too (today's main before the change)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.size, args.data.resolve(), args.child, args.repeat)))
        return
    subprocess.run([sys.executable, "-m", "bench.generate", "--sizes", str(args.size), "--out", str(args.data)],
                   cwd=ROOT, check=True)
    rows = []
    if args.baseline:
        worktree = Path("/tmp/personal-before")
        subprocess.run(["git", "worktree", "add", "--force", str(worktree), args.baseline], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            rows.append(run_code(worktree, f"before ({args.baseline[:7]})", args.size, args.data.resolve(),
                                 args.repeat))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=ROOT, check=True)
    rows.append(run_code(ROOT, "after", args.size, args.data.resolve(), args.repeat))
    from bench.station import markdown

    print(markdown(rows))
    out = ROOT / "measured" / "personal.json"
    out.write_text(json.dumps({str(args.size): rows}, indent=1) + "\n")
    for row in rows:
        shutil.rmtree(args.data / f"personal-{row['code']}", ignore_errors=True)


if __name__ == "__main__":
    main()
