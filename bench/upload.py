"""An interactions file uploaded through the import page against the same file imported by the CLI:
`python -m bench.upload --size 100000` (the 100k dataset's interactions file holds 2M rows).

Each path gets a fresh database holding the size's channels, shows and profiles (not timed). The CLI path is
`import_file`, what `flask --app wsgi import interactions FILE` runs, re-segmentation included. The page path is a
signed-in producer's POST of the file to the import page (streamed to DATA_DIR/uploads and kept for its mapping step),
the POST of the proposed mapping that checks the whole file (a dry run, in a background thread), and the POST that
imports it, until the job is done, as the page's poll sees it. The file is read once first, so that neither path
pays the disk cache. The file is larger than the default MAX_UPLOAD_MB, so the benchmark raises it (a setting).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from bench.generate import DEFAULT_OUT, folder_of
from bench.station import close, fresh_database, markdown

PREREQUISITES = ("channels", "shows", "profiles")
POLL_S = 0.5
PRODUCER = ("bench-producer@example.com", "bench-password-1")


def _prepared(size: int, data: Path):
    """A fresh database with the size's channels, shows and profiles."""
    from core.ingest.importer import import_file

    settings = fresh_database(size, data)
    for kind in PREREQUISITES:
        import_file(kind, folder_of(data, size) / f"{kind}.jsonl", resegment=False)
    return settings


def _cli(size: int, data: Path, path: Path) -> tuple[float, int]:
    """Seconds for the CLI's import of the file, and the events it stored."""
    from core.ingest.importer import import_file

    settings = _prepared(size, data)
    try:
        started = time.perf_counter()
        report = import_file("interactions", path)
        return time.perf_counter() - started, report.imported
    finally:
        close(settings)


def _page(size: int, data: Path, path: Path, company_id: int) -> tuple[float, float, float, int]:
    """Seconds from the page's POST of the file to the job being done, of them the POST's (the upload read and
    saved) and the check's (the dry run), and the events it stored."""
    from core.access.users import create_user
    from webapp import create_app

    settings = _prepared(size, data)
    try:
        env = {"MONGODB_URI": settings.mongodb_uri or "", "MONGODB_DATABASE": settings.database_name,
               "DATA_DIR": str(settings.data_dir), "MAX_UPLOAD_MB": str(path.stat().st_size // 2**20 + 1),
               "AUTO_EMBED": "false"}
        client = create_app({"ENV": env, "WTF_CSRF_ENABLED": False}).test_client()
        create_user(*PRODUCER, [company_id])
        client.post("/login", data={"email": PRODUCER[0], "password": PRODUCER[1]})
        started = time.perf_counter()
        with path.open("rb") as stream:
            answer = client.post(f"/stations/{company_id}/imports", data={"kind": "interactions",
                                                                          "file": (stream, path.name)})
        posted = time.perf_counter() - started
        job_id = answer.headers["Location"].rsplit("job=", 1)[1]
        checked = _checked(client, company_id, job_id)
        client.post(f"/stations/{company_id}/imports/{job_id}/start")
        return posted + checked + _until_done(company_id, job_id), posted, checked, _stored(company_id, job_id)
    finally:
        close(settings)


def _checked(client, company_id: int, job_id: str) -> float:
    """Seconds from the POST of the proposed mapping until the whole file has been checked."""
    from core.ingest.staging import preview_staged

    proposal = preview_staged(company_id, job_id)
    started = time.perf_counter()
    client.post(f"/stations/{company_id}/imports/{job_id}/check",
                data={"column": list(proposal["mapping"]), "field": [f or "" for f in proposal["mapping"].values()],
                      "date_order": proposal["date_order"]})
    return time.perf_counter() - started + _until_done(company_id, job_id)


def _until_done(company_id: int, job_id: str) -> float:
    """Seconds until the job has finished (or been checked), polled as the page polls it."""
    from core.ingest.watching import get_job

    started = time.perf_counter()
    while get_job(company_id, job_id).state in ("queued", "running", "checking"):
        time.sleep(POLL_S)
    return time.perf_counter() - started


def _stored(company_id: int, job_id: str) -> int:
    from core.ingest.watching import get_job, job_status

    status = job_status(get_job(company_id, job_id))
    if status["state"] != "done":
        raise RuntimeError(f"the upload ended {status['state']}: {status['message']}")
    return status["report"]["imported"]


def bench_upload(size: int, data: Path) -> dict:
    """One table row: both paths on the same file."""
    folder = folder_of(data, size)
    path, meta = folder / "interactions.jsonl", json.loads((folder / "meta.json").read_text())
    with path.open("rb") as stream:
        while stream.read(2**24):
            pass
    cli_s, cli_rows = _cli(size, data, path)
    page_s, post_s, check_s, page_rows = _page(size, data, path, meta["company_id"])
    if cli_rows != page_rows:
        raise RuntimeError(f"the paths stored different events: CLI {cli_rows:,}, page {page_rows:,}")
    return {"size": f"{size:,}", "rows": f"{meta['rows']['interactions']:,}",
            "file MB": f"{path.stat().st_size / 1e6:.0f}",
            "CLI import s": f"{cli_s:.1f}", "page upload s": f"{page_s:.1f}",
            "of which the POST s": f"{post_s:.1f}", "of which the check s": f"{check_s:.1f}",
            "page / CLI": f"{page_s / cli_s:.2f}"}


def main(argv: list[str] | None = None) -> None:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m bench.upload", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--data", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    print(markdown([bench_upload(args.size, args.data)]))


if __name__ == "__main__":
    main()
