"""Text the database can keep and people can read: every free text a client sends (a note, a reason, a brief, a
name, an import cell) is checked here before anything is written, so that a write never fails half-way on it.

A lone surrogate (what a JSON escape such as "\\ud800" gives) cannot be encoded as UTF-8, so a BSON write of it fails
after the writes before it landed; NUL ends strings in C code that reads them and is never meant as text.
"""
from __future__ import annotations

from core.errors import ValidationFailed


def text_problem(text: str) -> str | None:
    """Why the text cannot be stored, in a sentence without the text itself (None when it can)."""
    if "\x00" in text:
        return "Holds a NUL character, which is not text."
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:
            return "Is not valid Unicode text (it holds a lone surrogate, such as \\ud800)."
    return None


def storable(text: str, loc: list) -> str:
    """The text itself when it can be stored, else a 422 at `loc`."""
    problem = text_problem(text)
    if problem:
        raise ValidationFailed.one(loc, problem, "string_type")
    return text
