"""The registry's audit (issue 48, item 2): a station is written through every feature's write path, with the
service's own functions, its listeners' numbers in every field a station fills (interaction ids, messages, tags,
notes, a file's name, an audience's, a brief); then every document of every collection of the database is read,
with every document written meanwhile (as the oplog, and so a backup, keeps them: a lock, a job, a staged upload
deleted since). Each top-level field must be declared for its collection (core.personal.registry), personal
(sealed or keyed there) or free of a personal value, and none may hold a listener's number as the station sent it:
a personal field that is not sealed, or a free one that is not free, fails like an undeclared one."""
from __future__ import annotations

import io
import json
import time
from dataclasses import replace
from datetime import timedelta

import pytest
import xlsxwriter

from core.access.api_keys import create_key
from core.access.users import create_user
from core.ai.insights import ai_segment_insights
from core.ai.profile import ai_listener_profile
from core.ai.promote import promote_demographics
from core.alerts.check import check_station
from core.alerts.store import create_rule
from core.audiences.store import create_audience, refresh_audience
from core.campaigns.brief import parse_brief
from core.campaigns.plans import save_plan
from core.campaigns.recommend import recommend
from core.clock import utcnow
from core.config import activate, active
from core.credits.ledger import load
from core.db.embedded import free_port
from core.explore.filters import parse_filters
from core.ingest.importer import import_file
from core.ingest.jobs import start_import
from core.ingest.live import record_interactions
from core.ingest.staging import stage_upload
from core.personal.registry import declared_fields, stores
from core.privacy.erasure import erase_listener
from core.search import vectors
from core.search.lookalikes import similar_listeners
from core.search.search import search_listeners
from core.segmentation.requested import start_segmentation
from core.segmentation.runs import segment_company
from core.service.worker import Worker
from core.stations.labels import set_tag_labels
from core.webhooks.endpoints import add_endpoint
from core.webhooks.events import emit
from tests.conftest import kept
from tests.core.webhooks.receiver import receiving
from tests.factories import set_fields
from tests.recorded_writes import Seen, recording, stored

pytestmark = pytest.mark.db

COMPANY = 1
NUMBERS = [f"2782555000{n}" for n in range(1, 7)]
"""The station's listeners, in E.164 digits as its CRM and its live feed send them."""
ERASED, PROMOTED, NAMED = NUMBERS[0], NUMBERS[1], NUMBERS[3]
FORMS = [number.encode() for number in NUMBERS]


# --- the station, as its CRM and its producers fill it -------------------------------------------------------------

def jsonl(rows: list[dict]) -> bytes:
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def ago(days: float) -> str:
    return (utcnow() - timedelta(days=days)).isoformat()


PROFILE_MAPPING = {"MSISDN": "originator", "Full name": "name", "Gender": "gender", "Suburb": "location",
                   "Tags": "tags", "Notes": None}


def profiles_csv() -> bytes:
    """A CRM's export under its own headers (mapped at upload), tags and a skipped notes column that carry the
    number, and a row whose originator cannot be read (a bad row)."""
    lines = [",".join(PROFILE_MAPPING)]
    for n, number in enumerate(NUMBERS):
        lines.append(f"{number},Listener {n},{'female' if n % 2 else 'male'},Soweto,gospel|call {number},"
                     f"\"rang back on {number}\"")
    lines.append(f"{NUMBERS[2]} x,Nobody,female,Soweto,,")
    return ("\n".join(lines) + "\n").encode()


def interactions_jsonl(tag: str = "") -> bytes:
    """Messages that quote the number, interaction ids that embed it (as many CRMs write them), and a bad row
    whose own value quotes it."""
    rows = [{"company_id": COMPANY, "originator": number, "timestamp": ago(2 + k), "channel_type": 2,
             "campaign_type": "song_request", "timeslot_id": 12, "interaction_id": f"{number}-{tag}{k}",
             "message": f"Gospel praise and worship please, call me on {number}" if k % 2 else "Play some gqom"}
            for number in NUMBERS for k in range(6)]
    rows.append({"company_id": COMPANY, "originator": NUMBERS[2], "timestamp": f"since {NUMBERS[2]}",
                 "channel_type": 2, "campaign_type": "shoutout", "message": "hello"})
    return jsonl(rows)


def uploaded(kind: str, filename: str, body: bytes, state: str = "done", **options) -> None:
    """One file uploaded as the dashboard's and the API's uploads are, imported to its end."""
    job = start_import(COMPANY, kind, filename, io.BytesIO(body), active().data_dir, actor="producer@station.example",
                       wait=True, **options)
    job.reload()
    assert job.state == state, (kind, job.state, job.message)


