"""A file read through its mapping: each column's cells go to the field the producer chose (or nowhere), read as
people write them (core.ingest.readings), so that the importer sees rows in the import format.

Several columns may fill one field (core.ingest.columns.JOINED: a first name and a surname, a date and a time, tag
columns); any other field takes the first of its columns whose cell is not empty. A file with no originator column
takes the mobile number as originator, written as interaction originators are (E.164 digits without `+`), so that
the file's listeners meet their interactions; a row whose number cannot be read is a bad row that says so.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial

from core.errors import ValidationFailed
from core.ingest import readings
from core.ingest.columns import JOINED, columns_of, field_of, named_tag
from core.ingest.dates import DAY_FIRST, ORDERS, NoDate, moment_text
from core.listeners.identifiers import e164
from core.stations import defaults
from core.stations.channels import ChannelNames
from core.text.query import unknown_name


class BadRow(str):
    """A bad row's reason, with the field it is about (the report counts bad rows by field)."""

    field: str | None = None

    def __new__(cls, reason: str, field_name: str | None = None):
        made = super().__new__(cls, reason)
        made.field = field_name
        return made


@dataclass(frozen=True)
class Mapping:
    """Which field each column of a file goes to (None: skipped), and how its dates are written; `country` reads
    national phone numbers, `channels` the station's channel names (core.stations.channels) and `shows` its show
    titles (lower case) as channel_type and timeslot_id numbers."""

    kind: str
    pairs: tuple[tuple[str, str | None], ...]
    date_order: str = DAY_FIRST
    country: str = "ZA"
    channels: ChannelNames = field(default_factory=lambda: ChannelNames(defaults.CHANNELS), compare=False)
    shows: dict = field(default_factory=dict, compare=False)

    @property
    def fields(self) -> set[str]:
        """The fields some column goes to."""
        return {name for _, name in self.pairs if name}

    def as_dict(self) -> dict[str, str | None]:
        """{column: field or None}, in the file's order (what the API answers)."""
        return dict(self.pairs)

    def rows(self, rows: Iterable[tuple[int, dict | str]]) -> Iterator[tuple[int, dict | str]]:
        """The file's (line, cells) as (line, row in the import format), or (line, reason) for a bad row."""
        read = _Reader(self)
        for line, cells in rows:
            yield line, read(cells) if isinstance(cells, dict) else cells


def mapping_from(kind: str, given: dict, columns: list[str], **options) -> Mapping:
    """The Mapping of a {column: field or None} a producer or a client gave, in the file's column order; columns it
    leaves out are skipped. ValidationFailed names a column the file lacks or a field the kind lacks (the closest
    known one too)."""
    known = columns_of(kind)
    problems = []
    for column, name in given.items():
        if column not in columns:
            problems.append({"loc": ["mapping", column], "type": "value_error",
                             "msg": unknown_name(column, columns, "column") + " (the file's columns)"})
        elif name is not None and field_of(name) not in known:
            problems.append({"loc": ["mapping", column], "type": "value_error",
                             "msg": unknown_name(name, list(known), f"{kind} field")})
    if options.get("date_order", DAY_FIRST) not in ORDERS:
        problems.append({"loc": ["date_order"], "type": "value_error", "msg": f"one of {', '.join(ORDERS)}"})
    if problems:
        raise ValidationFailed(problems)
    return Mapping(kind, tuple((column, given.get(column)) for column in columns), **options)


class _Reader:
    """Reads the rows of one Mapping: the readers of its fields are chosen once, not per row."""

    def __init__(self, mapping: Mapping):
        by_field: dict[str, list[str]] = {}
        self.tag_of = {column: named_tag(name) or column for column, name in mapping.pairs}
        for column, name in mapping.pairs:
            if name:
                by_field.setdefault(field_of(name), []).append(column)
        self.order = mapping.date_order
        self.one = [(name, columns[0], self._one_reader(mapping, name, columns[0]))
                    for name, columns in by_field.items() if len(columns) == 1]
        self.first = [(name, columns, _reader(mapping, name)) for name, columns in by_field.items()
                      if len(columns) > 1 and name not in JOINED]
        self.joined = [(name, columns) for name, columns in by_field.items() if len(columns) > 1 and name in JOINED]
        self.mobile_origin = "originator" not in by_field and "mobile_number" in by_field
        self.country, self.kind = mapping.country, mapping.kind

    def _one_reader(self, mapping: Mapping, name: str, column: str) -> Callable | None:
        """How the cell of a field filled by one column is read (None: as it is, text or a whole number)."""
        if name == "timestamp":
            return lambda value: moment_text([value], self.order)
        if name == "tags":
            return lambda value: readings.tags_of(value, self.tag_of[column])
        return _reader(mapping, name)

    def __call__(self, cells: dict) -> dict | BadRow:
        row = {}
        try:
            for name, column, read in self.one:
                value = cells.get(column)
                if value is not None:
                    row[name] = read(value) if read else (value if type(value) in _AS_THEY_ARE
                                                          else readings.text(value))
            for name, columns, read in self.first:
                value = next((cells[column] for column in columns if column in cells), None)
                if value is not None:
                    row[name] = read(value) if read else readings.text(value)
            for name, columns in self.joined:
                present = [(column, cells[column]) for column in columns if column in cells]
                if present:
                    row[name] = self._joined(name, present)
        except NoDate:
            return BadRow(f"timestamp is not a date and time that can be read ({_order_words(self.order)})",
                          "timestamp")
        return self._with_originator(row) if self.mobile_origin else row

    def _joined(self, name: str, present: list[tuple[str, object]]):
        """One field from the cells of several columns: a moment, tags, or text joined by spaces."""
        if name == "timestamp":
            return moment_text([value for _, value in present], self.order)
        if name == "tags":
            return list(dict.fromkeys(tag for column, value in present
                                      for tag in readings.tags_of(value, self.tag_of[column])))
        return " ".join(readings.text(value) for _, value in present)

    def _with_originator(self, row: dict) -> dict | BadRow:
        """The mobile number as originator (digits of E.164); a bad row when the number cannot be read."""
        written = row.get("mobile_number")
        number = e164(written, self.country) if written else None
        if number is None:
            why = "is missing" if not written else f"is not a valid phone number (read as {self.country})"
            return BadRow(f"mobile_number {why}: with no originator column, it is the listener's originator",
                          "mobile_number")
        row["originator"] = number.lstrip("+")
        if self.kind == "interactions":
            del row["mobile_number"]
        return row


_AS_THEY_ARE = (str, int, bool, list)
"""Cells the importer reads as they are (a JSON value, CSV text); others (an Excel number or date) become text."""


def _reader(mapping: Mapping, name: str) -> Callable | None:
    """How a cell of the field is read (None: as text)."""
    value = columns_of(mapping.kind)[name].value
    if value == "channel":
        return partial(readings.channel, names=mapping.channels)
    if name == "timeslot_id" and mapping.kind == "interactions":
        return partial(readings.show, titles=mapping.shows)
    if value == "age":
        return partial(readings.age_group, order=mapping.date_order)
    return {"gender": readings.gender, "flag": readings.flag, "days": readings.days, "clock": readings.clock,
            "campaign": readings.campaign}.get(value)


def _order_words(order: str) -> str:
    """How the file's dates are read, in words."""
    return "dates read day first: 20/11/2026" if order == DAY_FIRST else "dates read month first: 11/20/2026"
