"""The `local` provider's listener inference on seeded demo stations: answers in the fields' vocabularies, the same
answer twice, unknown and erased listeners not found, honest confidences (a field too few listeners declared stays
under the promotion threshold; values at 0.70 or more are right more often than the rest, checked against declared
values hidden the way bench/inference.py hides them), and evidence that names nobody else."""
from __future__ import annotations

import re

import numpy as np
import pytest

from core.ai import memo
from core.ai.demographics import field_model
from core.ai.learned import current_panel
from core.ai.local import DEMOGRAPHICS, demographic, infer_listener
from core.demo.seed import seed_demo
from core.errors import ListenerNotFound
from core.listeners import sealed_writes, snapshot
from core.listeners.fields import AGE_GROUPS, GENDERS, LSM_LEVELS
from core.privacy.erasure import erase_listener
from core.segmentation.runs import resegment_listeners, segment_company
from tests.conftest import empty_database
from tests.factories import stored_listeners
from tests.memory import NOW

pytestmark = pytest.mark.db

STATION, SMALL = 1, 2
HIDDEN_EVERY = 5
PROMOTE_AT = 0.70


def hide_declared(company_id: int) -> dict[str, dict[str, str]]:
    """Unset gender, age group, language and location of every HIDDEN_EVERY-th listener who declared any (in
    originator order) and segment again; returns what was hidden."""
    docs = [d for d in stored_listeners(company_id)
            if any(d.get(f) not in (None, "") for f in DEMOGRAPHICS.values())][::HIDDEN_EVERY]
    hidden = {d["originator"]: {f: d[f] for f in DEMOGRAPHICS.values() if d.get(f)} for d in docs}
    unset = dict.fromkeys(DEMOGRAPHICS.values())
    sealed_writes.edit(company_id, {originator: lambda _: unset for originator in hidden})
    segment_company(company_id, NOW)
    return hidden


@pytest.fixture(scope="module")
def stations(_app):
    """Station 1: the demo station of 2,000 listeners, a fifth of its declaring listeners' demographics hidden;
    station 2: 150 listeners, too few to check any guess on. Returns station 1's hidden values."""
    empty_database()
    memo.forget()
    seed_demo(STATION, 2000, seed=7, now=NOW)
    hidden = hide_declared(STATION)
    seed_demo(SMALL, 150, seed=11, now=NOW)
    return hidden


@pytest.fixture(scope="module")
def answers(stations):
    """Every hidden listener of station 1 inferred."""
    return {originator: infer_listener(STATION, originator)["values"] for originator in stations}


def test_the_answer_names_the_local_provider_its_model_and_no_tokens(stations):
    answer = infer_listener(STATION, next(iter(stations)))
    assert answer["provider"] == "local" and answer["model"] == "lookalike-knn-1"
    assert answer["tokens_in"] == answer["tokens_out"] == 0
    assert set(answer["values"]) == {*DEMOGRAPHICS, "inferred_lsm", "inferred_interests"}


def test_values_are_in_the_fields_vocabularies(answers):
    snap = snapshot.current(STATION)
    vocabularies = {"inferred_gender": GENDERS, "inferred_age_group": AGE_GROUPS, "inferred_lsm": LSM_LEVELS,
                    "inferred_language": snap.vocab["language"], "inferred_location": snap.vocab["location"]}
    for values in answers.values():
        for name, vocabulary in vocabularies.items():
            assert values[name] is None or values[name]["value"] in vocabulary
            assert values[name] is None or values[name]["confidence"] is None or 0 <= values[name]["confidence"] <= 1
        interests = values["inferred_interests"]
        assert len(interests) <= 6
        assert [i["confidence"] for i in interests] == sorted((i["confidence"] for i in interests), reverse=True)


def test_inference_is_deterministic_even_when_everything_is_learned_again(stations):
    originator = sorted(stations)[3]
    first = infer_listener(STATION, originator)
    assert infer_listener(STATION, originator) == first
    memo.forget(STATION)
    assert infer_listener(STATION, originator) == first


