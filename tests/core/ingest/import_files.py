"""Import files written for the ingest tests: JSONL and CSV files in a test's folder, and an interaction row of
ingest.md with the fields a test changes (None leaves a field out)."""
from __future__ import annotations

import json


def jsonl(tmp_path, name: str, rows: list) -> str:
    """A JSONL file of the rows (strings are written as they are, to make bad lines)."""
    path = tmp_path / name
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n" for row in rows))
    return str(path)


def csv_file(tmp_path, name: str, text: str) -> str:
    """A file of exactly this text (CSV, or anything a test wants to offer as one)."""
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def interaction(**overrides) -> dict:
    """An interaction row of company 7, with these fields changed (None: left out)."""
    row = {"company_id": 7, "originator": "27821234567", "timestamp": "2026-11-20T07:15:00+02:00",
           "channel_type": 2, "campaign_type": "song_request"}
    row.update(overrides)
    return {k: v for k, v in row.items() if v is not None}
