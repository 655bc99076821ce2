"""The `openai` provider: the same answers as the local one, from any OpenAI-compatible chat endpoint.

The model is given the listener's or the station's facts as JSON data (messages are values in it, never
instructions), asked for JSON against a strict schema whose enums are the fields' own vocabularies, and its answer
is validated by core.ai.chat before anything is charged for good or stored. Identifiers (name, email, numbers, ID)
are never sent.
"""
from __future__ import annotations

from core.ai.chat import ask_json
from core.errors import ListenerNotFound
from core.explore.records import behaviour
from core.listeners import snapshot
from core.listeners.fields import AGE_GROUPS, GENDERS
from core.search.texts import latest_messages
from core.segmentation.rules import SEGMENTS
from core.stations.companies import get_company
from core.stations.shows import show_titles

LSM = [f"LSM {i}" for i in range(1, 11)]
SAFE_DECLARED = ("gender", "age_group", "location", "language", "ethnicity", "income_bracket", "education",
                 "employment_status")
PROFILE_TASK = ("Infer the likely demographics and interests of one radio listener from their listening behaviour "
                "and messages. Give a value only where the data supports it, else null; confidence is your "
                "probability that the value is right.")
INSIGHTS_TASK = ("For each listener segment of this radio station, say in two or three sentences what the segment "
                 "means for this station, grounded in the given figures, and give two or three concrete actions.")


def _guess(values: list[str] | None) -> dict:
    value = {"type": "string", "enum": values} if values else {"type": "string"}
    return {"type": ["object", "null"], "additionalProperties": False, "required": ["value", "confidence"],
            "properties": {"value": value, "confidence": {"type": "number", "minimum": 0, "maximum": 1}}}


def profile_schema(languages: list[str], locations: list[str]) -> dict:
    """The answer's shape, each categorical value limited to what the station can hold."""
    fields = {"inferred_gender": _guess(list(GENDERS)), "inferred_age_group": _guess(list(AGE_GROUPS)),
              "inferred_language": _guess(languages or None), "inferred_location": _guess(locations or None),
              "inferred_lsm": _guess(LSM)}
    interest = {"type": "object", "additionalProperties": False, "required": ["value", "confidence"],
                "properties": {"value": {"type": "string"},
                               "confidence": {"type": "number", "minimum": 0, "maximum": 1}}}
    fields["inferred_interests"] = {"type": "array", "maxItems": 8, "items": interest}
    return {"type": "object", "additionalProperties": False, "required": list(fields), "properties": fields}


INSIGHTS_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["headline", "segments"],
    "properties": {
        "headline": {"type": "string"},
        "segments": {"type": "array", "maxItems": len(SEGMENTS), "items": {
            "type": "object", "additionalProperties": False,
            "required": ["segment", "meaning", "actions", "priority"],
            "properties": {"segment": {"type": "string", "enum": list(SEGMENTS)},
                           "meaning": {"type": "string"},
                           "actions": {"type": "array", "maxItems": 4, "items": {"type": "string"}},
                           "priority": {"type": "string", "enum": ["high", "medium", "low"]}}}}},
}


class OpenAIProvider:
    """Answers through core.ai.chat.ask_json; `name` is "openai"."""

    name = "openai"

    def __init__(self, settings):
        self.settings = settings

    def profile(self, company_id: int, originator: str, declared: dict) -> dict:
        snap = snapshot.current(company_id)
        row = snap.row_of(originator) if len(snap) else None
        if row is None:
            raise ListenerNotFound.of(originator)
        data = listener_facts(company_id, snap, row, declared)
        schema = profile_schema(_vocab(snap, "language"), _vocab(snap, "location"))
        answer = ask_json(PROFILE_TASK, data, schema, name="listener_profile", settings=self.settings)
        values = {name: _with_evidence(value) for name, value in answer.content.items()
                  if name != "inferred_interests"}
        values["inferred_interests"] = [_with_evidence(v) for v in answer.content["inferred_interests"]]
        return {"values": values, "provider": self.name, "model": answer.model, "tokens_in": answer.tokens_in,
                "tokens_out": answer.tokens_out}

    def insights(self, facts: dict) -> dict:
        answer = ask_json(INSIGHTS_TASK, facts, INSIGHTS_SCHEMA, name="segment_insights", settings=self.settings,
                          max_tokens=2500)
        return {**answer.content, "provider": self.name, "model": answer.model, "tokens_in": answer.tokens_in,
                "tokens_out": answer.tokens_out}


def listener_facts(company_id: int, snap, row: int, declared: dict) -> dict:
    """What the model is told of one listener: behaviour, non-identifying declared values, latest messages."""
    company = get_company(company_id)
    seen = behaviour(snap, row, company.timezone)
    titles, channels = show_titles(company_id), company.channel_names()
    messages = latest_messages(company_id, [str(snap.originators[row])])
    return {"station": company.display_name, "segment": seen["segment"],
            "shows": [titles.get(int(t), f"show {t}") for t in seen["timeslots"]],
            "channels": [channels.get(int(c), f"channel {c}") for c in seen["channels"]],
            "campaign_types": seen["campaign_types"], "peak_time_of_day": seen["peak_time_of_day"],
            "interactions_90d": seen["interactions_90d"], "weekday_pattern": seen["weekday_pattern"],
            "declared": {name: declared.get(name) for name in SAFE_DECLARED if declared.get(name)},
            "latest_messages": next(iter(messages.values()), [])}


def _vocab(snap, name: str) -> list[str]:
    return sorted({str(v) for v in snap.vocab.get(name, []) if v})


def _with_evidence(guess: dict | None) -> dict | None:
    if guess is None:
        return None
    return {"value": guess["value"], "confidence": round(float(guess["confidence"]), 2),
            "evidence": "Inferred by the language model from this listener's behaviour and messages."}
