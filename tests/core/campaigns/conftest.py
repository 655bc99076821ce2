"""Fixtures of the campaign agent's tests: the demo station's vocabulary built in memory (no database), and the
loopback OpenAI server (`openai_server`)."""
from __future__ import annotations

import pytest

from core.demo import catalogue as cat
from core.search.vocabulary import Vocabulary, build_vocabulary
from tests.openai_server import loopback_openai  # noqa: F401 - registers the fixture openai_server here


def demo_vocabulary(**snapshot_values) -> Vocabulary:
    """What the demo station (core.demo) can be mapped to: its places, languages, tags, shows and channels."""
    cities = [city for options in cat.CITIES.values() for city in options]
    snap = {"location": sorted({c for c, _, _ in cities} | {p for _, p, _ in cities}),
            "language": list(cat.LANGUAGES), "employment_status": list(cat.EMPLOYMENT),
            "tags": sorted(set(cat.GENRE_TAGS.values()) | set(cat.EXTRA_TAGS) | {"competitions"}),
            "campaign_types": ["competition", *cat.CAMPAIGN_TYPES], **snapshot_values}
    return build_vocabulary(1, cat.TIMEZONE, snap, {show[0]: show[1] for show in cat.SHOWS}, cat.CHANNELS)


@pytest.fixture
def vocab() -> Vocabulary:
    return demo_vocabulary()
