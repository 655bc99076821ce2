"""Why an inferred value was given, as one plain-English sentence a producer understands: how many of the
listener's look-alikes declared it, what the listener's own messages showed, and how often such guesses were right
on this station. Never a word about who any other listener is.
"""
from __future__ import annotations

from collections import Counter

from core.ai.demographics import FieldModel, Guess
from core.ai.language import NAMES, language_named, station_spelling
from core.calibration import MIN_SAMPLES
from core.text.wording import agree, percent, plural, sentence

NOUNS = {"gender": "gender", "age_group": "age", "language": "language", "location": "location"}
VERBS = {"gender": ("is", "are"), "age_group": ("is aged", "are aged"), "language": ("speaks", "speak"),
         "location": ("lives in", "live in")}
SHOWN = {"non_binary": "non-binary"}


def evidence(model: FieldModel, found: Guess, confidence: float, messages: int) -> str:
    """The sentence for one inferred demographic."""
    value = model.voters.labels[found.code]
    parts = [_votes(model.field, found, value), _messages(model.field, found.tokens, value, messages),
             _checked(model, confidence)]
    return sentence("; ".join(part for part in parts if part))


def _votes(field: str, found: Guess, value: str) -> str:
    heads = int(found.votes.counts[0].sum())
    if not heads:
        return "no listener who behaves like this one gave their " + NOUNS[field]
    agreeing = int(found.votes.counts[0][found.code])
    one, many = VERBS[field]
    return (f"{agreeing} of the {plural(heads, 'listener')} most like this one who gave their {NOUNS[field]} "
            f"{agree(agreeing, one, many)} {SHOWN.get(value, value)}")


def _messages(field: str, tokens: list[str], value: str, messages: int) -> str:
    """What the listener's own latest messages showed (nothing for a field they do not speak to)."""
    places = Counter(t.removeprefix("place:") for t in tokens if t.startswith("place:"))
    if places:
        place, count = (value, places[value]) if value in places else places.most_common(1)[0]
        return f"{count} of their {plural(messages, 'latest message')} {agree(count, 'mentions', 'mention')} {place}"
    languages = Counter(language_named(t) for t in tokens if t.startswith("lang:"))
    if not languages:
        return ""
    matching = [lang for lang in languages if station_spelling(lang, [value])]
    language = matching[0] if matching and field == "language" else languages.most_common(1)[0][0]
    count = languages[language]
    return (f"{count} of their {plural(messages, 'latest message')} {agree(count, 'is', 'are')} in "
            f"{NAMES[language]}")


def _checked(model: FieldModel, confidence: float) -> str:
    calibration = model.calibration
    if calibration.trusted:
        return f"on this station such guesses were right {percent(confidence)} of the time"
    return (f"only {plural(calibration.samples, 'listener')} on this station could be checked, fewer than "
            f"{MIN_SAMPLES}, so this confidence is kept below the promotion threshold")
