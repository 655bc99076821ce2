"""Cold start of a web host: `python -m bench.cold_start [--size 100000] [--data-dir DIR] [--workers 1 2]`.

On the database a `bench.run` left under bench/data/run-<size> (or DIR), embedded first if it has no vectors:
1. the phases of a preforking server's start, timed one by one in a process of their own (the service's modules,
   the offline model's weights, the language detector's models, the database connection, the station's vector index
   and lexical index, what the AI has learned of it);
2. `gunicorn wsgi:app`, started the usual way: seconds until /health/live answers, then every worker's first search,
   filter page and AI profile, and each one's second;
3. an import while it serves (`flask --app wsgi import interactions`: one new interaction, with a message, for 1% of
   the station's listeners), then every worker's first search, filter page and AI profile after it.
Figures go to measured/cold_start.json; the issue's targets are ready within 10 s at 100,000 listeners and every
first answer within 1 s of ready.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPANY, PORT = 1, 8741
OUT = ROOT / "measured" / "cold_start.json"
PHASES = r"""
import json, sys, time
started = time.perf_counter()
laps = {}
def lap(name):
    global started
    now = time.perf_counter(); laps[name] = round(now - started, 2); started = now
import webapp; lap("modules")
from core.search import local_model; local_model.preload(); lap("model weights")
from core.ai import language; language.preload(); lap("language models")
from core.config import Settings
from core.service import startup
startup.start(Settings.from_env()); lap("database")
from core.search import lexical_store, process_indexes
index = process_indexes.current_index(1); lap("vector index")
lexical_store.current_lexical(1, index); lap("lexical index")
from core.ai import learned
learned.open_every_copy(); lap("AI's learning")
print(json.dumps(laps))
"""


def open_database(folder: Path, database: str) -> str:
    """Start the folder's embedded database (embedding its station if nothing is); its URI."""
    from core.config import Settings
    from core.db.connection import resolve_uri
    from core.search.models import ListenerEmbedding
    from core.search.vectors import refresh_embeddings
    from core.service import startup

    settings = Settings(data_dir=folder, database_name=database, auto_embed=False)
    startup.start(settings)
    if not ListenerEmbedding.objects(company_id=COMPANY).first():
        refresh_embeddings(COMPANY)
    return resolve_uri(settings)


ASKED = (("search", f"/api/v1/segments/{COMPANY}/search?q=loves+gospel+music&limit=20"),
         ("filter page", f"/api/v1/segments/{COMPANY}/filter?segment=occasional_engager&page=3"),
         ("AI profile", f"/api/v1/ai/listeners/{COMPANY}/" + "{}"))
"""What each worker is asked, by name; `{}` takes a listener not profiled yet."""


def token_and_listeners() -> tuple[str, list[str]]:
    """An API key for the station, credits for AI profiles, and listeners to profile (none of them cached)."""
    from core.access.api_keys import create_key
    from core.ai.models import AiProfile
    from core.credits.ledger import load
    from core.listeners import snapshot

    _, token = create_key([COMPANY], name="cold start")
    load(COMPANY, 100, note="bench")
    AiProfile.objects(company_id=COMPANY).delete()
    return token, [str(o) for o in snapshot.current(COMPANY).originators[7:4000:13]]


def environment(folder: Path, database: str, uri: str) -> dict:
    return {**os.environ, "MONGODB_URI": uri, "MONGODB_DATABASE": database, "DATA_DIR": str(folder),
            "AUTO_EMBED": "false", "DAILY_SEGMENTATION": "false", "DAILY_PURGE": "false", "KEY_VAULT_SHARES_BACKUPS":
            "yes", "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics-cold")}


