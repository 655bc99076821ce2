"""What a brief says its audience is not: which words negate a match, and the criterion a negated match becomes.

A negated value of a filter of several values becomes that filter's exclusion ("exclude super fans" is
`exclude_segment: [super_fan]`), a negated flag its other answer ("not opted in" is `opt_in: false`). What no
filter can say negated is unmapped with the reason: nothing negated is ever dropped or turned into its opposite.
"""
from __future__ import annotations

from core.explore.spec import EXCLUSIONS, SPEC
from core.search import words as w

SEVERAL = "The filters cannot say this negated: it would keep listeners who fail any one of its conditions."


def _word(token: tuple) -> str:
    return token[0].replace("’", "'")


def cue(tokens: list, first: int, since: int = 0) -> int | None:
    """The negation word before token `first`, from token `since` on (not across another match): one word before
    or two ("not opted in", "not on WhatsApp"), or further when only small words lie between ("don't use the app").
    "not only" and "not just" negate nothing."""
    for i in range(first - 1, max(since, first - 5) - 1, -1):
        between = [_word(t) for t in tokens[i + 1:first]]
        if len(between) > 1 and not set(between) <= w.SMALL_WORDS:
            return None
        if _word(tokens[i]) in w.NEGATIONS:
            return None if between and between[0] in w.NOT_NEGATING else i
    return None


def inside(tokens: list, phrase: str) -> bool:
    """Whether a matched stretch holds a negation word its phrase lacks (close spelling lets "cannot contact" match
    "can contact")."""
    return bool({_word(t) for t in tokens} & w.NEGATIONS - set(phrase.split()))


def continues(tokens: list, last: int, first: int) -> bool:
    """Whether the words from token `last` to `first` only join two values of a list ("no SMS or WhatsApp",
    "excluding super fans, dormant and at risk listeners"), so that a negation carries over."""
    between = {_word(t) for t in tokens[last:first]}
    if not between <= w.LIST_WORDS | w.LIST_PREPOSITIONS:
        return False
    return not between & w.LIST_PREPOSITIONS or bool(between & {"or", "nor"})


def negated(sets: list[tuple[str, tuple]]) -> tuple[list[tuple[str, tuple]], str | None]:
    """The criteria that say the opposite of a match's (filter, values) sets, or none and the reason."""
    if len(sets) != 1:  # "we can contact" is opted in AND with permission: its opposite is an OR
        return [], SEVERAL
    name, values = sets[0]
    if name in EXCLUSIONS:  # "exclude_segment != dormant" keeps them
        return [(EXCLUSIONS[name], values)], None
    if SPEC[name][0] == "bool":
        return [(name, tuple(not v for v in values))], None
    if f"exclude_{name}" in SPEC:
        return [(f"exclude_{name}", values)], None
    return [], f"The {name.replace('_', ' ')} filter takes one value to keep and cannot leave one out."