def api_upload(client, headers: dict) -> None:
    """Interactions uploaded through the API, and polled until imported."""
    answer = client.post(f"/api/v1/imports/{COMPANY}/interactions", headers=headers, content_type="multipart/form-data",
                         data={"file": (io.BytesIO(interactions_jsonl("api-")), f"api {NUMBERS[5]}.jsonl")})
    assert answer.status_code == 202, answer.get_json()
    deadline = time.monotonic() + 60
    while (state := client.get(answer.headers["Location"], headers=headers).get_json()["state"]) != "done":
        assert state not in ("failed", "abandoned") and time.monotonic() < deadline, state
        time.sleep(0.1)


def headerless_csv() -> bytes:
    """A CRM's export without its header row: its first listener's row stands where the headers would."""
    return "".join(f"{number},Listener {n},female,Soweto\n" for n, number in enumerate(NUMBERS)).encode()


HEADERLESS = {NUMBERS[0]: "originator", "Listener 0": "name", "female": "gender", "Soweto": "location"}
"""The mapping of that export's columns, as the mapping step shows them: by their first row."""


def workbook(sheet: str) -> bytes:
    """Channels in a workbook whose sheet the station named."""
    out = io.BytesIO()
    book = xlsxwriter.Workbook(out, {"in_memory": True})
    rows = book.add_worksheet(sheet)
    for n, row in enumerate([["channel_type", "name"], [2, "WhatsApp"], [3, "SMS"]]):
        rows.write_row(n, 0, row)
    book.close()
    return out.getvalue()


def imported(tmp_path, client, headers: dict) -> None:
    """The four kinds of files (channels as the CLI imports them, which makes the station, and in a workbook; the
    others uploaded, one through the API, one without its header row, one whose mapping does not fit it), one upload
    left waiting at the mapping step, and live events."""
    channels = tmp_path / f"channels {NUMBERS[4]}.jsonl"
    channels.write_bytes(jsonl([{"company_id": COMPANY, "channel_type": 2, "name": "WhatsApp"},
                                {"company_id": COMPANY, "channel_type": 3, "name": "SMS"}]))
    import_file("channels", channels)
    uploaded("channels", "channels.xlsx", workbook(f"call {NUMBERS[1]}"), sheet=f"call {NUMBERS[1]}")
    uploaded("shows", "shows.jsonl", jsonl([{"company_id": COMPANY, "timeslot_id": 12, "title": "Gospel Hour",
                                              "days": [1, 2, 3, 4, 5, 6, 7], "start": "06:00", "end": "09:00"}]))
    uploaded("profiles", f"contacts {NUMBERS[0]}.csv", profiles_csv(), mapping=PROFILE_MAPPING)
    uploaded("profiles", "no headers.csv", headerless_csv(), mapping=HEADERLESS)
    uploaded("profiles", "no headers.csv", headerless_csv(), mapping={"MSISDN": "originator"}, state="failed")
    uploaded("interactions", f"crm-export-{NUMBERS[0]}.jsonl", interactions_jsonl())
    api_upload(client, headers)
    stage_upload(COMPANY, "profiles", f"more {NUMBERS[2]}.csv", io.BytesIO(profiles_csv()), active().data_dir,
                 actor="producer@station.example")
    answer = record_interactions(COMPANY, [
        {"company_id": COMPANY, "originator": number, "timestamp": ago(0.1), "channel_type": 3,
         "campaign_type": "shoutout", "message": f"Live from {number}", "interaction_id": f"{number}-live"}
        for number in NUMBERS])
    assert answer["counts"]["stored"] == len(NUMBERS), answer
    set_tag_labels(COMPANY, {f"call {NAMED}": "Call back"})


def searched(client, headers: dict) -> None:
    """The vector and lexical indexes built, searches (in core and through the API, whose words name a listener),
    a listener read by number, similar listeners, and an audience named after a listener made and refreshed."""
    vectors.refresh_embeddings(COMPANY)
    search_listeners(COMPANY, f"gospel worship {NAMED}", parse_filters({}), min_score=0)
    assert client.get(f"/api/v1/segments/{COMPANY}/search", query_string={"q": f"gospel {NAMED}"},
                      headers=headers).status_code == 200
    assert client.get(f"/api/v1/listeners/{COMPANY}/{NAMED}", headers=headers).status_code == 200
    similar_listeners(COMPANY, NAMED)
    audience = create_audience(COMPANY, f"VIP {NAMED}", "gospel music and church worship")
    refresh_audience(COMPANY, audience["audience_id"])