def phases(env: dict) -> dict:
    """Each phase of a start, in a fresh process."""
    done = subprocess.run([sys.executable, "-c", PHASES], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def served(env: dict, workers: int, token: str, listeners: list[str], code: Path = ROOT) -> dict:
    """gunicorn of `code` started the usual way: seconds to ready, then each worker's first and second answers."""
    command = [str(Path(sys.executable).with_name("gunicorn")), "--workers", str(workers), "--threads", "1",
               "--bind", f"127.0.0.1:{PORT}", "--timeout", "300", "wsgi:app"]
    log = open(Path(env["DATA_DIR"]) / f"gunicorn-cold-{workers}.log", "wb")  # noqa: SIM115 - closed below
    started = time.perf_counter()
    server = subprocess.Popen(command, cwd=code, env={**env, "PYTHONPATH": str(code)}, stdout=log,
                              stderr=subprocess.STDOUT)
    try:
        ready = _ready(started)
        answers = {"ready s": round(ready, 1)}
        for name, path in ASKED:
            firsts = _each_worker(workers, path, token, listeners)
            answers[f"first {name} s"] = round(max(firsts), 2)
            answers[f"second {name} s"] = round(max(_each_worker(workers, path, token, listeners)), 2)
        answers["import of 1% s"] = round(_import(env, code, workers), 1)
        for name, path in ASKED:
            answers[f"after it, first {name} s"] = round(max(_each_worker(workers, path, token, listeners)), 2)
        return answers
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        log.close()


def _import(env: dict, code: Path, workers: int) -> float:
    """Import one new interaction, an hour old and with a message, for each of 1% of the station's listeners (a
    different 1% at each call) through the CLI, as an operator would while the server serves; its seconds."""
    from core.clock import utcnow
    from core.listeners import snapshot

    originators = snapshot.current(COMPANY).originators[workers::100].tolist()
    moment = (utcnow() - timedelta(hours=1)).isoformat()
    file = Path(env["DATA_DIR"]) / f"cold-start-import-{workers}.jsonl"
    file.write_text("".join(json.dumps({
        "company_id": COMPANY, "originator": originator, "timestamp": moment, "channel_type": 1,
        "campaign_type": "song_request", "interaction_id": f"cold-start-{workers}-{n}",
        "message": "Please play some gospel music for my mother"}) + "\n" for n, originator in enumerate(originators)))
    started = time.perf_counter()
    subprocess.run([str(Path(sys.executable).with_name("flask")), "--app", "wsgi", "import", "interactions",
                    str(file)], cwd=code, env={**env, "PYTHONPATH": str(code)}, check=True, capture_output=True)
    return time.perf_counter() - started


def _ready(started: float) -> float:
    for _ in range(1200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/health/live", timeout=5).read()
            return time.perf_counter() - started
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn did not answer within two minutes")


def _each_worker(workers: int, path: str, token: str, listeners: list[str]) -> list[float]:
    """One request per worker at once (each worker of one thread takes one): their seconds. A path naming a
    listener takes the next of `listeners` (an AI profile asked again would be answered from its cache)."""
    def get(_) -> float:
        named = path.format(listeners.pop()) if "{}" in path else path
        asked = urllib.request.Request(f"http://127.0.0.1:{PORT}{named}", headers={"X-API-Key": token})
        begun = time.perf_counter()
        try:
            with urllib.request.urlopen(asked, timeout=300) as answer:
                answer.read()
        except urllib.error.HTTPError as refused:
            raise SystemExit(f"{path} answered {refused.code}: {refused.read()[:300]!r}") from refused
        return time.perf_counter() - begun

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(get, range(workers)))


def main(argv: list[str] | None = None) -> None:
    from bench.station import DEFAULT_OUT, markdown

    parser = argparse.ArgumentParser(prog="python -m bench.cold_start", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--baseline", help="a commit to measure first, in a git worktree, on the same database")
    args = parser.parse_args(argv)
    folder, database = (args.data_dir or DEFAULT_OUT / f"run-{args.size}").resolve(), f"bench_{args.size}"
    uri = open_database(folder, database)
    token, listeners = token_and_listeners()
    env = environment(folder, database, uri)
    codes = {"before": _worktree(args.baseline)} if args.baseline else {}
    codes["now"] = ROOT
    try:
        figures = {"size": args.size, **{name: {
            "phases s": phases(env) if code == ROOT else {},
            "served": [{"workers": w, **served(env, w, token, listeners, code)} for w in args.workers]}
            for name, code in codes.items()}}
    finally:
        if args.baseline:
            subprocess.run(["git", "worktree", "remove", "--force", str(codes["before"])], cwd=ROOT, check=True)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n")
    for name in codes:
        print(f"{name}:")
        print(markdown([figures[name]["phases s"]]) if figures[name]["phases s"] else "")
        print(markdown(figures[name]["served"]))


def _worktree(commit: str) -> Path:
    place = Path("/tmp/cold-start-before")
    subprocess.run(["git", "worktree", "add", "--force", str(place), commit], cwd=ROOT, check=True,
                   capture_output=True)
    return place


if __name__ == "__main__":
    main()
