"""A text read in the station's own words: the phrases of a brief, a search query or an audience's theme that name
what the station holds (a show, tag, interest, channel, campaign type, language, place, daypart, weekday, segment,
gender or age group), however they are cased, spelt or abbreviated, as criteria on the shared filters; what no phrase
names is left for the caller (a brief's dates and budget, a query's free text).

The text's phrases (runs of one to a few words) are compared with the station's vocabulary phrases by rapidfuzz in
one matrix; the longest, then closest, match wins each stretch of words. A short phrase must match exactly, a longer
one may differ by a letter or so. Read strictly (a brief, which also talks of the advertiser's own business), an
interest needs a word that makes it the audience's ("soccer fans"), a plain channel word a word that makes it a
channel ("on the app"), a one-word place its capital letter; read leniently (a search query or a theme, which speak
only of listeners), an interest or a place needs no more than its name. A match after "not", "no", "excluding" and
the like says what the audience is not (core.search.negation): an exclusion, a flag's other answer, or unmapped with
the reason. Filters written as parameters ("opt_in=false") are read as they are; ages and LSM levels from their
numbers.
"""
from __future__ import annotations

import re

import numpy as np
from rapidfuzz import fuzz, process

from core.explore.filters import FALSE, TRUE
from core.explore.spec import SPEC
from core.listeners.fields import AGE_GROUPS, LSM_LEVELS
from core.search import negation
from core.search import words as w
from core.search.vocabulary import WORD, Term, Vocabulary

MAX_WORDS = 6
LENIENT = ("interest", "capital", "broader")
"""The context a query or a theme need not give: they speak only of listeners, in any case ("gospel", "durban"). A
plain channel word still needs its cue ("on the app"), and a people word must not be someone else's. A kind of taste
names its broader taste only here ("broader": core.search.words.BROADER), never in a brief."""
GROUP_YEARS = {"18-24": (18, 24), "25-34": (25, 34), "35-44": (35, 44), "45-54": (45, 54), "55-64": (55, 64),
               "65+": (65, 74)}
AGE_RANGE = re.compile(r"\b(?P<cue>aged?|ages|between)?\s*(?P<low>\d{2})\s*(?:-|–|to|and)\s*(?P<high>\d{2})"
                       r"(?P<after>\s*(?:years?|yrs|year[- ]olds?))?(?!\d)", re.IGNORECASE)
AGE_OVER = re.compile(r"\b(?:(?:aged\s+)?(?:over|above|older than)[- ](?P<over>\d{2})(?P<s>s)?|(?P<plus>\d{2})\+)",
                      re.IGNORECASE)
AGE_UNDER = re.compile(r"\b(?:aged\s+)?(?:under|below|younger than)[- ](?P<under>\d{2})(?P<s>s)?", re.IGNORECASE)
PEOPLE = re.compile(r"\b(?:aged|men|women|people|adults|listeners|males|females|speakers)\b")
NOT_AGES = re.compile(r"\s*(?:%|percent|km|kg|min|minutes|hours|h\b|am\b|pm\b|:|\d)", re.IGNORECASE)
DECADES = re.compile(r"\bin their (?P<decade>20s|30s|40s|50s|60s|twenties|thirties|forties|fifties|sixties)\b",
                     re.IGNORECASE)
