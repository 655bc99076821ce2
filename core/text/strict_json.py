"""JSON as the service reads it, wherever it comes from: API bodies, an import's mapping, JSON Lines files, Flask's
get_json. One reader, one rule.

Python's own parser settles what RFC 8259 leaves open in the most permissive way: the last of two equal keys wins
silently, an integer may have any length (and fails with a ValueError past 4,300 digits), NaN and Infinity are
numbers, nesting goes on until a RecursionError, and a decimal is rounded to a float with no trace of what was
written. This reader refuses each of them with the path of the place in the document, and keeps the text of every
number that is not an integer, so that a field can refuse more decimals than it allows (0.30000000000000004 is the
same float as 0.3 to Python, not to a ledger).
"""
from __future__ import annotations

import json
import math
import re
import threading
from decimal import Decimal

import orjson

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects: none of ours needs more than 4. Counted without recursion before the
parser, which recurses, runs."""
MAX_INTEGER = 2**53 - 1
"""The largest integer either side of 0 (I-JSON, RFC 7493 §2.2): what every JSON client reads exactly. A larger one is
sent as a string."""
_LONGEST_INTEGER = len(str(MAX_INTEGER))  # a longer text is refused before any conversion, however long it is
_SKIPPED_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')  # strings are matched whole, so skipped


class JsonError(ValueError):
    """A document the reader does not take: `loc` is the place in it (keys and indexes; [] for the whole document),
    `msg` a sentence that never repeats a value."""

    def __init__(self, loc: list, msg: str):
        self.loc, self.msg = list(loc), msg
        super().__init__(f"at {place(self.loc)}: {msg}" if self.loc else msg)


class MalformedJson(JsonError):
    """Not JSON at all: broken syntax, or bytes that are not UTF-8 text."""


class RefusedJson(JsonError):
    """JSON that no reader here takes: a key given twice, an integer past MAX_INTEGER, NaN or Infinity, a number
    beyond a float, or nesting deeper than MAX_DEPTH."""


class WrittenNumber(float):
    """A JSON number that is not an integer, as a float that keeps the `text` it was written as."""

    __slots__ = ("text",)

    def __new__(cls, text: str):
        number = super().__new__(cls, text)
        number.text = text
        return number

    def __reduce__(self):
        return WrittenNumber, (self.text,)


class _Refusal:
    """Stands in the parsed document where a refused value was, so that its path can be found afterwards."""

    def __init__(self, msg: str, key: str | None = None):
        self.msg, self.key = msg, key


def place(loc: list) -> str:
    """A path as people read it: rows[0].campaign_type."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc).lstrip(".")


def loads(document: str | bytes):
    """The document's value; MalformedJson when it is not JSON, RefusedJson for what the module's docstring lists."""
    flat = _flat_object(document)
    if flat is not None:
        return flat
    text = _decoded(document)
    _check_depth(text)
    _noted.refusals = []
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise MalformedJson([], f"{error.msg} at line {error.lineno} column {error.colno}") from None
    if _noted.refusals:
        loc, refusal = _located(value)
        raise RefusedJson(loc, refusal.msg)
    return value


def _flat_object(document: str | bytes) -> dict | None:
    """The document as orjson reads it (in a fraction of the time), when it is an object this reader reads alike:
    no escape, no decimal, no nested object, integers within MAX_INTEGER, lists of such values, and each key once
    (without escapes, a colon outside its strings is a key's, so a key given twice leaves a colon uncounted). None
    for any other document, which the reader proper reads. An import file's rows are nearly all such objects."""
    if (b"\\" if isinstance(document, bytes) else "\\") in document:
        return None
    try:
        found = orjson.loads(document)
    except orjson.JSONDecodeError:
        return None
    if type(found) is not dict:
        return None
    strings = list(found)
    for value in found.values():
        kind = type(value)
        if kind is str:  # most values: no call
            strings.append(value)
        elif not _flat(value, strings):
            return None
    colons = len(found) + "".join(strings).count(":")
    return found if document.count(b":" if isinstance(document, bytes) else ":") == colons else None


def _flat(value, strings: list[str]) -> bool:
    """Whether `_flat_object` may keep this value (a string, a boolean, null, an integer within MAX_INTEGER, or a
    list of them); its strings are added to `strings`, whose colons are counted."""
    kind = type(value)
    if kind is str:
        strings.append(value)
        return True
    if kind is int:
        return -MAX_INTEGER <= value <= MAX_INTEGER
    if kind is list:
        return all(type(item) is not list and _flat(item, strings) for item in value)
    return kind is bool or value is None


def _decoded(document: str | bytes) -> str:
    """Bytes as UTF-8 text (RFC 8259 §8.1; a byte order mark is ignored)."""
    if isinstance(document, str):
        return document
    try:
        return document.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise MalformedJson([], "not UTF-8 text") from None


def _check_depth(text: str) -> None:
    """RefusedJson when arrays and objects nest deeper than MAX_DEPTH, counted without recursion."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # too few brackets to nest that deep
    depth = 0
    for token in _SKIPPED_OR_BRACKET.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RefusedJson([], f"Nested more than {MAX_DEPTH} levels deep.")
        elif mark in "]}":
            depth -= 1


def _refused(msg: str, key: str | None = None) -> _Refusal:
    _noted.refusals.append(_Refusal(msg, key))
    return _noted.refusals[-1]


def _object(pairs: list[tuple[str, object]]):
    """An object, or a refusal naming the first key it gives twice."""
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            shown = key if len(key) <= 40 else key[:37] + "..."
            return _refused(f"The key {shown!r} is given more than once in this object; give each key once.", key)
        seen.add(key)
    raise AssertionError("fewer keys than pairs, yet none repeated")


def _integer(digits: str):
    if len(digits) < _LONGEST_INTEGER:
        return int(digits)  # fewer digits than MAX_INTEGER has: within it, whatever they are
    if len(digits.lstrip("-")) <= _LONGEST_INTEGER and abs(number := int(digits)) <= MAX_INTEGER:
        return number
    return _refused(f"Whole numbers are at most {MAX_INTEGER:,} either side of 0 (2**53 - 1, what every "
                              "JSON client reads exactly); send a larger one as a string.")


def _decimal(written: str):
    number = WrittenNumber(written)
    if math.isfinite(number):
        return number
    return _refused("The number is beyond what a float holds (about 1.8e308); give a smaller one.")


def _constant(name: str):
    return _refused(f"{name} is not a JSON number.")


_noted = threading.local()
"""The refusals of the document this thread is reading (the decoder is made once, its hooks shared)."""
_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=_integer, parse_float=_decimal,
                            parse_constant=_constant)


def _located(value) -> tuple[list, _Refusal]:
    """The path and the refusal of the first refused value of the document, in document order, without recursion."""
    stack = [([], value)]
    while stack:
        loc, item = stack.pop()
        if isinstance(item, _Refusal):
            return (loc if item.key is None else [*loc, item.key]), item
        children = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        stack.extend(reversed([([*loc, key], child) for key, child in children]))
    raise AssertionError("a refusal was noted but is not in the document")


def has_places(number: float, places: int) -> bool:
    """Whether the number, as written, has at most `places` decimals, trailing zeros aside (10.50 has 1, 1e2 none);
    a float that did not come from this reader is judged by its shortest text (repr)."""
    if isinstance(number, int):
        return True
    if not math.isfinite(number):
        return False
    text = number.text if isinstance(number, WrittenNumber) else repr(float(number))
    _, digits, exponent = Decimal(text).as_tuple()
    significant = "".join(map(str, digits)).rstrip("0")
    return not significant or exponent + (len(digits) - len(significant)) >= -places
