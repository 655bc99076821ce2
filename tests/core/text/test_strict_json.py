"""The one JSON reader (core.text.strict_json): what it refuses, where it says the problem is, and the decimal text it
keeps. No database."""
from __future__ import annotations

import copy
import random

import pytest

from core.text import strict_json
from core.text.strict_json import MalformedJson, RefusedJson, WrittenNumber, has_places, loads, place


def refusal(document: str | bytes) -> RefusedJson:
    with pytest.raises(RefusedJson) as caught:
        loads(document)
    return caught.value


@pytest.mark.parametrize(("document", "loc", "key"), [
    ('{"credits": 1, "credits": 999999}', ["credits"], "credits"),
    ('{"Cell": "mobile_number", "Name": "name", "Cell": "name"}', ["Cell"], "Cell"),
    ('{"email": {"to": ["a@b.co"], "to": ["c@d.co"]}}', ["email", "to"], "to"),
    ('[{"campaign_type": "a"}, {"campaign_type": "a", "campaign_type": "b"}]', [1, "campaign_type"], "campaign_type"),
])
def test_a_key_given_twice_is_refused_naming_the_key_and_its_place(document, loc, key):
    refused = refusal(document)
    assert refused.loc == loc
    assert repr(key) in refused.msg


def test_the_first_of_several_refusals_in_document_order_is_the_one_named():
    assert refusal('{"a": [1, {"b": 1, "b": 2}], "c": NaN}').loc == ["a", 1, "b"]


@pytest.mark.parametrize("digits", ["9007199254740992", "-9007199254740992", "1" * 17, "1" * 5000, "-" + "9" * 5000])
def test_an_integer_past_2_to_the_53_minus_1_either_side_is_refused_without_repeating_it(digits):
    refused = refusal(f'{{"credits": {digits}}}')
    assert refused.loc == ["credits"]
    assert digits.lstrip("-")[:12] not in refused.msg


@pytest.mark.parametrize("number", [9007199254740991, -9007199254740991, 0, -1, 27821234567])
def test_an_integer_within_2_to_the_53_minus_1_is_read_as_an_int(number):
    assert loads(f"[{number}]") == [number]
    assert type(loads(f"[{number}]")[0]) is int


@pytest.mark.parametrize("depth", [33, 1000, 5000, 100_000])
def test_nesting_deeper_than_32_is_refused_without_a_recursion_error(depth):
    assert refusal("[" * depth + "]" * depth).loc == []
    assert refusal('{"mapping": ' + "[" * depth + "]" * depth + "}").loc == []


def test_nesting_of_32_levels_is_read():
    assert loads("[" * 32 + "]" * 32) == [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]


def test_brackets_inside_strings_are_not_nesting():
    text = '{"note": "' + "[{" * 100 + '\\"' + "[" * 100 + '"}'
    assert loads(text)["note"].startswith("[{[{")


@pytest.mark.parametrize(("written", "loc"), [("NaN", ["threshold"]), ("Infinity", ["threshold"]),
                                              ("-Infinity", ["threshold"]), ("1e400", ["threshold"]),
                                              ("-1e400", ["threshold"])])
def test_nan_infinity_and_numbers_beyond_a_float_are_refused(written, loc):
    refused = refusal(f'{{"threshold": {written}}}')
    assert refused.loc == loc
    assert "1e400" not in refused.msg


@pytest.mark.parametrize("document", ["{", '{"a": 1,}', "[1] [2]", "", "   ", b"\xff\xfe{}", "{'a': 1}"])
def test_a_document_that_is_not_json_at_all_is_malformed_not_refused(document):
    with pytest.raises(MalformedJson):
        loads(document)


def test_utf8_bytes_with_or_without_a_byte_order_mark_are_read():
    assert loads('{"naam": "Zoë"}'.encode()) == loads(b"\xef\xbb\xbf" + '{"naam": "Zoë"}'.encode()) == {"naam": "Zoë"}


