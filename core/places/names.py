"""How a place's name is compared: the words of it, without case, accents or punctuation, so that "KwaZulu-Natal",
"kwazulu natal" and "KWAZULU NATAL" are one name."""
from __future__ import annotations

import re
import unicodedata

WORDS = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """The name's words, lower-cased, accents dropped, apostrophes joined ("Jeffrey’s Bay": "jeffreys bay")."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    plain = re.sub(r"['’`]", "", plain)
    return " ".join(WORDS.findall(plain.casefold()))