DECADE_START = {"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60}
LSM = re.compile(r"\bLSM\s*(?P<low>\d{1,2})(?:\s*(?:-|–|to)\s*(?:LSM\s*)?(?P<high>\d{1,2}))?(?P<plus>\+)?",
                 re.IGNORECASE)
STATED = re.compile(r"\b(?P<name>[A-Za-z]+(?:[_-][A-Za-z]+)+|[A-Za-z]+)\s*(?P<op>!?=)\s*(?P<value>[\w+'\"-]+)")


def read_criteria(vocab: Vocabulary, text: str, lenient: bool = False) -> tuple[list[dict], list[dict]]:
    """The criteria a text names ([{field, values, words, span}], in the text's order of kinds: stated, phrases,
    numbers) and what it negates that no filter can say ([{words, reason, span}])."""
    tokens = [(m.group().casefold(), m.start(), m.end()) for m in WORD.finditer(text)]
    items, unmapped = _stated(text)
    masked = _masked(text) + [i["span"] for i in items + unmapped]
    numbers = [i for i in _ages(text, vocab) + _lsm(text) if not _overlaps(i["span"], masked)]
    ages = [i["span"] for i in numbers]  # "older than 40" is an age from its number, not the word "older"
    found, negated = _matched_terms(vocab, text, tokens, masked + ages, lenient)
    items += found + _negated_numbers(text, tokens, numbers, [i["span"] for i in found + negated])
    return items, unmapped + negated


def overlaps(span: tuple[int, int], spans: list) -> bool:
    """Whether a span of the text overlaps any of the others."""
    return _overlaps(span, spans)


def _masked(brief: str) -> list[tuple[int, int]]:
    """Spans of day names that hold an audience word ("Mother's Day") and must match nothing."""
    lowered = brief.casefold().replace("’", "'")
    return [(m.start(), m.end()) for phrase in w.MASKED_PHRASES for m in re.finditer(re.escape(phrase), lowered)]


def _candidates(vocab: Vocabulary, tokens: list) -> list[tuple]:
    """(words, score, first, last, phrase) of every stretch of the brief close enough to a vocabulary phrase, with as
    many words or one fewer ("superfans" is "super fans"; "English speaking men" is not "English speakers")."""
    grams = [(i, i + n) for n in range(1, MAX_WORDS + 1) for i in range(len(tokens) - n + 1)]
    if not grams or not vocab.terms:
        return []
    texts = [" ".join(t[0] for t in tokens[a:b]) for a, b in grams]
    phrases = sorted({t.phrase for t in vocab.terms})
    scores = process.cdist(texts, phrases, scorer=fuzz.ratio, score_cutoff=86, dtype=np.uint8, workers=1)
    out = []
    for g, p in zip(*np.nonzero(scores)):
        text, phrase, score = texts[g], phrases[p], int(scores[g, p])
        if text[0] == phrase[0] and score >= _needed(phrase) and 0 <= phrase.count(" ") - text.count(" ") <= 1:
            out.append((grams[g][1] - grams[g][0], score, grams[g][0], grams[g][1], phrase))
    return sorted(out, key=lambda c: (-c[0], -c[1], c[2]))


def _needed(phrase: str) -> int:
    """Short phrases match exactly ("men" is not "me"); longer ones may differ by about a letter."""
    return 100 if len(phrase) <= 5 else 93 if len(phrase) <= 9 else 88


def _chosen(vocab: Vocabulary, brief: str, tokens: list, masked: list,
            lenient: bool = False) -> list[tuple[int, int, str, list[Term]]]:
    """(first, last, phrase, terms) of each stretch of the brief that names vocabulary terms, in the brief's order: the
    longest, then closest, match wins where they overlap."""
    by_phrase: dict[str, list[Term]] = {}
    for term in vocab.terms:
        by_phrase.setdefault(term.phrase, []).append(term)
    used, out = set(), []
    for _, _, first, last, phrase in _candidates(vocab, tokens):
        span = (tokens[first][1], tokens[last - 1][2])
        if used & set(range(first, last)) or _overlaps(span, masked):
            continue
        terms = [t for t in by_phrase[phrase] if lenient and t.needs in LENIENT or _in_context(t, brief, tokens,
                                                                                               first, last)]
        if terms:
            used |= set(range(first, last))
            out.append((first, last, phrase, terms))
    return sorted(out, key=lambda match: match[0])


def _matched_terms(vocab: Vocabulary, brief: str, tokens: list, masked: list,
                   lenient: bool = False) -> tuple[list, list]:
    """The criteria the brief's words name, and the negated ones no filter can say (unmapped, with the reason)."""
    items, unmapped, previous, since = [], [], None, 0
    for first, last, phrase, terms in _chosen(vocab, brief, tokens, masked, lenient):
        sets = list(dict.fromkeys(s for term in terms for s in term.sets))  # "opted-in" and "opted in" are one
        fields = {name for name, _ in sets}
        start = _negation_start(tokens, (since, first, last, phrase), fields, previous)
        since, previous = last, None if start is None else (last, fields)
        span = (tokens[first if start is None else start][1], tokens[last - 1][2])
        words = brief[span[0]:span[1]]
        found, reason = (sets, None) if start is None else negation.negated(sets)
        if reason:
            unmapped.append({"words": words, "reason": reason, "span": span})
        items += [{"field": name, "values": list(values), "words": words, "span": span} for name, values in found]
    return items, unmapped


def _negation_start(tokens: list, match: tuple[int, int, int, str], fields: set, previous: tuple | None) -> int | None:
    """Where the negation of a match (where the previous one ended, its first token, last, phrase) starts: its
    negation word, or the match itself when a negation word is inside it ("cannot contact" is close to "can
    contact") or it is the next value of a negated list of the same filter ("no SMS or WhatsApp"); None when it is
    not negated."""
    since, first, last, phrase = match
    start = negation.cue(tokens, first, since)
    if start is None and (negation.inside(tokens[first:last], phrase) or previous and previous[1] & fields
                          and negation.continues(tokens, previous[0], first)):
        return first
    return start


def _negated_numbers(brief: str, tokens: list, items: list[dict], matched: list[tuple[int, int]]) -> list[dict]:
    """Ages and LSM levels read from numbers, each as an exclusion when a negation word comes before it ("not over
    50s") and after the `matched` spans before it (the negation of "not women 25-34" is the women's)."""
    out = []
    for item in items:
        since = _token_at(tokens, max([end for _, end in matched if end <= item["span"][0]], default=0))
        first = _token_at(tokens, item["span"][0])
        start = negation.cue(tokens, first, since) if first < len(tokens) else None
        if start is not None:
            span = (tokens[start][1], item["span"][1])
            item = {**item, "field": f"exclude_{item['field']}", "words": brief[span[0]:span[1]], "span": span}
        out.append(item)
    return out


def _token_at(tokens: list, offset: int) -> int:
    """The first token at or after a character offset of the brief (len(tokens) when none is)."""
    return next((i for i, t in enumerate(tokens) if t[1] >= offset), len(tokens))


def _stated(brief: str) -> tuple[list[dict], list[dict]]:
    """Filters written as parameters ("opt_in=false", "segment != dormant"): the criteria, and what is unmapped."""
    items, unmapped = [], []
    for m in STATED.finditer(brief):
        name = m["name"].casefold().replace("-", "_")
        if name not in SPEC:
            continue
        span, value = (m.start(), m.end()), _stated_value(SPEC[name][0], m["value"])
        if value is None:
            unmapped.append({"words": m.group(), "span": span,
                             "reason": f"Not a value of the {name.replace('_', ' ')} filter."})
            continue
        found, reason = negation.negated([(name, (value,))]) if m["op"] == "!=" else ([(name, (value,))], None)
        if reason:
            unmapped.append({"words": m.group(), "span": span, "reason": reason})
        items += [{"field": field, "values": list(values), "words": m.group(), "span": span}
                  for field, values in found]
    return items, unmapped


def _stated_value(kind: str, text: str):
    """The value as its filter's kind reads it: a flag (None unless yes or no), a number, or the text."""
    text = text.strip("\"'").casefold() if kind == "bool" else text.strip("\"'")
    if kind == "bool":
        return True if text in TRUE else False if text in FALSE else None
    return int(text) if kind in ("ints", "int") and text.isdigit() else text


def _in_context(term: Term, brief: str, tokens: list, first: int, last: int) -> bool:
    if term.needs == "capital":
        return brief[tokens[first][1]].isupper()
    if term.needs == "broader":
        return False
    if term.needs == "interest":
        near = {t[0] for t in tokens[max(0, first - 3): last + 2]}
        return bool(near & w.INTEREST_CUES)
    if term.needs == "person":
        return first == 0 or tokens[first - 1][0] not in w.POSSESSIVES
    if term.needs == "channel":
        near = {t[0] for t in tokens[max(0, first - 2): last + 1]}
        return bool(near & w.CHANNEL_CUES)
    return True


def _overlaps(span: tuple[int, int], spans: list) -> bool:
    return any(span[0] < b and a < span[1] for a, b in spans)


def _groups_between(low: int, high: int) -> list[str]:
    """Age groups that at least half lie within [low, high] years."""
    return [g for g, (a, b) in GROUP_YEARS.items() if min(b, high) - max(a, low) + 1 >= (b - a + 1) / 2]


def _age_item(brief: str, match, low: int, high: int) -> list[dict]:
    groups = [g for g in _groups_between(low, high) if g in AGE_GROUPS]
    if not groups:
        return []
    return [{"field": "age_group", "values": groups, "words": brief[match.start():match.end()].strip(),
             "span": (match.start(), match.end())}]


def _ages(brief: str, vocab: Vocabulary) -> list[dict]:
    """Age groups from the ages a brief states: "18-24", "aged 25 to 40", "over 50s", "35+", "in their 30s"."""
    out = []
    for m in AGE_RANGE.finditer(brief):
        low, high, text = int(m["low"]), int(m["high"]), f"{m['low']}-{m['high']}"
        stated = m["cue"] or m["after"] or text in AGE_GROUPS or _about_people(brief, m) or _bare_ages(brief, m)
        if 13 <= low < high <= 99 and stated and not _before_month(brief, m):
            out += _age_item(brief, m, low, high)
    for m in AGE_OVER.finditer(brief):
        if m["plus"] or m["s"] or _about_people(brief, m):
            out += _age_item(brief, m, int(m["over"] or m["plus"]), 120)
    for m in AGE_UNDER.finditer(brief):
        if m["s"] or _about_people(brief, m):
            out += _age_item(brief, m, 13, int(m["under"]) - 1)
    for m in DECADES.finditer(brief):
        decade = m["decade"].casefold()
        start = DECADE_START.get(decade) or int(decade[:2])
        out += _age_item(brief, m, start, start + 9)
    return out


def _about_people(brief: str, match) -> bool:
    """"aged over 50", "men over 25": the number is an age when it follows "aged" or a word for people."""
    before = brief[max(0, match.start() - 14):match.end()].casefold()
    return bool(PEOPLE.search(before))


def _bare_ages(brief: str, match) -> bool:
    """"25-54" alone is an age range in a brief, unless an amount, a unit or a time makes it something else."""
    before, after = brief[:match.start("low")].rstrip()[-1:], brief[match.end():match.end() + 8]
    return before not in ("R", "$", "€", "£", ":") and not NOT_AGES.match(after)


def _before_month(brief: str, match) -> bool:
    """"18-24 December" and "December 18-24" are dates, not an age range."""
    following = brief[match.end():match.end() + 12].strip().casefold()
    before = re.findall(r"[a-z]+", brief[max(0, match.start() - 12):match.start()].casefold())
    return any(following.startswith(month) for month in w.MONTHS) or bool(before and before[-1] in w.MONTHS)


def _lsm(brief: str) -> list[dict]:
    """LSM levels named in the brief: "LSM 7", "LSM 6-8", "LSM 8+"."""
    out = []
    for m in LSM.finditer(brief):
        low = int(m["low"])
        high = 10 if m["plus"] else int(m["high"] or low)
        levels = [level for n, level in enumerate(LSM_LEVELS, start=1) if low <= n <= high]
        if levels:
            out.append({"field": "inferred_lsm", "values": levels, "words": m.group(), "span": (m.start(), m.end())})
    return out


