"""A theme turned into the search queries of a custom segment: the theme itself first, then a few more that find the
listeners it is about, by the provider the settings choose (docs/decisions.md §1).

`local` answers offline and deterministically from the station's own vocabulary (core.audiences.vocabulary).
`openai` is asked through core.ai.chat: the theme, the description and the station's vocabulary travel as data,
never as instructions, and whatever it answers can only be queries run within this company's listeners.
"""
from __future__ import annotations

from core.ai.chat import ask_json
from core.audiences.rules import QUERIES_MAX, THEME_MAX, distinct
from core.audiences.vocabulary import Term, closest_terms, station_terms
from core.config import active
from core.text.storable import text_problem

LOCAL_MODEL = "station-vocabulary-1"
VOCABULARY_SHOWN = 40  # values of each kind the model is offered (the prompt pays per token)
TASK = ("A producer describes an audience of the station's listeners by a theme and maybe a description. Write one "
        "to four further short search queries that find the listeners who fit it, phrased as listener profiles are "
        "written (\"shows: <title>\", \"interests: <interest>\", \"location: <place>\", \"language: <language>\", "
        "\"channels: <channel>\", \"messages: <words such listeners write>\"), using the station's own vocabulary "
        "where it fits. Every query must be about the theme; add none that is not.")
SCHEMA = {"type": "object", "additionalProperties": False, "required": ["queries"],
          "properties": {"queries": {"type": "array", "minItems": 1, "maxItems": QUERIES_MAX - 1,
                                     "items": {"type": "string"}}}}
KINDS_SHOWN = {"shows": "show", "interests": "interest", "message_themes": "theme", "places": "place",
               "languages": "language", "channels": "channel", "dayparts": "daypart"}


def search_queries(company_id: int, theme: str, description: str | None = None) -> dict:
    """{"queries": 2 to 5 distinct texts, the theme (with its description) first, "provider", "model", "tokens_in",
    "tokens_out"}; the station's vocabulary grounds the others."""
    terms = station_terms(company_id)
    if active().ai_provider == "openai":
        return _openai(theme, description, terms)
    chosen = [term.phrase for term in closest_terms(" ".join(filter(None, (theme, description))), terms,
                                                    QUERIES_MAX - 1)]
    return {"queries": finished(theme, description, profile_query(chosen) + chosen), "provider": "local",
            "model": LOCAL_MODEL, "tokens_in": 0, "tokens_out": 0}


def profile_query(phrases: list[str]) -> list[str]:
    """The chosen words together, as one listener's text holds them ("shows: A, B. language: isiZulu"):
    it scores highest the listeners who have all of them, where each word alone finds those who have that one (on
    the 3,000-listener bench station, "isiZulu speakers who love the breakfast show" found 0.84 against 0.75)."""
    if len(phrases) < 2:
        return []
    parts: dict[str, list[str]] = {}
    for phrase in phrases:
        label, _, value = phrase.partition(": ")
        parts.setdefault(label, []).append(value)
    return [". ".join(f"{label}: {', '.join(values)}" for label, values in parts.items())]


def finished(theme: str, description: str | None, extra: list[str]) -> list[str]:
    """The theme (with its description) first, then the extra queries, distinct, at most QUERIES_MAX; never fewer
    than two, the second then being the theme alone or as listeners' messages would say it."""
    first = f"{theme}. {description}" if description else theme
    kept = [q.strip()[:THEME_MAX] for q in extra if isinstance(q, str) and q.strip() and not text_problem(q)]
    queries = distinct([first, *kept])[:QUERIES_MAX]
    for fallback in (theme, f"messages: {theme}"):
        if len(queries) < 2:
            queries = distinct([*queries, fallback])
    return queries


def _openai(theme: str, description: str | None, terms: list[Term]) -> dict:
    """The model's queries about the theme, the station's vocabulary offered as data."""
    data = {"theme": theme, "description": description,
            "station_vocabulary": {name: [t.value for t in terms if t.kind == kind][:VOCABULARY_SHOWN]
                                   for name, kind in KINDS_SHOWN.items()}}
    answer = ask_json(TASK, data, SCHEMA, name="custom_segment_queries", max_tokens=300, timeout_s=20.0)
    return {"queries": finished(theme, description, answer.content["queries"]), "provider": answer.provider,
            "model": answer.model, "tokens_in": answer.tokens_in, "tokens_out": answer.tokens_out}
