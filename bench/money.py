"""What money that cannot go wrong costs: `python -m bench.money [--listeners 2000] [--repeat 300]`.

On a fresh embedded database of its own (DATA_DIR bench/data/money, wiped first) with a seeded demo station, the
median milliseconds, in process, of: a cached AI listener profile (the single-flight look and the free ledger
entry), a new one (the claim, the inference, the charge), a charge of a price (the conditional update of the account
and its ledger entry: one transaction), and a load. It uses only functions that existed before these were
transactional, so that running it from a checkout of the earlier code gives the "before" column of the same run:

    git worktree add /tmp/before <commit> && cp bench/money.py /tmp/before/bench/ &&
      (cd /tmp/before && ../main/.venv/bin/python -m bench.money)
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

DATA = Path("bench/data/money")
NOW = datetime(2026, 11, 20, 12, tzinfo=UTC)


def median_ms(work: Callable[[int], object], repeat: int) -> float:
    """Median milliseconds of work(i) for i in range(repeat)."""
    timings = []
    for i in range(repeat):
        started = time.perf_counter()
        work(i)
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def measure(listeners: int, repeat: int) -> dict:
    """The row of figures on a fresh station of `listeners`."""
    from core.ai.profile import ai_listener_profile
    from core.config import Settings
    from core.credits.charges import charge
    from core.credits.ledger import load
    from core.demo.seed import seed_demo
    from core.listeners import snapshot
    from core.service import startup

    shutil.rmtree(DATA, ignore_errors=True)
    startup.start(Settings(data_dir=DATA.resolve(), database_name="bench_money", auto_embed=False))
    seed_demo(1, listeners, seed=7, now=NOW)
    load(1, 100_000, note="bench")
    people = [str(o) for o in snapshot.current(1).originators]
    new = people[1:min(len(people), 1 + repeat // 10)]
    ai_listener_profile(1, people[0])  # the first of a process builds the look-alike panel: not counted

    def spend(_):
        with charge(1, "ai_listener_profile"):
            pass

    return {"listeners": f"{listeners:,}",
            "AI profile cached ms": f"{median_ms(lambda i: ai_listener_profile(1, people[0]), repeat):.2f}",
            "AI profile new ms": f"{median_ms(lambda i: ai_listener_profile(1, new[i]), len(new)):.1f}",
            "charge (spend + entry) ms": f"{median_ms(spend, repeat):.2f}",
            "load ms": f"{median_ms(lambda i: load(1, 1), repeat):.2f}"}


def main(argv: list[str] | None = None) -> None:
    from bench.station import markdown

    parser = argparse.ArgumentParser(prog="python -m bench.money", description=__doc__.splitlines()[0])
    parser.add_argument("--listeners", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args(argv)
    try:
        print(markdown([measure(args.listeners, args.repeat)]))
    finally:
        from core.db import embedded

        embedded.stop(DATA.resolve())


if __name__ == "__main__":
    main()
