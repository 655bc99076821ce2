"""Fuzzing the API and the JSON reader (issue 47): `python -m bench.fuzz [--examples 100]`.

- **The API**: schemathesis draws valid and invalid requests of every operation of the OpenAPI document (its
  Hypothesis strategies, in process over WSGI, as tests/api/test_contract.py does with 8 a mode), for a seeded station
  of 300 listeners, with its key and the admin key; every answer's status is counted. A 5xx is a failure.
- **The JSON reader** (core.text.strict_json): Hypothesis draws JSON texts (valid ones, ones with keys given twice,
  huge integers, deep nesting) and arbitrary text; anything but a value or a JsonError is a failure.
"""
from __future__ import annotations

import argparse
import collections
import json
import threading
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from bench.station import close, fresh_database, markdown

ROOT = Path(__file__).resolve().parents[1]


def fuzz_api(examples: int, data: Path) -> tuple[collections.Counter, list[str]]:
    """The statuses answered, and one line for each 5xx."""
    import schemathesis
    from schemathesis import GenerationMode

    from core.access.api_keys import create_key
    from core.config import active
    from core.demo.seed import seed_demo
    from webapp import create_app

    settings_ = fresh_database(300, data)
    try:
        seed_demo(1, 300, seed=7)
        env = {"DATA_DIR": str(settings_.data_dir), "MONGODB_DATABASE": settings_.database_name, "AUTO_EMBED": "false",
               "ADMIN_KEY": "fuzz-admin", "SECRET_KEY": "fuzz"}
        app = create_app({"ENV": env, "TESTING": True, "WTF_CSRF_ENABLED": False})
        headers = {"X-API-Key": create_key([1], name="fuzz")[1], "X-Admin-Key": active().admin_key}
        schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
        statuses, failures = collections.Counter(), []
        for result in schema.get_all_operations():
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                _draw(operation, mode, headers, examples, statuses, failures)
        return statuses, failures
    finally:
        close(settings_)


def _draw(operation, mode, headers: dict, examples: int, statuses, failures) -> None:
    fixed = {"company_id": 1} if "{company_id}" in operation.path else None

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    @given(operation.as_strategy(mode, path_parameters=fixed, headers=headers))
    def run(case):
        answer = case.call()
        statuses[answer.status_code] += 1
        if answer.status_code >= 500:
            failures.append(f"{case.method} {case.formatted_path}: {answer.status_code} {answer.text[:120]}")
        for thread in threading.enumerate():
            if thread.name.startswith(("import-", "segment-")):
                thread.join(timeout=120)

    try:
        run()
    except Unsatisfiable:
        pass  # nothing left to make invalid


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                           lambda inner: st.lists(inner) | st.dictionaries(st.text(max_size=5), inner), max_leaves=50)


def fuzz_json(examples: int) -> tuple[collections.Counter, list[str]]:
    """How the reader answered each draw (a value, MalformedJson, RefusedJson), and anything else it raised."""
    from core.text import strict_json

    outcomes, failures = collections.Counter(), []

    def read(text):
        try:
            strict_json.loads(text)
            outcomes["value"] += 1
        except strict_json.JsonError as refused:
            outcomes[type(refused).__name__] += 1
        except Exception as exc:  # noqa: BLE001 - what the fuzzing is looking for
            failures.append(f"{type(exc).__name__}: {str(exc)[:100]} for {text[:80]!r}")

    bounded = settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    texts = st.one_of(
        JSON_VALUES.map(lambda value: json.dumps(value)),
        st.tuples(st.text(max_size=5), JSON_VALUES).map(
            lambda pair: f"{{{json.dumps(pair[0])}: {json.dumps(pair[1])}, {json.dumps(pair[0])}: 1}}"),
        st.integers(min_value=1, max_value=6000).map(lambda digits: "9" * digits),
        st.integers(min_value=1, max_value=5000).map(lambda depth: "[" * depth + "]" * depth),
        st.text(),
    )
    bounded(given(texts)(read))()
    return outcomes, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="draws per operation and mode")
    parser.add_argument("--json-examples", type=int, default=20_000)
    parser.add_argument("--data", type=Path, default=ROOT / "bench" / "data" / "fuzz")
    args = parser.parse_args()
    outcomes, json_failures = fuzz_json(args.json_examples)
    print(markdown([{"reader answered": kind, "draws": count} for kind, count in sorted(outcomes.items())]))
    print("\n".join(json_failures) or "JSON reader: nothing but values and JsonErrors")
    statuses, failures = fuzz_api(args.examples, args.data)
    print(markdown([{"status": status, "answers": count} for status, count in sorted(statuses.items())]))
    print(f"{sum(statuses.values()):,} requests, {sum(n for s, n in statuses.items() if s >= 500)} answered 5xx")
    print("\n".join(failures))
    found = {"measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "examples per operation and mode": args.examples,
             "api statuses": {str(status): count for status, count in sorted(statuses.items())},
             "api 5xx": failures, "json reader": dict(outcomes), "json reader failures": json_failures}
    (ROOT / "measured" / "fuzz.json").write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
