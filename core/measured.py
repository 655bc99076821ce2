"""Figures measured by the benchmarks (bench/) that pages show beside bench/README.md's: each benchmark that a page
quotes writes `measured/<name>.json`, committed with the code it measured, and a page reads it here. A figure is
never typed into a template, so the page, bench/README.md and the last measurement cannot drift apart unnoticed."""
from __future__ import annotations

import json
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[1] / "measured"


def read(name: str) -> dict | None:
    """The last measurement of that name, or None when it was never measured here."""
    path = FOLDER / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else None


def write(name: str, figures: dict) -> Path:
    """Keep a measurement (a benchmark calls this after printing its table)."""
    FOLDER.mkdir(exist_ok=True)
    path = FOLDER / f"{name}.json"
    path.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return path