def asked_the_ai() -> None:
    """A brief that names a listener read, a recommendation made and saved as a plan, a listener's AI profile, the
    segments' insights, and a guess promoted into an empty declared field."""
    brief = f"Reach gospel lovers in Soweto, and call {NUMBERS[4]} first"
    parse_brief(COMPANY, brief)
    save_plan(COMPANY, recommend(COMPANY, brief)["key"], actor="producer@station.example")
    ai_listener_profile(COMPANY, NUMBERS[4])
    ai_segment_insights(COMPANY)
    set_fields(COMPANY, PROMOTED, inferred={"inferred_age_group": {"value": "25-34", "confidence": 0.9}})
    promote_demographics(COMPANY, PROMOTED)


def watched(receiver) -> None:
    """Webhook endpoints sharing listener fields (one answering, one refusing), an alert rule, a second run later
    (segment moves queued as events, the run's listeners queued to be embedded), a check that fires, an event that
    names a listener, and the queue worked."""
    add_endpoint(COMPANY, receiver.url, "a-secret-of-the-station-1",
                 ["listener.entered_segment", "listener.left_segment", "alert.fired"], ["location", "name"])
    add_endpoint(COMPANY, f"http://127.0.0.1:{free_port()}/refused", "a-secret-of-the-station-2",
                 ["alert.fired", "listener.entered_segment"], ["tags"])
    create_rule(COMPANY, "above", "total", 1, webhook=True)
    later = utcnow() + timedelta(days=200)
    previous = active()
    activate(replace(previous, auto_embed=True))
    try:
        segment_company(COMPANY, later)  # everyone has gone quiet since: they move
    finally:
        activate(previous)
    check_station(COMPANY, later)
    emit(COMPANY, "alert.fired", {"about": f"listener {NUMBERS[5]}"})
    Worker(settings=None).work_until_idle()


def signed_in_wrongly(client) -> None:
    """A failed sign-in, which the dashboard counts in the database."""
    client.post("/login", data={"email": "producer@station.example", "password": "not the password"})


@pytest.fixture
@kept
def written(app, client, tmp_path) -> Seen:
    """Station 1 written through every feature's write path, and one of its listeners erased; what every write
    meanwhile held."""
    with recording(FORMS) as seen:
        _, token = create_key([COMPANY], name="CRM sync")
        create_user("producer@station.example", "a long enough password", [COMPANY], name="Thandi")
        headers = {"X-API-Key": token}
        imported(tmp_path, client, headers)
        start_segmentation(COMPANY, actor="producer@station.example", wait=True)
        load(COMPANY, 500, note="opening balance", idempotency_key="load-1")
        searched(client, headers)
        asked_the_ai()
        with receiving() as receiver:
            watched(receiver)
        signed_in_wrongly(client)
        erase_listener(COMPANY, ERASED, active().secret_key, suppress=True, actor="producer@station.example")
        Worker(settings=None).work_until_idle()
    return seen


# --- the scan ------------------------------------------------------------------------------------------------------

def held(written: Seen) -> dict[tuple[str, str], set[str]]:
    """(collection, field) -> the numbers it held in plain text, now or in any write since the station was empty."""
    return {place: {form.decode() for form in found}
            for place, found in stored(FORMS).add(written).held.items()}


def test_every_collection_that_holds_documents_is_declared(written):
    undeclared = sorted({collection for collection, _ in held(written) if not any(declared_fields(collection))})
    assert undeclared == [], f"collections no store declares: {undeclared}"


def test_every_field_of_every_collection_is_declared_personal_or_free(written):
    undeclared = []
    for collection, field in sorted(held(written)):
        personal, free = declared_fields(collection)
        if (personal or free) and field not in personal | free:
            undeclared.append((collection, field))
    assert undeclared == [], f"(collection, field) declared neither personal nor free: {undeclared}"


def test_no_field_declared_personal_holds_a_listener_s_number_as_sent(written):
    plain = sorted((collection, field, sorted(numbers)) for (collection, field), numbers in held(written).items()
                   if numbers and field in declared_fields(collection)[0])
    assert plain == [], f"fields declared personal that hold a listener's number in plain text: {plain}"


def test_no_field_declared_free_or_not_at_all_holds_a_listener_s_number(written):
    named = sorted((collection, field, sorted(numbers)) for (collection, field), numbers in held(written).items()
                   if numbers and field not in declared_fields(collection)[0])
    assert named == [], f"fields not declared personal that hold a listener's number: {named}"


def test_no_field_is_declared_both_personal_and_free(app):
    both = sorted({(collection, field) for collection in {store.collection for store in stores()}
                   for field in set.intersection(*declared_fields(collection))})
    assert both == [], f"(collection, field) declared personal by one store and free by another: {both}"