@pytest.mark.parametrize("written", ["0.30000000000000004", "0.3", "1.005", "1e2", "10.50", "-0.0"])
def test_a_number_that_is_not_an_integer_keeps_the_text_it_was_written_as(written):
    number = loads(f"[{written}]")[0]
    assert number == float(written) and number.text == written
    assert copy.deepcopy(number).text == written


@pytest.mark.parametrize("written", ["0.3", "10", "10.5", "1e2", "10.500", "0.00", "1E-2", "0.001e1", "-7.25",
                                     "100000.01"])
def test_a_number_written_with_at_most_2_decimals_fits_2_places(written):
    assert has_places(loads(f"[{written}]")[0], 2)


@pytest.mark.parametrize("written", ["0.30000000000000004", "1.005", "0.300000000000000000000000000001", "1e-3",
                                     "0.0001e1", "12.345"])
def test_a_number_written_with_more_decimals_does_not_fit_2_places_even_when_its_float_rounds(written):
    assert not has_places(loads(f"[{written}]")[0], 2)


def test_a_float_from_elsewhere_is_judged_by_its_shortest_text():
    assert has_places(0.57, 2) and not has_places(0.1 + 0.2, 2) and has_places(10, 0)
    assert not has_places(WrittenNumber("2.5"), 0)


def test_an_error_names_its_place_as_people_read_a_path():
    assert place(["rows", 0, "campaign_type"]) == "rows[0].campaign_type"
    assert str(refusal('[{"a": 1, "a": 2}]')).startswith("at [0].a: ")


ATOMS = ['"a"', '"a:b"', '"::"', "1", "-0", "9007199254740991", "9007199254740992", "-9007199254740992", "1.5",
         "1e400", "NaN", "true", "null", '"\\u003a"', '"\\ud800"', "[]", '[1,"x:y"]', "[[1]]", '{"k":1}', "{}", '"é"',
         '"\\""', "99999999999999999999", '"\x01"', "[1.0]", '["a", null, true]']
KEYS = ['"a"', '"b"', '"c:d"', '"a"', '""', '"\\u0061"']


def _answer(document):
    try:
        value = loads(document)
        return "read", value, {k: type(v).__name__ for k, v in value.items()} if isinstance(value, dict) else None
    except RefusedJson as refused:
        return "refused", refused.loc, refused.msg
    except MalformedJson as malformed:
        return "malformed", malformed.loc, malformed.msg


def _documents(count: int) -> list:
    """Objects of up to four members drawn from atoms that the reader refuses, reads alike or reads otherwise than
    a plain JSON reader (keys twice, escapes, surrogates, long integers, NaN), wrapped well or badly, as text or
    UTF-8."""
    draw, documents = random.Random(51), []
    for _ in range(count):
        body = ",".join(f"{draw.choice(KEYS)}{draw.choice(['', ' '])}:{draw.choice(ATOMS)}"
                        for _ in range(draw.randint(0, 4)))
        document = draw.choice(["{%s}", " {%s} ", "[%s]", "{%s", "\ufeff{%s}"]) % body
        documents.append(document if draw.random() < 0.3 else document.encode("utf-8", "surrogatepass"))
    return documents + [b'\xef\xbb\xbf{"a":1}', b'{"a":1}\n', b'{"a":"\xff"}', b'{"a":"\xed\xa0\x80"}', b"  ",
                        b'{"a":1}{"b":2}', '{"originator": "27821234567", "channel_type": 2, "tags": ["a:b", null]}']


def test_the_quick_reading_of_flat_objects_answers_exactly_what_the_reader_proper_does(monkeypatch):
    documents = _documents(6000)
    quick = [_answer(document) for document in documents]
    taken = sum(strict_json._flat_object(document) is not None for document in documents)
    monkeypatch.setattr(strict_json, "_flat_object", lambda document: None)
    assert [_answer(document) for document in documents] == quick
    assert taken > 500  # the quick reading was tried on many of them, not only the reader proper
