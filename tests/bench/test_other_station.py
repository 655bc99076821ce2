"""Mokgosi FM, the station nobody tuned for: deterministic files the importer takes whole, no province anywhere, and
a truth behind every labelled query (bench.other_station)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.other_station.generate import generate
from bench.search_labels import labelled_set

SIZE = 300
QUERIES = Path(__file__).resolve().parents[2] / "bench" / "other_station" / "queries.json"
PROVINCES = {"eastern cape", "free state", "gauteng", "kwazulu-natal", "kwazulu natal", "kzn", "limpopo",
             "mpumalanga", "north west", "northern cape", "western cape"}


def rows(folder: Path, kind: str) -> list[dict]:
    return [json.loads(line) for line in (folder / f"{kind}.jsonl").read_text(encoding="utf-8").splitlines()]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def station(tmp_path_factory) -> Path:
    return generate(tmp_path_factory.mktemp("other"), SIZE, echo=lambda _: None)


def test_the_same_size_and_seed_give_the_same_files(station, tmp_path):
    assert files(generate(tmp_path / "again", SIZE, echo=lambda _: None)) == files(station)


def test_another_seed_gives_another_station(station, tmp_path):
    other = generate(tmp_path / "other", SIZE, seed=2028, echo=lambda _: None)
    assert rows(other, "interactions") != rows(station, "interactions")
    assert json.loads((other / "meta.json").read_text())["seed"] == 2028


def test_a_listener_is_the_same_whatever_the_size(station, tmp_path):
    smaller = generate(tmp_path / "small", 40, echo=lambda _: None)
    first = {row["originator"] for row in rows(smaller, "interactions")}
    assert rows(smaller, "interactions") == [r for r in rows(station, "interactions") if r["originator"] in first]


def test_meta_holds_the_seed_and_now(station):
    meta = json.loads((station / "meta.json").read_text())
    assert meta["seed"] == 2027 and meta["now"] == "2026-09-30T16:00:00+00:00" and meta["company_id"] == 2
    assert meta["rows"]["profiles"] == len(rows(station, "profiles"))


def test_no_location_is_a_province(station):
    locations = {row["location"] for row in rows(station, "profiles") if "location" in row}
    assert len(locations) > 20 and not {value.casefold() for value in locations} & PROVINCES


def test_every_row_names_the_second_station(station):
    assert all(row["company_id"] == 2 for kind in ("channels", "shows", "profiles", "interactions")
               for row in rows(station, kind))


def test_tastes_kept_only_in_messages_are_neither_tags_nor_shows(station):
    tags = {tag for row in rows(station, "profiles") for tag in row.get("tags", ())}
    titles = " ".join(row["title"] for row in rows(station, "shows")).casefold()
    for name in ("maskandi", "reggae", "country", "rock", "boeremusiek", "bollywood"):
        assert not any(name in tag for tag in tags) and name not in titles


def test_a_taste_kept_only_in_messages_is_asked_for_in_several_phrasings(station):
    messages = {}
    for row in rows(station, "interactions"):
        messages.setdefault(row["originator"], []).append(row.get("message", ""))
    for name in ("taste-maskandi", "taste-reggae", "theme-no_water"):
        holders = (station / "truth" / f"{name}.txt").read_text().split()
        assert holders and all(messages[o] for o in holders)
        assert len({m for o in holders for m in messages[o][-3:]}) >= 3


def test_nothing_at_the_station_names_what_nobody_has(station):
    queries, _, _ = labelled_set(QUERIES)
    words = [q.q.split()[0].casefold() for q in queries if q.kind == "nobody has"]
    text = " ".join([r.get("message", "") for r in rows(station, "interactions")]
                    + [t for r in rows(station, "profiles") for t in r.get("tags", ())]
                    + [r["title"] for r in rows(station, "shows")]).casefold()
    assert words and not [w for w in words if re.search(rf"\b{re.escape(w)}\b", text)]


@pytest.mark.db
def test_the_importer_takes_every_row_and_every_segment_occurs(app, station):
    from bench.other_station.load import load_station
    from core.listeners import snapshot
    from core.segmentation.rules import SEGMENTS

    imported = load_station(2, station, SIZE, 2027)["imported"]
    assert {kind: (r["bad"], r["warnings"]) for kind, r in imported.items()} == {kind: (0, 0) for kind in imported}
    assert imported["interactions"]["imported"] == imported["interactions"]["rows"] > 5 * SIZE
    assert set(snapshot.current(2).labels("segment")) == set(SEGMENTS)
    assert len(snapshot.current(2)) == SIZE


@pytest.mark.db
def test_every_query_has_a_truth_except_those_nobody_can_answer(app, station):
    from bench.other_station.load import load_station
    from bench.search_labels import Truth
    from core.explore.filters import ListenerFilter
    from core.explore.operations import select
    from core.listeners.events import load_events

    load_station(2, station, SIZE, 2027)
    queries, themes, segments = labelled_set(QUERIES)
    sel = select(2, ListenerFilter())
    truth = Truth(sel.snap, sel.company.timezone, {}, themes, load_events(2), base=station)
    found = {q.id: int(truth.mask(q.answer).sum()) for q in queries}
    assert len(queries) >= 30 and len(segments) >= 6
    assert [q.id for q in queries if (found[q.id] == 0) != (q.kind == "nobody has")] == []
    assert all(truth.mask(s["answer"]).any() for s in segments)
