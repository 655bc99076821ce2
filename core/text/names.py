"""Names as people see them: two names that look the same on a screen are the same name (an audience named "Gospel
fans" and one named "Gоspel fans" with a Cyrillic о, or with a zero-width space, would be two audiences nobody can
tell apart).

The key is Unicode's skeleton idea (UTS #39) on top of compatibility folding: NFKC, invisible characters dropped,
case folded, each letter that only looks Latin mapped to the Latin letter it imitates (the confusables table of
`confusable-homoglyphs`), and blanks collapsed.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables

INVISIBLE = {"Cf", "Cc"}
"""Format characters (zero-width space and joiners, bidi marks) and controls: none of them changes how a name reads."""
VARIATION_SELECTORS = {*map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0))}


def name_key(name: str) -> str:
    """What makes two names the same to a reader: "Gospel  Fans", "gospel fans" and "Gоspel\u200bfans" share one."""
    folded = unicodedata.normalize("NFKC", name)
    visible = "".join(" " if c.isspace() else c for c in folded if c.isspace() or not _invisible(c))
    lowered = visible.casefold()
    return " ".join("".join(_latin(c) for c in lowered).split())


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in INVISIBLE or char in VARIATION_SELECTORS


@lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    """The Latin letter a character imitates ("о", Cyrillic, is "o"), or the character itself."""
    if char.isascii():
        return char
    found = confusables.is_confusable(char, preferred_aliases=["latin"], greedy=True) or []
    for entry in found:
        for glyph in entry["homoglyphs"]:
            if glyph["n"].startswith("LATIN") and glyph["c"].isascii():
                return glyph["c"].casefold()
    return char
