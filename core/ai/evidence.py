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
MIN_AGREEING = 5
MIN_MESSAGES = 2
"""The least evidence a confidence is shown on: at least MIN_AGREEING look-alikes who declared the field agreeing
on the value, or at least MIN_MESSAGES of the listener's own latest messages speaking for it. A calibrated
confidence is right on average over guesses like it, but "84% sure" said of a guess that 2 of 50 look-alikes and
one message support is a claim about this listener that so little cannot carry; below the rule the value is given
with "not enough evidence" and no confidence, so it is never promoted."""
THIN = (f"not enough evidence for a confidence (it takes {MIN_AGREEING} look-alikes agreeing or {MIN_MESSAGES} "
        "of their messages)")


def enough_evidence(field: str, found: Guess, value: str) -> bool:
    """Whether a guess rests on enough evidence for its confidence to be shown (MIN_AGREEING, MIN_MESSAGES)."""
    agreeing = int(found.votes.counts[0][found.code]) if found.votes.counts.size else 0
    return agreeing >= MIN_AGREEING or _speaking_for(field, found.tokens, value) >= MIN_MESSAGES


def _speaking_for(field: str, tokens: list[str], value: str) -> int:
    """How many of the listener's message tokens name this value: its place, or its language."""
    if field == "location":
        return sum(t == f"place:{value}" for t in tokens)
    if field == "language":
        return sum(bool(station_spelling(language_named(t), [value])) for t in tokens if t.startswith("lang:"))
    return 0


def evidence(model: FieldModel, found: Guess, confidence: float | None, messages: int) -> str:
    """The sentence for one inferred demographic (`confidence` None: not enough evidence for one)."""
    value = model.voters.labels[found.code]
    parts = [_votes(model.field, found, value), _messages(model.field, found.tokens, value, messages),
             THIN if confidence is None else _checked(model, confidence)]
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
