"""Brief reading on 40 briefs written blind (issue 64, "Figures"): bench/briefs_blind.json was written by someone who
had read only the service's spec and decisions, never the reader's rules or tests, and half its briefs write dates,
places or ages awkwardly. It is held out: never edit its expectations, never change the reader to fit it.

Each brief is read as parse-brief reads it (core.campaigns.brief.read, local provider) with the demo station's
vocabulary, at noon of the file's `today` in the station's zone, and each of ten fields is judged
(bench.briefs_blind_judge): right, right_ask (a question or refusal was expected and the reader asked or refused),
asked_clear (it asked or refused though the brief was clear), missed (nothing read, no reason) or wrong (a value that
is not the expected one, or a value where a question or refusal was expected). Figures go to
measured/briefs_blind.json.

`python -m bench.briefs_blind` (a demo station made for the run in a temporary folder; `--size N` its listeners), or
`--existing` on the station a `bench.run --sizes N` left.
"""
from __future__ import annotations

import argparse
import json
from datetime import date, datetime, time
from pathlib import Path

from bench.briefs_blind_judge import FIELDS, OUTCOMES, Judge, extras

BRIEFS = Path(__file__).resolve().parent / "briefs_blind.json"


def load_briefs() -> dict:
    """The blind set: {about, today, briefs: [{id, brief, awkward, expect, note}]}."""
    return json.loads(BRIEFS.read_text())


def reading_time(today: str, timezone: str) -> datetime:
    """Noon of the set's today in the station's zone."""
    from core.clock import zone_of

    return datetime.combine(date.fromisoformat(today), time(12), zone_of(timezone))


def measure(vocab, data: dict) -> dict:
    """Each brief's fields judged, with what was read; the reader must be the local one."""
    from core.campaigns.brief import read

    judge, now = Judge(vocab.shows), reading_time(data["today"], vocab.timezone)
    briefs = []
    for case in data["briefs"]:
        answer = read(vocab, case["brief"], now)
        if answer["provider"] != "local":
            raise SystemExit(f"the reader is {answer['provider']}: this measures the local one (AI_PROVIDER=local)")
        fields = {}
        for field in FIELDS:
            outcome, got = judge.field(field, case["expect"][field], answer)
            fields[field] = {"outcome": outcome, "expected": case["expect"][field], "read": got}
        briefs.append({"id": case["id"], "awkward": case["awkward"], "fields": fields, "beyond": extras(answer),
                       "questions": answer["questions"], "unmapped": answer["unmapped"], "unused": answer["unused"]})
    return {"today": data["today"], "briefs": briefs,
            "tables": tables(briefs), "wrong": wrong_list(briefs)}


def counts(briefs: list[dict], fields=FIELDS) -> dict:
    """How many of the briefs' fields came out each way."""
    out = dict.fromkeys(OUTCOMES, 0)
    for brief in briefs:
        for field in fields:
            out[brief["fields"][field]["outcome"]] += 1
    return out


def tables(briefs: list[dict]) -> dict:
    """Counts per field, overall, and overall for the awkward and the plain briefs."""
    awkward = [b for b in briefs if b["awkward"]]
    plain = [b for b in briefs if not b["awkward"]]
    return {"per_field": {field: counts(briefs, (field,)) for field in FIELDS}, "overall": counts(briefs),
            "awkward": {"true": counts(awkward), "false": counts(plain)},
            "awkward_per_field": {field: {"true": counts(awkward, (field,)), "false": counts(plain, (field,))}
                                  for field in FIELDS}}


def wrong_list(briefs: list[dict]) -> list[dict]:
    """Every wrong field: the brief, the field, what was expected and what was read."""
    return [{"id": b["id"], "field": field, "expected": f["expected"], "read": f["read"]}
            for b in briefs for field, f in b["fields"].items() if f["outcome"] == "wrong"]


def printed(figures: dict) -> str:
    """The tables and the wrong list as Markdown."""
    from bench.station import markdown

    t = figures["tables"]
    rows = [{"field": field, **t["per_field"][field]} for field in FIELDS] + [{"field": "**all**", **t["overall"]}]
    by = [{"briefs": f"awkward={flag} (20)", **t["awkward"][flag]} for flag in ("true", "false")]
    wrong = [f"- {w['id']} {w['field']}: expected {_shown(w['expected'])}, read {_shown(w['read'])}"
             for w in figures["wrong"]]
    beyond = [f"- {b['id']}: {_shown(b['beyond'])}" for b in figures["briefs"] if b["beyond"]]
    return "\n\n".join([markdown(rows), markdown(by), f"Wrong fields ({len(wrong)}):", "\n".join(wrong) or "none",
                        "Read beyond the ten fields (not judged):", "\n".join(beyond) or "none"])


def _shown(value) -> str:
    return json.dumps(_bare(value), ensure_ascii=False, default=str)


def _bare(value):
    """A value without the words it was read from."""
    if isinstance(value, list | tuple):
        return [_bare(v) for v in value]
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "words"}
    return value


def main(argv: list[str] | None = None) -> None:
    """Measure on a demo station made for the run (removed after), or on the one a `bench.run` left."""
    from core import measured

    parser = argparse.ArgumentParser(prog="python -m bench.briefs_blind", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2000, help="listeners of the station")
    parser.add_argument("--existing", action="store_true", help="the station `bench.run --sizes SIZE` left")
    args = parser.parse_args(argv)
    figures = _on_station(args.size, args.existing)
    print(printed(figures))
    measured.write("briefs_blind", {k: v for k, v in figures.items() if k != "briefs"} | {
        "briefs": [{"id": b["id"], "awkward": b["awkward"], **{f: v["outcome"] for f, v in b["fields"].items()},
                    "beyond": b["beyond"]} for b in figures["briefs"]]})


def _on_station(size: int, existing: bool) -> dict:
    from core.search.vocabulary import station_vocabulary

    if existing:
        from bench.station import existing_station

        return measure(station_vocabulary(existing_station(size).company_id), load_briefs())
    import shutil
    import tempfile

    from bench.briefs import demo_station
    from core.db import embedded

    folder = Path(tempfile.mkdtemp(prefix="bench-briefs-blind-"))
    try:
        return measure(station_vocabulary(demo_station(size, folder).company_id), load_briefs())
    finally:
        embedded.stop(folder)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
