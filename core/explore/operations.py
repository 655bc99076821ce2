"""The five filtered operations of the spec: filter (pages), aggregate, completeness, cross-channel, export.

Each evaluates one ListenerFilter over the company's in-memory snapshot; MongoDB is asked only for the rows of a
page or of an export, always by an index that starts with company_id.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.errors import ValidationFailed
from core.explore.filters import ListenerFilter
from core.explore.records import records
from core.explore.spec import EXCLUSIONS, SPEC
from core.listeners import snapshot
from core.listeners.fields import CATEGORICAL, COMPLETENESS, FLAGS, INFERRED_SINGLE
from core.stations.companies import get_company
from core.stations.models import Company
from core.stations.shows import show_titles
from core.text.query import check_bounds
from core.text.wording import percentage

MAX_PAGE_SIZE = 1000
MAX_PAGE = 1_000_000
"""Far beyond any station (a billion listeners at the largest page size); a bound so that the document can state one."""



@dataclass
class Selection:
    """The listeners a filter selects: the company, its snapshot and the matching rows."""

    company: Company
    snap: snapshot.Snapshot
    mask: np.ndarray

    @property
    def rows(self) -> np.ndarray:
        return np.flatnonzero(self.mask)

    def narrowed(self, flt: ListenerFilter) -> Selection:
        """The same snapshot under another filter (one company read, one snapshot, per request)."""
        return Selection(self.company, self.snap, flt.mask(self.snap, self.company.timezone))


    def on_both(self, pair: tuple[int, int] | None) -> Selection:
        """Only those active on both channels of `pair` (the cross-channel cells, the export's channel_pair)."""
        if pair is None or not len(self.snap):
            return self
        vocab, mask = [int(v) for v in self.snap.vocab.get("channels", [])], self.mask.copy()
        for channel in pair:
            mask &= self.snap.cols["channels"][:, vocab.index(channel)] if channel in vocab else False
        return Selection(self.company, self.snap, mask)


def select(company_id: int, flt: ListenerFilter) -> Selection:
    """The listeners of the company that match (404 for an unknown company)."""
    company = get_company(company_id)
    snap = snapshot.current(company_id)
    return Selection(company, snap, flt.mask(snap, company.timezone))


SORTS = {"last_active": "last_ts", "listener": "originator", "segment": "segment", "interactions_30d": "n_30",
         "channel": "primary_channel", "location": "location", "churn": "churn"}
"""The orders the explorer's listener table offers (`sort=name` ascending, `sort=-name` descending); the API keeps
its one documented order, most recently active first."""
DEFAULT_SORT = "-last_active"


def parse_sort(raw: str | None) -> str:
    """A sort of SORTS, else 422 naming the choices."""
    text = (raw or DEFAULT_SORT).strip()
    if text.lstrip("-") not in SORTS:
        raise ValidationFailed.one(["query", "sort"], f"Must be one of: {', '.join(SORTS)} (a leading - reverses).")
    return text


def _sort_key(snap: snapshot.Snapshot, rows: np.ndarray, name: str) -> np.ndarray:
    """Numbers that order the rows by a column: text and categories by their alphabetical rank, absent ones last."""
    column = snap.cols[SORTS[name]][rows]
    if name == "listener":
        return np.unique(column, return_inverse=True)[1]
    if name == "churn":  # in thousandths; a listener never heard from (or not scored yet) ranks as the surest
        return np.where(np.isnan(column), 1001, np.round(1000 * np.nan_to_num(column)))
    if name == "location":
        vocab = [str(v).lower() for v in snap.vocab.get("location", [])]
        rank = np.append(np.argsort(np.argsort(vocab)), len(vocab)) if vocab else np.zeros(1, dtype=np.int64)
        return rank[column]
    return column


def _ordered_rows(snap: snapshot.Snapshot, mask: np.ndarray, sort: str = DEFAULT_SORT) -> np.ndarray:
    """Matching rows in the order asked (by default most recently active first), then by originator, so that pages
    are stable."""
    rows = np.flatnonzero(mask)
    if not len(rows):
        return rows
    key = _sort_key(snap, rows, sort.lstrip("-")).astype(np.int64)
    order = np.lexsort((snap.originators[rows], -key if sort.startswith("-") else key))
    return rows[order]


def check_page(page: int, page_size: int) -> None:
    """1 <= page <= 1,000,000 and 1 <= page_size <= 1000, else 422."""
    problems = []
    for name, number, maximum in (("page", page, MAX_PAGE), ("page_size", page_size, MAX_PAGE_SIZE)):
        try:
            check_bounds(number, 1, maximum)
        except ValueError as error:
            problems.append({"loc": ["query", name], "msg": str(error), "type": "value_error"})
    if problems:
        raise ValidationFailed(problems)


def filter_listeners(company_id: int, flt: ListenerFilter, page: int = 1, page_size: int = 100) -> dict:
    """One page of matching listeners with the total and the number of pages."""
    check_page(page, page_size)
    return _page(select(company_id, flt), page, page_size)


def _page(sel: Selection, page: int, page_size: int, sort: str = DEFAULT_SORT) -> dict:
    snap = sel.snap
    rows = _ordered_rows(snap, sel.mask, sort)
    chosen = rows[(page - 1) * page_size: page * page_size]
    listeners = records(sel.company.company_id, snap, chosen)
    return {"total": int(len(rows)), "page": page, "page_size": page_size,
            "pages": math.ceil(len(rows) / page_size), "listeners": listeners}


def _cat_counts(snap, name, rows) -> dict:
    codes = snap.cols[name][rows]
    counts = np.bincount(codes[codes >= 0], minlength=len(snap.vocab.get(name, [])))
    pairs = [(str(v), int(c)) for v, c in zip(snap.vocab.get(name, []), counts) if c]
    return dict(sorted(pairs, key=lambda p: (-p[1], p[0])))


def _multi_counts(snap, name, rows) -> dict:
    counts = snap.cols[name][rows].sum(axis=0)
    pairs = [(str(v), int(c)) for v, c in zip(snap.vocab.get(name, []), counts) if c]
    return dict(sorted(pairs, key=lambda p: (-p[1], p[0])))


def _int_counts(values: np.ndarray, none: int = -1) -> dict:
    ids, counts = np.unique(values[values != none], return_counts=True)
    return {str(int(i)): int(c) for i, c in zip(ids, counts)}


def _flag_counts(values: np.ndarray) -> dict:
    if values.dtype == np.int8:
        return {"true": int((values == 1).sum()), "false": int((values == 0).sum()),
                "unknown": int((values == -1).sum())}
    return {"true": int(values.sum()), "false": int((~values).sum())}


def _named(counts: dict, names: dict, label: str) -> dict:
    return {k: {label: names.get(int(k), f"#{k}"), "count": v} for k, v in counts.items()}


CATEGORICAL_DIMENSIONS = ("segment", *CATEGORICAL, *INFERRED_SINGLE, "peak_time_of_day")
FLAG_DIMENSIONS = (*FLAGS, "profile_complete", "weekday_pattern")


def aggregate(company_id: int, flt: ListenerFilter) -> dict:
    """Listener counts for every filterable dimension of the filtered set (no pagination)."""
    return breakdown(select(company_id, flt))


def breakdown(sel: Selection, titles: dict | None = None) -> dict:
    """What aggregate answers, for any selection (the explorer's facets and the segment profile count alike)."""
    snap, rows = sel.snap, sel.rows
    out: dict = {"total": int(len(rows))}
    if not len(snap):
        return out
    channels = sel.company.channel_names()
    out.update({name: _cat_counts(snap, name, rows) for name in CATEGORICAL_DIMENSIONS})
    out["churn_risk"] = _cat_counts(snap, "churn_level", rows)
    out.update({name: _multi_counts(snap, column, rows) for name, column in
                (("tags", "tags"), ("inferred_interests", "inferred_interests"), ("campaign_type", "campaign_types"),
                 ("public_holiday", "public_holidays"), ("missing_fields", "missing_fields"))})
    out["channel_type"] = _named(_int_counts(snap.cols["primary_channel"][rows], none=0), channels, "name")
    out["has_channel"] = _named(_multi_counts(snap, "channels", rows), channels, "name")
    for name in ("peak_hour", "primary_day_of_week", "peak_month"):
        out[name] = _int_counts(snap.cols[name][rows])
    titles = show_titles(sel.company.company_id) if titles is None else titles
    out["timeslot_counts"] = _named(_multi_counts(snap, "timeslots", rows), titles, "title")
    out.update({name: _flag_counts(snap.cols[name][rows]) for name in FLAG_DIMENSIONS})
    return out


def completeness(company_id: int, flt: ListenerFilter) -> dict:
    """Declared-profile completeness of the filtered set: declared values only, never inferred ones."""
    return _completeness(select(company_id, flt))


def _completeness(sel: Selection) -> dict:
    snap, rows = sel.snap, sel.rows
    total = int(len(rows))
    missing = snap.cols["missing_fields"][rows] if len(snap) else np.zeros((0, len(COMPLETENESS)), dtype=bool)
    complete = int((~missing.any(axis=1)).sum()) if total else 0
    fields, position = {}, {name: i for i, name in enumerate(snap.vocab.get("missing_fields", COMPLETENESS))}
    for name in COMPLETENESS:
        gaps = int(missing[:, position[name]].sum()) if total else 0
        fields[name] = {"filled": total - gaps, "filled_percentage": percentage(total - gaps, total),
                        "missing": gaps, "missing_percentage": percentage(gaps, total)}
    return {"total": total, "complete": {"count": complete, "percentage": percentage(complete, total)},
            "incomplete": {"count": total - complete, "percentage": percentage(total - complete, total)},
            "fields": fields}


def cross_channel(company_id: int, flt: ListenerFilter) -> dict:
    """For every pair of channels the listeners active on both; per channel its total and its single-channel users."""
    return _cross_channel(select(company_id, flt))


def _cross_channel(sel: Selection) -> dict:
    snap, rows = sel.snap, sel.rows
    total = int(len(rows))
    if not len(snap):
        return {"total": 0, "channels": [], "pairs": []}
    names = sel.company.channel_names()
    ids = [int(v) for v in snap.vocab.get("channels", [])]
    used = snap.cols["channels"][rows].astype(np.int32)
    both = used.T @ used
    only = (used.sum(axis=1) == 1)
    unique = (used.astype(bool) & only[:, None]).sum(axis=0)
    channels = [{"channel_type": cid, "name": names.get(cid, f"#{cid}"), "listeners": int(both[i, i]),
                 "percentage": percentage(both[i, i], total), "unique": int(unique[i]),
                 "unique_percentage": percentage(unique[i], total)} for i, cid in enumerate(ids)]
    pairs = [{"channels": [a, b], "names": [names.get(a, f"#{a}"), names.get(b, f"#{b}")],
              "listeners": int(both[i, j]), "percentage": percentage(both[i, j], total)}
             for i, a in enumerate(ids) for j, b in enumerate(ids) if i < j]
    return {"total": total, "channels": channels, "pairs": pairs}


def explore(company_id: int, flt: ListenerFilter, page: int, page_size: int, sort: str = DEFAULT_SORT,
            pair: tuple[int, int] | None = None) -> dict:
    """Everything the explorer page shows, from one company read and one snapshot: the station's own values (for
    the form), a page of results, the aggregate, completeness and cross-channel figures of the filtered set, and
    the facet counts of the form."""
    check_page(page, page_size)
    station = select(company_id, ListenerFilter())
    chosen = (station.narrowed(flt) if flt else station).on_both(pair)
    titles = show_titles(company_id)
    station_counts = breakdown(station, titles)
    counts = breakdown(chosen, titles) if flt or pair else station_counts
    return {"station": station_counts, "results": _page(chosen, page, page_size, sort), "aggregate": counts,
            "facets": facets(station, flt, counts, titles, pair), "completeness": _completeness(chosen),
            "cross_channel": _cross_channel(chosen)}


def facets(station: Selection, flt: ListenerFilter, counts: dict, titles: dict,
           pair: tuple[int, int] | None = None) -> dict:
    """Per filter, the counts its options show (faceted search): option X of filter F counts the listeners that
    would match with X chosen, under every other active filter but F's own. A filter not in use takes the counts of
    the filtered set; each one in use costs one more vectorised pass. Exclusions have no options of their own; a
    filter's options are counted with its exclusion applied (an excluded value counts 0: it would add nobody)."""
    return {name: (breakdown(station.narrowed(flt.without(name)).on_both(pair), titles) if name in flt.values
                   else counts)
            for name in SPEC if name not in EXCLUSIONS}
