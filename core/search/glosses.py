"""What listeners write about, in the station's other languages, glossed in English before a query is ranked.

Listeners' messages on a South African station are mostly English with the odd local word, while a producer may ask
in isiZulu, isiXhosa, Sesotho or Afrikaans ("luisteraars wat oor beurtkrag kla"). The offline model reads none of
these four languages (core.search.local_model), and BM25 only finds words as written, so a query in them found
nobody. Names of shows, places and languages are the same words in every language and are understood by the
vocabulary; what is left is the themes people write about, and for those a small bilingual word list does what a
translation model would, offline and at no cost. A gloss is added to the query, never put in place of it: the
original words still match a listener who wrote them.

Nguni words take prefixes ("ugesi", "kagesi", "kukagesi": electricity), so each theme lists the forms a query uses.
"""
from __future__ import annotations

import re

GLOSSES: dict[str, tuple[str, ...]] = {
    "load shedding power cuts electricity": (
        "ugesi", "kagesi", "kukagesi", "yugesi", "ukucima", "ngokucima", "ukucinywa", "kucinywa",  # isiZulu
        "umbane", "kombane", "ukucinywa kombane", "ukucima umbane",  # isiXhosa
        "motlakase", "mohlakase", "ho kgaolwa", "kgaolo ya motlakase",  # Sesotho
        "beurtkrag", "kragonderbreking", "kragonderbrekings", "kragtoevoer", "krag", "geen krag"),  # Afrikaans
    "traffic": ("ithrafikhi", "ithraffic", "itrafiki", "sephethephethe", "verkeer", "verkeersknoop", "spitsverkeer",
                "verkeersopeenhoping"),
    "water outage": ("amanzi", "awekho amanzi", "akukho manzi", "metsi", "ha ho metsi", "wateronderbreking",
                     "geen water", "watertekort"),
    "grandmother gogo": ("ugogo", "gogo", "kugogo", "umakhulu", "makhulu", "nkgono", "koko", "ouma", "oumas"),
    "mother mom": ("umama", "kumama", "mme", "mma", "moeder", "mamma", "my ma", "vir ma"),
    "thank you thanks": ("ngiyabonga", "siyabonga", "ngyabonga", "enkosi", "ndiyabulela", "siyabulela",
                         "kea leboha", "ke a leboha", "re a leboha", "dankie", "baie dankie", "bedank"),
    "greetings shout out": ("sanibonani", "sawubona", "ngibingelela", "ukubingelela", "bingelela", "molweni",
                            "molo", "ndibulisa", "dumelang", "lumelang", "ke dumedisa", "groete", "groet",
                            "groetnis"),
    "music": ("umculo", "womculo", "mmino", "musiek"),
    "song request": ("ingoma", "izingoma", "iingoma", "pina", "dipina", "liedjie", "liedjies", "versoek",
                     "ngicela", "ndicela", "ke kopa", "kopa"),
    "complaining complaints": ("khononda", "abakhononda", "bakhononda", "ukukhononda", "ukhalaza", "bakhalaza",
                               "abakhalazayo", "ngongoreha", "kla", "kla oor", "klagte", "klagtes", "kerm"),
    "heritage day": ("erfenisdag", "usuku lwamagugu", "usuku lwamafa", "letsatsi la bohwa"),
    "birthday": ("usuku lokuzalwa", "umhla wokuzalwa", "letsatsi la tswalo", "verjaarsdag", "verjaar",
                 "veels geluk"),
}
"""English words -> the forms of them a query may hold in isiZulu, isiXhosa, Sesotho and Afrikaans."""

NGUNI_PREFIXES = ("ngoku", "nokuku", "kuku", "ukuku", "ngo", "nge", "nga", "ku", "ka", "kwa", "ko", "wo", "we", "ye",
                  "yo", "lo", "la", "na", "no", "ne", "se", "sa", "so", "aba", "ama", "izi", "ii", "um",
                  "u", "i", "a", "e")
"""Class and preposition prefixes that a Nguni word may carry before a listed form ("ngomculo": with music)."""


def _stem(form: str) -> str:
    """A one-word form without a Nguni prefix, when what is left is still a word of its own (four letters or more)."""
    for prefix in NGUNI_PREFIXES:
        if form.startswith(prefix) and len(form) - len(prefix) >= 4:
            return form[len(prefix):]
    return form


_ENGLISH = {tuple(_stem(w) for w in form.split()): english for english, forms in GLOSSES.items() for form in forms}
_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _stems in sorted(_ENGLISH, key=len, reverse=True):
    _BY_FIRST.setdefault(_stems[0], []).append(_stems)
_PREFIXES = set(NGUNI_PREFIXES)
_LONGEST = max(map(len, NGUNI_PREFIXES))
WORD = re.compile(r"[^\W\d_]+")


def glossed(text: str) -> str:
    """The text, followed by the English of the themes it names in the station's other languages (each once)."""
    found = themes_of(text)
    return " ".join([text, *found]) if found else text


def themes_of(text: str) -> list[str]:
    """The English of the themes the text names in the station's other languages, each once, in its order.

    Word by word, with a look-up of each word and of what is left after each prefix it may carry: a search over
    every listener's text costs about a second per 100,000, where one regular expression of every form took 36."""
    words = [_known(w) for w in WORD.findall(text.casefold())]
    found: dict[str, None] = {}
    for at, word in enumerate(words):
        for stems in _BY_FIRST.get(word, ()):
            if tuple(words[at:at + len(stems)]) == stems:
                found[_ENGLISH[stems]] = None
                break
    return list(found)


def _known(word: str) -> str:
    """The listed stem this word is, with or without a prefix; else the word."""
    if word in _BY_FIRST or len(word) < 5:
        return word
    for cut in range(1, min(_LONGEST, len(word) - 4) + 1):
        if word[:cut] in _PREFIXES and word[cut:] in _BY_FIRST:
            return word[cut:]
    return word