def test_an_unknown_listener_is_not_found(stations):
    with pytest.raises(ListenerNotFound):
        infer_listener(STATION, "27999999999")


def test_an_erased_listener_is_not_found_under_either_name(stations):
    originator = snapshot.current(SMALL).originators[0]
    receipt = erase_listener(SMALL, str(originator), "test-secret")
    snap = snapshot.current(SMALL)
    alias = snap.originators[snap.cols["erased"]][0]
    with pytest.raises(ListenerNotFound):
        infer_listener(SMALL, str(originator))
    with pytest.raises(ListenerNotFound):
        infer_listener(SMALL, str(alias))
    assert receipt


def test_a_field_too_few_listeners_declared_stays_under_the_promotion_threshold(stations):
    snap = snapshot.current(SMALL)
    for originator in snap.originators[~snap.cols["erased"]][:40].tolist():
        values = infer_listener(SMALL, originator)["values"]
        for name in (*DEMOGRAPHICS, "inferred_lsm"):
            assert values[name] is None or (values[name]["confidence"] or 0) < PROMOTE_AT
        for name in DEMOGRAPHICS:
            value = values[name]  # no value, no confidence for want of evidence, or one said to be unchecked
            assert value is None or value["confidence"] is None or "could be checked" in value["evidence"]


def test_calibration_never_makes_a_higher_score_worth_less(stations):
    panel = current_panel(snapshot.current(STATION))
    for field in DEMOGRAPHICS.values():
        accuracy = field_model(panel, field).calibration.accuracy
        assert len(accuracy) and np.all(np.diff(accuracy) >= 0)


def test_values_at_the_promotion_threshold_are_right_more_often_than_the_rest(stations, answers):
    high, low = [], []
    for originator, truth in stations.items():
        for name, field in DEMOGRAPHICS.items():
            value = answers[originator][name]
            if field in truth and value:
                (high if (value["confidence"] or 0) >= PROMOTE_AT else low).append(value["value"] == truth[field])
    assert len(high) >= 100 and len(low) >= 100
    assert np.mean(high) >= PROMOTE_AT > np.mean(low)


def test_gender_which_behaviour_barely_shows_is_never_offered_for_promotion(answers):
    assert all(v["inferred_gender"] is None or (v["inferred_gender"]["confidence"] or 0) < PROMOTE_AT
               for v in answers.values())


def test_a_listener_without_messages_is_placed_by_lookalikes_alone(stations):
    panel = current_panel(snapshot.current(STATION))
    inferred = demographic(panel, "language", panel.matrix[0], 0, tokens=[], messages=0)
    assert inferred["value"] in panel.labels["language"]
    assert "message" not in inferred["evidence"] and "listeners most like this one" in inferred["evidence"]


def test_evidence_never_names_another_listener(answers):
    names = {doc["name"] for doc in stored_listeners(STATION) if doc.get("name")}
    for values in answers.values():
        texts = [v["evidence"] for name, v in values.items() if v and name != "inferred_interests"]
        texts += [i["evidence"] for i in values["inferred_interests"]]
        for text in texts:
            assert not re.search(r"\d{9,}", text)
            assert not any(name in text for name in names)


def test_the_resegmentation_after_an_ai_answer_keeps_what_was_learned(stations):
    panel = current_panel(snapshot.current(STATION))
    resegment_listeners(STATION, [next(iter(stations))], now=NOW, kind="ai")
    assert current_panel(snapshot.current(STATION)) is panel


def test_an_erasure_has_everything_learned_again_without_the_erased_listener(stations):
    panel = current_panel(snapshot.current(SMALL))
    erased = str(panel.originators[len(panel) // 2])
    erase_listener(SMALL, erased, "test-secret")
    again = current_panel(snapshot.current(SMALL))
    assert again is not panel and again.row_of(erased) == -1
