"""What the benchmark scripts share: the size under test (Context), its database made fresh or opened again, an API
client on it, and the Markdown table they print. Every script imports these from here, and bench.run only runs them,
so no script imports the runner (no import circle)."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bench.generate import DEFAULT_OUT, folder_of
from core.config import Settings


@dataclass
class Context:
    """One size under test: its files, its database and what earlier benchmarks found."""

    size: int
    folder: Path
    settings: Settings
    meta: dict
    found: dict = field(default_factory=dict)

    @property
    def company_id(self) -> int:
        """The station the files are for."""
        return self.meta["company_id"]

    @property
    def now(self) -> datetime:
        """The reference time the dataset was generated for."""
        return datetime.fromisoformat(self.meta["now"])


def fresh_database(size: int, data: Path) -> Settings:
    """Connect to an empty database of its own for this size."""
    from core.db import connection as database
    from core.db import embedded as embedded_db
    from core.service import startup

    uri = os.environ.get("MONGODB_URI") or None
    run_dir = data / f"run-{size}"
    if uri is None:
        embedded_db.stop(run_dir)
        shutil.rmtree(run_dir, ignore_errors=True)
    settings = Settings(mongodb_uri=uri, data_dir=run_dir, database_name=f"bench_{size}",
                        auto_embed=False)  # bench_embeddings measures embedding on its own
    database.connect(settings).client.drop_database(settings.database_name)
    startup.start(settings)  # again after the drop, so that the indexes exist
    return settings


def existing_station(size: int) -> Context:
    """The station a `bench.run --sizes <size>` left under bench/data/run-<size>, opened again (for the benchmarks
    that run alone: `bench.ai`, `bench.search --embeddings`, `bench.audiences`, `bench.briefs`)."""
    from core.service import startup

    settings = Settings(data_dir=DEFAULT_OUT / f"run-{size}", database_name=f"bench_{size}", auto_embed=False,
                        db_timeout_ms=int(os.environ.get("DB_TIMEOUT_MS") or Settings.db_timeout_ms))
    startup.start(settings)
    meta = json.loads((folder_of(DEFAULT_OUT, size) / "meta.json").read_text())
    return Context(size, DEFAULT_OUT, settings, meta)


def close(settings: Settings) -> None:
    """Stop the embedded server of this size (its data stays for inspection until the next run)."""
    import mongoengine

    from core.db import embedded as embedded_db

    mongoengine.disconnect_all()
    if not settings.mongodb_uri:
        embedded_db.stop(settings.data_dir)


def client(ctx):
    """An app on the size's database and an API key for its station (made once per size)."""
    if "client" not in ctx.found:
        from core.access.api_keys import create_key
        from webapp import create_app

        env = {"MONGODB_URI": ctx.settings.mongodb_uri or "", "MONGODB_DATABASE": ctx.settings.database_name,
               "DATA_DIR": str(ctx.settings.data_dir), "AUTO_EMBED": "false"}
        app = create_app({"ENV": env})
        _, token = create_key([ctx.company_id], name="bench")
        ctx.found["client"] = (app.test_client(), {"X-API-Key": token})
    return ctx.found["client"]


def markdown(rows: list[dict]) -> str:
    """The rows as a Markdown table (columns in order of first appearance)."""
    columns = list(dict.fromkeys(column for row in rows for column in row))
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(row.get(column, "")) for column in columns) + " |" for row in rows]
    return "\n".join(lines)
