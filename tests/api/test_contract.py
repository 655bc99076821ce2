"""The whole API against its own OpenAPI document, property-based: schemathesis in process, over WSGI.

One test per operation of the document, so that a new operation is tested without anyone writing a test for it:
valid and invalid requests drawn from the document answer no 5xx, only statuses the operation documents, and bodies,
headers and content types as documented; valid ones are not refused. Bounded (EXAMPLES per operation and draw) to
stay well under two minutes. Cases come from schemathesis' Hypothesis strategies, as its pytest plugin does not run
under pytest 9.
"""
from __future__ import annotations

import threading

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from core.access.api_keys import create_key
from core.audiences.campaign import LONGEST_DAYS, as_day
from core.clock import station_today
from core.config import active
from core.demo.seed import seed_demo
from core.listeners import snapshot
from core.stations.companies import get_company
from tests.api.document import documented_operations
from tests.conftest import empty_database
from tests.memory import NOW

pytestmark = pytest.mark.db

STATION, LISTENERS, EXAMPLES = 1, 300, 8
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, positive_data_acceptance]
"""positive_data_acceptance too: a request the document calls valid must not be refused (document and server agree)."""
BACKGROUND = ("import-", "segment-")
"""Names of the threads a request starts for its background work (core.ingest.jobs, core.segmentation.requested)."""
DRAWS = ((GenerationMode.POSITIVE, True), (GenerationMode.NEGATIVE, True), (GenerationMode.NEGATIVE, False))
BOUNDED = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                   suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])


@pytest.fixture(scope="module")
def contract(_app):
    """The document loaded in process, over a seeded demo station, and a key for that station only, with the admin
    key: the station is writable (credits loaded and paused, audiences made and deleted, interactions stored)."""
    empty_database()
    seed_demo(STATION, LISTENERS, seed=7, now=NOW)
    _, token = create_key([STATION], name="contract")
    return (schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _app),
            {"X-API-Key": token, "X-Admin-Key": active().admin_key})


def exercise(operation, headers: dict) -> list[tuple[str, Failure]]:
    """Valid and invalid cases of one operation, with every failure found (collected, so that all are reported).

    Valid cases name the seeded station (any other company is a 403). Invalid ones are drawn twice: for the
    seeded station (so that the query is what breaks), and for any company_id (so that the path may break too).
    """
    found = []
    for mode, station in DRAWS:
        try:
            found.extend(_draw(operation, mode, headers, station and "{company_id}" in operation.path))
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE  # nothing left to make invalid (no query, path fixed)
    return found


def _draw(operation, mode: GenerationMode, headers: dict, station: bool) -> list[tuple[str, Failure]]:
    """EXAMPLES cases of one mode, for the seeded station or any company."""
    found = []
    fixed = {"company_id": STATION} if station else None

    @BOUNDED
    @given(operation.as_strategy(mode, path_parameters=fixed, headers=headers))
    def run(case):
        assume(mode is not GenerationMode.POSITIVE or not (_nul_in_a_name(case.body) or _wrong_campaign(case.body)))
        try:
            case.call_and_validate(checks=CHECKS)
        except FailureGroup as group:
            found.extend((_with_case(mode, case), failure) for failure in group.exceptions)
        except Failure as failure:
            found.append((_with_case(mode, case), failure))
        finally:
            settle()

    run()
    return found


def _with_case(mode: GenerationMode, case) -> str:
    """The mode, with the request a valid draw was refused for: a refusal that only a full run meets (seen once in
    a few runs) must say which request it was."""
    if mode is not GenerationMode.POSITIVE:
        return mode.value
    return f"{mode.value} {case.method} {case.formatted_path} query={case.query!r} body={str(case.body)[:300]}"


def _nul_in_a_name(body) -> bool:
    """A valid upload's mapping may not name a column with NUL (the service keeps no such text), which OpenAPI 3.0
    cannot say of an object's keys (it has no propertyNames): the document says it in words, so such a draw is not
    a valid request."""
    mapping = body.get("mapping") if isinstance(body, dict) else None
    return isinstance(mapping, dict) and any("\x00" in column for column in mapping)


def _wrong_campaign(body) -> bool:
    """A campaign (a body of its own, or the `campaign` of a new audience) that starts before today (the day a new
    audience is made, and the earliest any audience here was), ends before it starts, runs longer than its limit or
    names a campaign type the station does not have: the document says these in words (OpenAPI 3.0 cannot compare
    two fields, nor know the day or a station's types), so such a draw is not a valid request."""
    if not isinstance(body, dict):
        return False
    campaign = body.get("campaign", body)
    if not isinstance(campaign, dict):
        return False
    starts, ends = (as_day(campaign.get(name)) for name in ("starts", "ends"))
    types = [str(t) for t in snapshot.current(STATION).vocab.get("campaign_types", [])]
    return bool((starts and starts < station_today(get_company(STATION).timezone))
                or (starts and ends and not 0 <= (ends - starts).days < LONGEST_DAYS)
                or ("campaign_type" in campaign and str(campaign["campaign_type"]).strip().casefold()
                    not in {t.casefold() for t in types}))


def settle() -> None:
    """Wait for the work a request left running (an import, a segmentation run) before the next case is drawn:
    Hypothesis refuses a draw during which the random module was used, and the driver draws each command's
    request id from it, in whatever thread runs the command."""
    for thread in threading.enumerate():
        if thread.name.startswith(BACKGROUND):
            thread.join(timeout=120)


def report(found: list[tuple[str, Failure]]) -> str:
    """One line per distinct failure: the mode, the check and the first line of what it saw."""
    lines = {f"{mode} | {failure.title} | {(failure.message or '').partition(chr(10))[0]}" for mode, failure in found}
    return f"{len(found)} failures:\n" + "\n".join(sorted(lines))


@pytest.mark.parametrize("method, path", documented_operations())
def test_the_operation_answers_as_its_document_says(contract, method, path):
    schema, headers = contract
    found = exercise(schema[path][method], headers)
    assert not found, report(found)


def test_after_the_whole_contract_run_every_balance_still_equals_its_ledger(contract, _app):
    result = _app.test_cli_runner().invoke(args=["credits", "check"])
    assert result.exit_code == 0, result.output
